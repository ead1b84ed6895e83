/**
 * `npm run bench:capacity`: how many orders one D1 database holds, and how fast it takes creates.
 *
 * A throwaway local state folder gets the migrations, 100 partner accounts and 100,000 orders seeded
 * straight in SQL as `npm run bench:cost` seeds them (scripts/lib/cost-seed.ts: each order with its
 * items, moves, events, deliveries, print file, and its share of claims, ledger entries and quotes,
 * five minutes apart over the year before now). The local D1 database is one SQLite file: a copy of it
 * is VACUUMed (node:sqlite) before and after the seeding, and the difference divided by the orders
 * is the bytes an order takes. The same copy with every event and delivery older than 90 days deleted
 * (the retention window), VACUUMed again, gives the bytes with retention; with none at all, the part
 * of an order's bytes that events and deliveries are. From these, the orders a day one database
 * (10 GB) holds for three years, without retention and with it.
 *
 * Then `wrangler dev` runs on that database and autocannon sends order creates (distinct external
 * ids, a ready uploaded file) from 20 connections for 20 s after a 5 s warm-up: the creates per second
 * answered 201 are an upper bound of what one database takes (loopback, local SQLite, no network to
 * D1). Everything it starts it stops, and the folder is removed. `-- --orders 20000 --seconds 10`
 * measures other amounts.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { inlineStatement } from "../src/accounts/provisioning.ts";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import { planAccount } from "../src/admin/provisioning.ts";
import { DROP_SEED_ACCOUNTS_SQL, seedAccountsSql, seedOrdersSql } from "./lib/cost-seed.ts";
import { databaseFile, vacuumed } from "./lib/database-bytes.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { migrateFreshFolder } from "./lib/migrated-template.ts";
import { createScenarioAccounts, framedOrderBodies, liftLimits, uploadReadyFile } from "./lib/scenario.ts";
import { type D1Target, executeSql, PROJECT_ROOT } from "./lib/wrangler.ts";

/** The shipments migration's backfill: each seeded shipped or delivered order gets its shipment, as in bench:cost. */
const SHIPMENTS_OF_SHIPPED_ORDERS = await readFile(
	path.join(PROJECT_ROOT, "migrations", "0021_shipments_of_shipped_orders.sql"),
	"utf8",
);

const { values } = parseArgs({
	options: { orders: { type: "string", default: "100000" }, seconds: { type: "string", default: "20" } },
});
const ORDERS = Number(values.orders);
const LOAD_SECONDS = Number(values.seconds);
if (!Number.isInteger(ORDERS) || ORDERS < 1000 || ORDERS > 1_000_000) throw new Error("--orders: 1000 to 1000000");
if (!Number.isInteger(LOAD_SECONDS) || LOAD_SECONDS < 1 || LOAD_SECONDS > 300) throw new Error("--seconds: 1 to 300");

const ACCOUNTS = 100;
const CONNECTIONS = 20;
const WARM_UP_SECONDS = 5;
/** D1's largest database (Cloudflare's limits page: 10 GB a database on the paid plan), in bytes. */
const DATABASE_BYTES = 10_000_000_000;
const RETENTION_DAYS = 90;
const DAYS_IN_THREE_YEARS = 3 * 365;

/** 100 partner accounts in one statement batch; their ids, in order, for the seeding. */
async function seedPartners(target: D1Target): Promise<string[]> {
	const ids: string[] = [];
	const statements: string[] = [];
	for (let index = 0; index < ACCOUNTS; index++) {
		const planned = await planAccount(`Capacity Partner ${String(index).padStart(3, "0")}`, PARTNER_SCOPES, new Date());
		ids.push(planned.created.account.id);
		statements.push(...planned.statements.map((statement) => `${inlineStatement(statement)};`));
	}
	await executeSql(`${statements.join("\n")}\n`, target);
	return ids;
}

/**
 * Creates per second answered 201 over `seconds`, from CONNECTIONS connections, each a new external id
 * under `prefix` (a stretch of its own, so no create repeats an earlier stretch's and is answered as a replay).
 */
async function createsPerSecond(
	origin: string,
	headers: Record<string, string>,
	fileId: string,
	seconds: number,
	prefix: string,
) {
	const body = framedOrderBodies(fileId, prefix, "Capacity Buyer");
	const result = await autocannon({
		url: `${origin}/v1/orders`,
		method: "POST",
		headers,
		connections: CONNECTIONS,
		duration: seconds,
		requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }],
	});
	return {
		perSecond: result["2xx"] / seconds,
		non2xx: result.non2xx,
		errors: result.errors,
		p99Ms: result.latency.p99,
	};
}

const MB = 1_000_000;
const count = (value: number) => Math.round(value).toLocaleString("en-US");

const persistTo = await mkdtemp(path.join(tmpdir(), "fps-bench-capacity-"));
let server: DevServer | undefined;
try {
	const target: D1Target = { remote: false, persistTo };
	await migrateFreshFolder(persistTo);
	const { partner, adminKey } = await createScenarioAccounts(target, "Capacity");
	const accountIds = await seedPartners(target);
	const file = await databaseFile(persistTo);
	const empty = (await vacuumed(file, persistTo)).bytes;

	const started = performance.now();
	// Order 0 a year back, five minutes apart: 100,000 orders end about 18 days before now.
	const baseUnix = Math.floor(Date.now() / 1000) - 365 * 86400;
	await executeSql(
		seedAccountsSql(accountIds) +
			seedOrdersSql({ from: 0, to: ORDERS, accounts: accountIds, baseUnix }) +
			SHIPMENTS_OF_SHIPPED_ORDERS +
			DROP_SEED_ACCOUNTS_SQL,
		target,
	);
	console.log(`seeded ${count(ORDERS)} orders in ${((performance.now() - started) / 1000).toFixed(1)} s`);

	const cutoff = new Date(Date.now() - RETENTION_DAYS * 86400_000).toISOString();
	const seededCopy = await vacuumed(file, persistTo);
	const full = seededCopy.bytes;
	const retained = (
		await vacuumed(
			file,
			persistTo,
			`DELETE FROM deliveries WHERE created_at < '${cutoff}'; DELETE FROM events WHERE created_at < '${cutoff}';`,
		)
	).bytes;
	const withoutEvents = (await vacuumed(file, persistTo, "DELETE FROM deliveries; DELETE FROM events;")).bytes;
	const perOrder = (full - empty) / ORDERS;
	const perOrderRetained = (retained - empty) / ORDERS;
	const eventsPerOrder = (full - withoutEvents) / ORDERS;
	const restPerOrder = perOrder - eventsPerOrder;
	// Three years at D orders a day: without retention every order keeps everything; with it, every
	// order keeps its own rows and only the last 90 days' orders keep their events and deliveries.
	const perDayWithout = DATABASE_BYTES / (DAYS_IN_THREE_YEARS * perOrder);
	const perDayWith = DATABASE_BYTES / (DAYS_IN_THREE_YEARS * restPerOrder + RETENTION_DAYS * eventsPerOrder);

	server = await startDevServer({
		port: await freePort(),
		persistTo,
		vars: { UPLOAD_SIGNING_SECRET: "bench-upload-signing-secret-0123456789", ENVIRONMENT: "development" },
	});
	await liftLimits(server.origin, adminKey, partner.account.id);
	const headers = { Authorization: `Bearer ${partner.keys.live.key}`, "Content-Type": "application/json" };
	const fileId = await uploadReadyFile(server.origin, headers);
	await createsPerSecond(server.origin, headers, fileId, WARM_UP_SECONDS, "CAP-WARM");
	const load = await createsPerSecond(server.origin, headers, fileId, LOAD_SECONDS, "CAP");
	await server.stop();
	server = undefined;

	console.log(`\nOne D1 database at ${count(ORDERS)} seeded orders (100 partners), sizes after VACUUM:\n`);
	console.log("| figure | value |");
	console.log("| --- | --- |");
	console.log(`| database without orders (schema, catalog, price book, accounts) | ${(empty / MB).toFixed(1)} MB |`);
	console.log(`| database with the orders, as seeded | ${(full / MB).toFixed(1)} MB |`);
	console.log(`| bytes per order, as seeded (every event and delivery kept) | ${count(perOrder)} |`);
	console.log(
		`| bytes per order with ${RETENTION_DAYS} days of events and deliveries (older ones deleted) | ${count(perOrderRetained)} |`,
	);
	console.log(`| of which an order's events and deliveries, when kept | ${count(eventsPerOrder)} |`);
	console.log(
		`| orders a day one database (10 GB) holds for three years, without retention | ${count(perDayWithout)} |`,
	);
	console.log(
		`| orders a day one database (10 GB) holds for three years, with ${RETENTION_DAYS}-day retention | ${count(perDayWith)} |`,
	);
	console.log(
		`| creates per second one database took (POST /v1/orders, ${CONNECTIONS} connections, ${LOAD_SECONDS} s, loopback) | ${load.perSecond.toFixed(0)} (p99 ${load.p99Ms} ms, ${load.non2xx} non-2xx, ${load.errors} errors) |`,
	);
	console.log("\nBytes per order by table, its indexes included, as seeded (tables over 1% of the whole):\n");
	console.log("| table | bytes per order |");
	console.log("| --- | --- |");
	for (const { table, bytes } of seededCopy.tables) {
		if (bytes > full / 100) console.log(`| ${table} | ${count(bytes / ORDERS)} |`);
	}
	if (load.non2xx > 0 || load.errors > 0) process.exitCode = 1;
} finally {
	await server?.stop();
	await rm(persistTo, { recursive: true, force: true });
}
