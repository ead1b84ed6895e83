/**
 * `npm run bench:capacity`: how many orders one D1 database holds, with and without the order archive,
 * how fast it takes creates, and so how many databases a deployment needs.
 *
 * A throwaway local state folder gets the migrations, 100 partner accounts and 100,000 orders seeded
 * straight in SQL as `npm run bench:cost` seeds them (scripts/lib/cost-seed.ts: each order with its
 * items, moves, events, deliveries, print file, and its share of claims, ledger entries and quotes,
 * five minutes apart from 375 days back), the oldest 90% of them finished (delivered or canceled)
 * more than 60 days ago. The local D1 database is one SQLite file: a copy of it is VACUUMed (node:sqlite) before
 * and after the seeding, and the difference divided by the orders is the bytes an order takes. The
 * same copy with every event and delivery older than 90 days deleted (the retention window) gives the
 * bytes with retention; with none at all, the part of an order's bytes that events and deliveries are.
 *
 * Then `wrangler dev` runs on that database. One partner's history is read through the API (every
 * page of its orders in each mode, each order by id, every tenth by external id, 13 monthly
 * statements); the admin route archives every order finished more than 60 days ago until a run finds
 * none; the same history is read again and must answer the same, byte for byte. Stopped, the database
 * is measured again: what archiving took out of D1 per archived order, so what an archived order
 * keeps there, and what its record takes in local R2. From these, the orders a day one database
 * (10 GB) holds for three years: without retention, with it, and with the archive too.
 *
 * Last, `wrangler dev` runs again and autocannon sends order creates (distinct external ids, a ready
 * uploaded file) from 20 connections for 20 s after a 5 s warm-up: the creates per second answered
 * 201 are an upper bound of what one database takes (loopback, local SQLite, no network to D1). The
 * databases a deployment needs for a number of orders a day are the larger of its bytes over 10 GB
 * and its busiest minute (10× the day's average) over those creates. Everything it starts it stops,
 * and the folder is removed; non-zero exit on a failed create or an answer the archive changed.
 * `-- --orders 20000 --seconds 10` measures other amounts.
 */
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { inlineStatement } from "../src/accounts/provisioning.ts";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import { type NewAccount, planAccount } from "../src/admin/provisioning.ts";
import { archiveOrdersUntilDone } from "./lib/archive-orders.ts";
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
/** The share of the seeded orders that are finished: the oldest 90%. */
const FINISHED_SHARE = 0.9;
/** Days after an order finished that the archive takes it: ORDER_ARCHIVE_DAYS's default. */
const ARCHIVE_DAYS = 60;
/** The busiest minute of a day, against the day's average, for the databases the creates need. */
const PEAK_FACTOR = 10;
const DAYS_IN_THREE_YEARS = 3 * 365;

/** 100 partner accounts in one statement batch; their ids, in order, for the seeding, and the first one's keys. */
async function seedPartners(target: D1Target): Promise<{ ids: string[]; first: NewAccount }> {
	const ids: string[] = [];
	const statements: string[] = [];
	let first: NewAccount | undefined;
	for (let index = 0; index < ACCOUNTS; index++) {
		const planned = await planAccount(`Capacity Partner ${String(index).padStart(3, "0")}`, PARTNER_SCOPES, new Date());
		first ??= planned.created;
		ids.push(planned.created.account.id);
		statements.push(...planned.statements.map((statement) => `${inlineStatement(statement)};`));
	}
	await executeSql(`${statements.join("\n")}\n`, target);
	if (first === undefined) throw new Error("no partner seeded");
	return { ids, first };
}

/** Bytes of every file under `folder` (what local R2 keeps: its blobs and their index). */
async function folderBytes(folder: string): Promise<number> {
	const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
	let bytes = 0;
	for (const entry of entries) {
		if (entry.isFile()) bytes += (await stat(path.join(entry.parentPath, entry.name))).size;
	}
	return bytes;
}

/** `path` read with `key`, its JSON text, and a thrown error naming it on anything but a 200. */
async function readJson(origin: string, key: string, route: string): Promise<string> {
	const response = await fetch(`${origin}${route}`, { headers: { Authorization: `Bearer ${key}` } });
	const text = await response.text();
	if (response.status !== 200) throw new Error(`GET ${route}: ${response.status} ${text}`);
	return text;
}

/**
 * What one partner sees of its history through the API, by route: every page of its orders in each
 * mode, every order by its id, every tenth by its external id, and its statements of the last 13 months.
 */
async function partnerView(origin: string, partner: NewAccount): Promise<Map<string, string>> {
	const view = new Map<string, string>();
	for (const mode of ["live", "test"] as const) {
		const key = partner.keys[mode]?.key;
		if (key === undefined) throw new Error(`no ${mode} key`);
		let cursor: string | null = null;
		const orders: { id: string; external_id: string }[] = [];
		do {
			const route: string = `/v1/orders?limit=100${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
			const text = await readJson(origin, key, route);
			view.set(`${mode} ${route}`, text);
			const page = JSON.parse(text) as { data: { id: string; external_id: string }[]; next_cursor: string | null };
			orders.push(...page.data);
			cursor = page.next_cursor;
		} while (cursor !== null);
		for (const [index, order] of orders.entries()) {
			view.set(`${mode} by id ${order.id}`, await readJson(origin, key, `/v1/orders/${order.id}`));
			if (index % 10 === 0) {
				const route = `/v1/orders/by-external-id/${encodeURIComponent(order.external_id)}`;
				view.set(`${mode} ${route}`, await readJson(origin, key, route));
			}
		}
		for (let back = 0; back < 13; back++) {
			const month = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - back, 1));
			const route = `/v1/statements/${month.toISOString().slice(0, 7)}`;
			view.set(`${mode} ${route}`, await readJson(origin, key, route));
		}
	}
	return view;
}

/** The routes whose answers differ between two views of the same partner (none: the archive changed nothing seen). */
function differences(before: Map<string, string>, after: Map<string, string>): string[] {
	const routes = new Set([...before.keys(), ...after.keys()]);
	return [...routes].filter((route) => before.get(route) !== after.get(route));
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
const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;

const persistTo = await mkdtemp(path.join(tmpdir(), "fps-bench-capacity-"));
const r2Folder = path.join(persistTo, "v3", "r2");
let server: DevServer | undefined;
const serverVars = { UPLOAD_SIGNING_SECRET: "bench-upload-signing-secret-0123456789", ENVIRONMENT: "development" };
try {
	const target: D1Target = { remote: false, persistTo };
	await migrateFreshFolder(persistTo);
	const { partner, adminKey } = await createScenarioAccounts(target, "Capacity");
	const { ids: accountIds, first: viewed } = await seedPartners(target);
	const file = await databaseFile(persistTo);
	const empty = (await vacuumed(file, persistTo)).bytes;

	const started = performance.now();
	// Order 0 375 days back, five minutes apart: 100,000 orders end about 28 days before now. The first 90%
	// are finished (delivered or canceled), the last of them 61 days ago: the history the archive moves.
	const baseUnix = Math.floor(Date.now() / 1000) - 375 * 86400;
	const finishedBefore = Math.floor(ORDERS * FINISHED_SHARE);
	await executeSql(
		seedAccountsSql(accountIds) +
			seedOrdersSql({ from: 0, to: ORDERS, accounts: accountIds, baseUnix, finishedBefore }) +
			SHIPMENTS_OF_SHIPPED_ORDERS +
			DROP_SEED_ACCOUNTS_SQL,
		target,
	);
	console.log(`seeded ${count(ORDERS)} orders in ${((performance.now() - started) / 1000).toFixed(1)} s`);

	const cutoff = new Date(Date.now() - RETENTION_DAYS * 86400_000).toISOString();
	const retentionSql = `DELETE FROM deliveries WHERE created_at < '${cutoff}'; DELETE FROM events WHERE created_at < '${cutoff}';`;
	const noEventsSql = "DELETE FROM deliveries; DELETE FROM events;";
	const seededCopy = await vacuumed(file, persistTo);
	const full = seededCopy.bytes;
	const retained = (await vacuumed(file, persistTo, retentionSql)).bytes;
	const withoutEvents = (await vacuumed(file, persistTo, noEventsSql)).bytes;
	const perOrder = (full - empty) / ORDERS;
	const perOrderRetained = (retained - empty) / ORDERS;
	const eventsPerOrder = (full - withoutEvents) / ORDERS;
	const restPerOrder = perOrder - eventsPerOrder;

	// The archive, through the API: one partner's view of its history before and after, and the run between.
	server = await startDevServer({ port: await freePort(), persistTo, vars: serverVars });
	await liftLimits(server.origin, adminKey, viewed.account.id);
	const before = await partnerView(server.origin, viewed);
	const r2Before = await folderBytes(r2Folder);
	const archiveStarted = performance.now();
	const run = await archiveOrdersUntilDone(server.origin, adminKey, ARCHIVE_DAYS);
	const archiveSeconds = (performance.now() - archiveStarted) / 1000;
	const after = await partnerView(server.origin, viewed);
	const changed = differences(before, after);
	await server.stop();
	server = undefined;
	const r2PerOrder = ((await folderBytes(r2Folder)) - r2Before) / Math.max(run.archived, 1);
	const archivedCopy = await vacuumed(file, persistTo);
	const archivedRetained = (await vacuumed(file, persistTo, retentionSql)).bytes;
	const archivedWithoutEvents = (await vacuumed(file, persistTo, noEventsSql)).bytes;
	// What archiving took out of D1 per archived order, and so what an archived order still keeps there.
	const savedPerArchived = (withoutEvents - archivedWithoutEvents) / Math.max(run.archived, 1);
	const archivedPerOrder = restPerOrder - savedPerArchived;

	// Three years at D orders a day: without retention every order keeps everything; with it, every order
	// keeps its own rows and only the last 90 days' orders keep their events and deliveries; with the
	// archive too, an order keeps its own rows for ARCHIVE_DAYS and what an archived order keeps after.
	const perDayWithout = DATABASE_BYTES / (DAYS_IN_THREE_YEARS * perOrder);
	const perDayWith = DATABASE_BYTES / (DAYS_IN_THREE_YEARS * restPerOrder + RETENTION_DAYS * eventsPerOrder);
	const perDayArchived =
		DATABASE_BYTES /
		(ARCHIVE_DAYS * restPerOrder +
			(DAYS_IN_THREE_YEARS - ARCHIVE_DAYS) * archivedPerOrder +
			RETENTION_DAYS * eventsPerOrder);

	server = await startDevServer({ port: await freePort(), persistTo, vars: serverVars });
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
		`| an order's own rows, hot (order, items, moves, shipments, its share of the rest) | ${count(restPerOrder)} |`,
	);
	console.log(
		`| orders archived (finished more than ${ARCHIVE_DAYS} days ago, nothing open), runs, time | ${count(run.archived)} of ${count(finishedBefore)} finished, ${run.runs} runs, ${archiveSeconds.toFixed(0)} s |`,
	);
	console.log(
		`| database after the archive, every event kept | ${(archivedCopy.bytes / MB).toFixed(1)} MB (${percent(archivedCopy.bytes, full)} of ${(full / MB).toFixed(1)} MB) |`,
	);
	console.log(
		`| database after the archive, ${RETENTION_DAYS} days of events | ${(archivedRetained / MB).toFixed(1)} MB (${percent(archivedRetained, retained)} of ${(retained / MB).toFixed(1)} MB) |`,
	);
	console.log(`| bytes an archived order keeps in D1 | ${count(archivedPerOrder)} |`);
	console.log(`| bytes an archived order takes in R2 (its record) | ${count(r2PerOrder)} |`);
	console.log(
		`| one partner's orders, pages, external ids and 13 statements read back identical after the archive | ${before.size - changed.length} of ${before.size} answers |`,
	);
	console.log(
		`| orders a day one database (10 GB) holds for three years, without retention | ${count(perDayWithout)} |`,
	);
	console.log(
		`| orders a day one database (10 GB) holds for three years, with ${RETENTION_DAYS}-day retention | ${count(perDayWith)} |`,
	);
	console.log(
		`| orders a day one database (10 GB) holds for three years, with retention and the archive at ${ARCHIVE_DAYS} days | ${count(perDayArchived)} |`,
	);
	console.log(
		`| creates per second one database took (POST /v1/orders, ${CONNECTIONS} connections, ${LOAD_SECONDS} s, loopback) | ${load.perSecond.toFixed(0)} (p99 ${load.p99Ms} ms, ${load.non2xx} non-2xx, ${load.errors} errors) |`,
	);
	console.log(
		`\nDatabases a deployment needs for three years (the larger of: its bytes over 10 GB; its busiest minute, at ${PEAK_FACTOR}× the day's average, over the creates per second above):\n`,
	);
	console.log("| orders a day | with retention only | with retention and the archive |");
	console.log("| --- | --- | --- |");
	const byCreates = (perDay: number) => Math.ceil((perDay * PEAK_FACTOR) / 86400 / load.perSecond);
	for (const perDay of [1_000, 2_500, 10_000, 50_000, 100_000]) {
		const retainedOnly = Math.max(Math.ceil(perDay / perDayWith), byCreates(perDay));
		const archivedToo = Math.max(Math.ceil(perDay / perDayArchived), byCreates(perDay));
		console.log(`| ${count(perDay)} | ${retainedOnly} | ${archivedToo} |`);
	}
	console.log(
		"\nBytes per order by table, its indexes included, as seeded and after the archive (tables over 1% of the whole):\n",
	);
	console.log("| table | as seeded | after the archive |");
	console.log("| --- | --- | --- |");
	const afterByTable = new Map(archivedCopy.tables.map(({ table, bytes }) => [table, bytes]));
	for (const { table, bytes } of seededCopy.tables) {
		if (bytes > full / 100)
			console.log(`| ${table} | ${count(bytes / ORDERS)} | ${count((afterByTable.get(table) ?? 0) / ORDERS)} |`);
	}
	for (const route of changed.slice(0, 10)) console.error(`changed by the archive: ${route}`);
	if (load.non2xx > 0 || load.errors > 0 || changed.length > 0) process.exitCode = 1;
} finally {
	await server?.stop();
	await rm(persistTo, { recursive: true, force: true });
}
