/**
 * `npm run bench:order-archive`: the bytes an order leaves in D1 once archived, against what it took hot.
 *
 * A throwaway local state folder gets the migrations, 100 partner accounts and `--orders` orders (2,000
 * unless told) seeded straight in SQL as `npm run bench:capacity` seeds them (scripts/lib/cost-seed.ts:
 * a year of orders, 70% delivered and 5% canceled, every seventh delivered one with a claim, each with
 * its items, moves, shipment, events and deliveries). A VACUUMed copy of the database is measured; then
 * `wrangler dev` runs on it and `POST /v1/admin/order-archive/run` is called until a run archives none
 * (scripts/lib/archive-orders.ts, the loop `npm run admin -- archive-orders` makes), and the database is
 * measured again. The difference over the orders archived is what archiving saves an order; the R2
 * records' bytes are read from the local bucket (nothing else is in it: the seeded files are rows only). Everything it starts it stops, and the folder is removed.
 */
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { inlineStatement } from "../src/accounts/provisioning.ts";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import { planAccount } from "../src/admin/provisioning.ts";
import { archiveOrdersUntilDone } from "./lib/archive-orders.ts";
import { DROP_SEED_ACCOUNTS_SQL, seedAccountsSql, seedOrdersSql } from "./lib/cost-seed.ts";
import { databaseFile, vacuumed } from "./lib/database-bytes.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { migrateFreshFolder } from "./lib/migrated-template.ts";
import { createScenarioAccounts } from "./lib/scenario.ts";
import { type D1Target, executeSql, PROJECT_ROOT } from "./lib/wrangler.ts";

const { values } = parseArgs({ options: { orders: { type: "string", default: "2000" } } });
const ORDERS = Number(values.orders);
if (!Number.isInteger(ORDERS) || ORDERS < 100 || ORDERS > 1_000_000) throw new Error("--orders: 100 to 1000000");

const ACCOUNTS = 100;
/** The age the run archives at: the default ORDER_ARCHIVE_DAYS. */
const ARCHIVE_DAYS = 60;

/** The shipments migration's backfill: each seeded shipped or delivered order gets its shipment. */
const SHIPMENTS_OF_SHIPPED_ORDERS = await readFile(
	path.join(PROJECT_ROOT, "migrations", "0021_shipments_of_shipped_orders.sql"),
	"utf8",
);

/** `ACCOUNTS` partner accounts in one statement batch; their ids, in order. */
async function seedPartners(target: D1Target): Promise<string[]> {
	const ids: string[] = [];
	const statements: string[] = [];
	for (let index = 0; index < ACCOUNTS; index++) {
		const planned = await planAccount(`Archive Partner ${String(index).padStart(3, "0")}`, PARTNER_SCOPES, new Date());
		ids.push(planned.created.account.id);
		statements.push(...planned.statements.map((statement) => `${inlineStatement(statement)};`));
	}
	await executeSql(`${statements.join("\n")}\n`, target);
	return ids;
}

/** How many orders the database holds archived, and how many hot. */
function archivedCount(file: string): { archived: number; hot: number } {
	const database = new DatabaseSync(file, { readOnly: true });
	const row = database
		.prepare("SELECT COUNT(archived_at) AS archived, COUNT(*) - COUNT(archived_at) AS hot FROM orders")
		.get();
	database.close();
	return { archived: Number(row?.archived), hot: Number(row?.hot) };
}

/** The bytes of the objects in the local R2 bucket (miniflare keeps each object's body as a blob file). */
async function bucketBytes(folder: string): Promise<number> {
	let total = 0;
	for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
		if (entry.isFile() && entry.parentPath.split(path.sep).includes("blobs")) {
			total += (await stat(path.join(entry.parentPath, entry.name))).size;
		}
	}
	return total;
}

const count = (value: number) => Math.round(value).toLocaleString("en-US");

const persistTo = await mkdtemp(path.join(tmpdir(), "fps-bench-order-archive-"));
let server: DevServer | undefined;
try {
	const target: D1Target = { remote: false, persistTo };
	await migrateFreshFolder(persistTo);
	const { adminKey } = await createScenarioAccounts(target, "Archive");
	const accountIds = await seedPartners(target);
	const baseUnix = Math.floor(Date.now() / 1000) - 365 * 86400;
	await executeSql(
		seedAccountsSql(accountIds) +
			seedOrdersSql({ from: 0, to: ORDERS, accounts: accountIds, baseUnix }) +
			SHIPMENTS_OF_SHIPPED_ORDERS +
			DROP_SEED_ACCOUNTS_SQL,
		target,
	);
	const file = await databaseFile(persistTo);
	const before = await vacuumed(file, persistTo);

	server = await startDevServer({
		port: await freePort(),
		persistTo,
		vars: { UPLOAD_SIGNING_SECRET: "bench-upload-signing-secret-0123456789", ENVIRONMENT: "development" },
	});
	const started = performance.now();
	const totals = await archiveOrdersUntilDone(server.origin, adminKey, ARCHIVE_DAYS);
	const seconds = (performance.now() - started) / 1000;
	await server.stop();
	server = undefined;

	const after = await vacuumed(file, persistTo);
	const { archived, hot } = archivedCount(file);
	const saved = before.bytes - after.bytes;
	const records = await bucketBytes(path.join(persistTo, "v3", "r2"));
	const bytesOf = (tables: typeof before.tables, name: string) => tables.find((row) => row.table === name)?.bytes ?? 0;
	const orderTables = ["orders", "order_items", "shipments", "order_moves"];
	const hotOrderBytes = orderTables.reduce((sum, name) => sum + bytesOf(before.tables, name), 0);
	const afterOrderBytes = orderTables.reduce((sum, name) => sum + bytesOf(after.tables, name), 0);

	console.log(
		`\nArchiving ${count(ORDERS)} seeded orders (older than ${ARCHIVE_DAYS} days when finished), VACUUMed sizes:\n`,
	);
	console.log("| figure | value |");
	console.log("| --- | --- |");
	console.log(
		`| orders archived / left hot | ${count(archived)} / ${count(hot)} (in ${totals.runs} runs, ${seconds.toFixed(1)} s) |`,
	);
	console.log(`| database before / after | ${count(before.bytes)} / ${count(after.bytes)} bytes |`);
	console.log(`| bytes D1 saves per archived order (whole database) | ${count(saved / Math.max(archived, 1))} |`);
	console.log(
		`| an order's own tables (orders, items, shipments, moves) per order, before / after | ${count(hotOrderBytes / ORDERS)} / ${count(afterOrderBytes / ORDERS)} |`,
	);
	console.log(`| R2 bytes per archived order's record | ${count(records / Math.max(archived, 1))} |`);
	console.log("\n| table | bytes before | bytes after |");
	console.log("| --- | --- | --- |");
	for (const name of orderTables) {
		console.log(`| ${name} | ${count(bytesOf(before.tables, name))} | ${count(bytesOf(after.tables, name))} |`);
	}
} finally {
	await server?.stop();
	await rm(persistTo, { recursive: true, force: true });
}
