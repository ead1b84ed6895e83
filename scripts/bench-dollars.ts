/**
 * `npm run bench:dollars`: what an order costs on Cloudflare, in dollars per 1,000 orders, at list
 * prices (scripts/lib/cloudflare-prices.ts), plus storage per month under the retention settings.
 *
 * It starts the stack `npm start` runs (wrangler dev, presigned uploads to local R2) on a throwaway
 * state folder with the cost tracer on, and drives N orders (`-- --orders 20`, 1 to 100) through
 * their whole life by the real routes: a real TIFF of a few MB uploaded through its upload URL, a
 * quote, the create with a callback_url, validation, a shipment and its delivery (with their events),
 * every webhook to the callback and to a subscribed endpoint (loopback receivers), a partner polling
 * the order three times, a statement read and the file's thumbnail. What it counts comes from the
 * tracer's totals (src/dev-tools/billing.ts): every Worker invocation, Durable Object call and alarm,
 * D1 row, R2 operation and queue operation the isolate made, background work included, read once
 * the server has been quiet for a few seconds. The only operation outside the Worker, each upload's
 * PUT to its presigned URL (a class A PutObject straight to R2), is counted by the bench as it makes
 * it. Workers CPU is workerd's CPU time from /proc. The server and the receivers are stopped, and the
 * folder removed, on success and on failure.
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { unstable_readConfig } from "wrangler";
import { BILLED_PATH, type Billed, billedBetween } from "../src/dev-tools/billing.ts";
import { createAccount, createAccountWithKeys } from "./lib/accounts.ts";
import {
	DURABLE_OBJECT_GB,
	listDollars,
	PRICES,
	PRICES_READ_ON,
	type Price,
	WORKERS_PAID_MONTHLY_DOLLARS,
} from "./lib/cloudflare-prices.ts";
import { parseCost } from "./lib/cost-measure.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { tiffWithIfdAtEnd } from "./lib/image-fixtures.ts";
import { presignedUploadVars } from "./lib/local-uploads.ts";
import { migrateFreshFolder } from "./lib/migrated-template.ts";
import { processCpuAvailable, workerdCpuSeconds } from "./lib/process-cpu.ts";
import { liftLimits, scenarioShipTo } from "./lib/scenario.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./lib/webhook-receiver.ts";
import { type D1Target, PROJECT_ROOT } from "./lib/wrangler.ts";

const { values } = parseArgs({
	options: {
		orders: { type: "string", default: "20" },
		"file-mb": { type: "string", default: "150" },
		"days-to-delivery": { type: "string", default: "7" },
	},
});
const ORDERS = boundedInteger("orders", values.orders, 1, 100);
/** The average print file a partner sends, for R2 storage (the bench's own file is smaller, to be quick). */
const AVERAGE_FILE_MB = boundedInteger("file-mb", values["file-mb"], 1, 1000);
/** Days from a file's upload to its order's delivery, before its retention starts. */
const DAYS_TO_DELIVERY = boundedInteger("days-to-delivery", values["days-to-delivery"], 0, 90);
/** The bench's print file: 1200 × 1500 px uncompressed RGB (150 DPI at 8 × 10 in), 5.4 MB. */
const FILE_WIDTH = 1200;
const FILE_HEIGHT = 1500;
/** Webhooks each order sends to each receiver: in production, shipment created, shipped, shipment delivered, delivered. */
const EVENTS_PER_ORDER = 5;
const ORDER_POLLS = 3;
const DAYS_PER_MONTH = 30;
// Read once, before the server starts (wrangler prints its configuration warnings as it reads).
const PRINT_RETENTION = retentionDays("PRINT_FILE_RETENTION_DAYS", 45);
const EVENT_RETENTION = retentionDays("EVENT_RETENTION_DAYS", 90);
const CRON_RUNS_MEASURED = 3;

function boundedInteger(name: string, text: string, min: number, max: number): number {
	const value = Number(text);
	if (!Number.isInteger(value) || value < min || value > max) {
		console.error(`--${name} must be a whole number from ${min} to ${max}; got ${text}`);
		process.exit(2);
	}
	return value;
}

/** A retention setting from wrangler.toml's [vars], or its stated default when the variable is not there. */
function retentionDays(name: string, fallback: number): { days: number; from: string } {
	const config = unstable_readConfig({ config: path.join(PROJECT_ROOT, "wrangler.toml") });
	const value = (config.vars as Record<string, unknown>)[name];
	const days = Number(value);
	if (value !== undefined && Number.isFinite(days) && days > 0) return { days, from: `wrangler.toml's ${name}` };
	return { days: fallback, from: `${name} is not in wrangler.toml: its default, ${fallback}, assumed` };
}

/** Per route the drive calls: how often, and the D1 rows its answers' `X-Cost` headers carried. */
type Step = { calls: number; rowsRead: number; rowsWritten: number };
const steps = new Map<string, Step>();

/** Notes the answer's `X-Cost` (when it has one) under the route `what`. */
function noteCost(what: string, response: Response): void {
	const header = response.headers.get("X-Cost");
	if (header === null) return;
	const cost = parseCost(header);
	const step = steps.get(what) ?? { calls: 0, rowsRead: 0, rowsWritten: 0 };
	steps.set(what, {
		calls: step.calls + 1,
		rowsRead: step.rowsRead + cost.rowsRead,
		rowsWritten: step.rowsWritten + cost.rowsWritten,
	});
}

/** The answer's body, after checking its status and noting its `X-Cost` under `what`. */
async function json<T>(response: Response, expected: number, what: string): Promise<T> {
	noteCost(what, response);
	const text = await response.text();
	if (response.status !== expected) throw new Error(`${what}: expected ${expected}, got ${response.status}: ${text}`);
	return JSON.parse(text) as T;
}

async function billedOf(server: DevServer): Promise<Billed> {
	return json<Billed>(await fetch(`${server.origin}${BILLED_PATH}`), 200, "the tracer's totals");
}

/** Waits until the totals have not moved for `quietMs` (background work done); at most `timeoutMs`. */
async function settle(server: DevServer, quietMs = 3000, timeoutMs = 90_000): Promise<Billed> {
	const deadline = Date.now() + timeoutMs;
	let last = JSON.stringify(await billedOf(server));
	let stillSince = Date.now();
	while (Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		const now = JSON.stringify(await billedOf(server));
		if (now !== last) {
			last = now;
			stillSince = Date.now();
		} else if (Date.now() - stillSince >= quietMs) {
			return JSON.parse(now) as Billed;
		}
	}
	throw new Error(`the server's background work did not settle within ${timeoutMs / 1000} s`);
}

async function waitFor(what: string, done: () => boolean, timeoutMs = 60_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!done()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

function eventsOf(receiver: WebhookReceiver, orderId: string, event?: string): number {
	return [...receiver.arrivals.values()].filter(
		(arrival) => arrival.orderId === orderId && (event === undefined || arrival.event === event),
	).length;
}

// ─── D1's bytes, by table, from the local database file ─────────────────────────────────────────────────

/** Bytes each table takes with its indexes, from SQLite's dbstat over the local D1 file. */
async function d1BytesByTable(persistTo: string): Promise<Map<string, number>> {
	const folder = path.join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
	const file = (await readdir(folder)).find((name) => name.endsWith(".sqlite"));
	if (file === undefined) throw new Error(`no local D1 database in ${folder}`);
	const db = new DatabaseSync(path.join(folder, file), { readOnly: true });
	try {
		const rows = db
			.prepare(
				`SELECT COALESCE(s.tbl_name, d.name) AS owner, SUM(d.pgsize) AS bytes
				 FROM dbstat d LEFT JOIN sqlite_schema s ON s.name = d.name GROUP BY owner`,
			)
			.all() as { owner: string; bytes: number }[];
		return new Map(rows.map((row) => [row.owner, Number(row.bytes)]));
	} finally {
		db.close();
	}
}

/** Tables whose rows leave D1 after EVENT_RETENTION_DAYS. */
const ARCHIVED_TABLES = new Set(["events", "deliveries"]);

// ─── The drive ──────────────────────────────────────────────────────────────────────────────────────────

/** What the thumbnail consumer logged of each file it read: its size, and the ranged GETs it took. */
type ThumbnailRead = { sizeBytes: number; reads: number };

/** Collects the `thumbnail.made` lines wrangler's output carries. */
function thumbnailReadsFrom(collected: ThumbnailRead[]): (chunk: string) => void {
	let pending = "";
	return (chunk) => {
		pending += chunk;
		const lines = pending.split("\n");
		pending = lines.pop() ?? "";
		for (const line of lines) {
			if (!line.includes('"thumbnail.made"')) continue;
			try {
				const entry = JSON.parse(line.slice(line.indexOf("{"))) as { size_bytes?: number; reads?: number };
				if (typeof entry.size_bytes === "number" && typeof entry.reads === "number") {
					collected.push({ sizeBytes: entry.size_bytes, reads: entry.reads });
				}
			} catch {
				// Not a log line of ours.
			}
		}
	};
}

type Drive = {
	billed: Billed;
	cpuSeconds: number | null;
	presignedPuts: number;
	fileBytes: number;
	thumbnailBytes: number;
	d1KeptBytes: number;
	d1ArchivedBytes: number;
	cronPerRun: Billed;
	webhooks: { callback: number; endpoint: number };
	seconds: number;
	/** The thumbnail consumer's ranged GETs per byte of file read, from its log. */
	thumbnailReadsPerByte: number;
};

async function drive(
	server: DevServer,
	persistTo: string,
	keys: { live: string; ops: string },
	thumbnailReads: ThumbnailRead[],
): Promise<Drive> {
	const origin = server.origin;
	const partner = { Authorization: `Bearer ${keys.live}`, "Content-Type": "application/json" };
	const ops = { Authorization: `Bearer ${keys.ops}`, "Content-Type": "application/json" };
	const callback = await startWebhookReceiver();
	const endpoint = await startWebhookReceiver();
	try {
		await json(
			await fetch(`${origin}/v1/webhook-endpoints`, {
				method: "POST",
				headers: partner,
				body: JSON.stringify({ url: endpoint.url, description: "Dollar bench endpoint" }),
			}),
			201,
			"POST /v1/webhook-endpoints",
		);
		const file = tiffWithIfdAtEnd(FILE_WIDTH, FILE_HEIGHT, FILE_WIDTH * FILE_HEIGHT * 3);
		const shipTo = scenarioShipTo("Dollar Bench Buyer");
		const month = new Date().toISOString().slice(0, 7);

		steps.clear();
		const tablesBefore = await d1BytesByTable(persistTo);
		const before = await settle(server);
		const cpuBefore =
			server.pid !== undefined && (await processCpuAvailable()) ? await workerdCpuSeconds(server.pid) : null;
		const started = performance.now();
		let presignedPuts = 0;
		const files: string[] = [];
		for (let index = 0; index < ORDERS; index++) {
			// The upload: a ticket, the bytes to the presigned URL (straight to R2), the file read until inspected.
			const ticket = await json<{ id: string; upload_url: string; upload_headers: Record<string, string> }>(
				await fetch(`${origin}/v1/print-files`, {
					method: "POST",
					headers: partner,
					body: JSON.stringify({ content_type: "image/tiff", filename: `print-${index}.tif` }),
				}),
				201,
				"POST /v1/print-files",
			);
			const put = await fetch(ticket.upload_url, { method: "PUT", headers: ticket.upload_headers, body: file });
			await put.arrayBuffer();
			if (!put.ok) throw new Error(`the upload's PUT answered ${put.status}`);
			presignedPuts += 1;
			const inspected = await json<{ status: string }>(
				await fetch(`${origin}/v1/print-files/${ticket.id}`, { headers: partner }),
				200,
				"GET /v1/print-files/{id}",
			);
			if (inspected.status !== "ready") throw new Error(`print file ${ticket.id} is ${inspected.status}, not ready`);
			files.push(ticket.id);

			const item = {
				print_file_id: ticket.id,
				width_in: 8,
				height_in: 10,
				frame: "walnut-flat-075",
				mat: "bright-white",
			};
			const quote = await json<{ id: string }>(
				await fetch(`${origin}/v1/quotes`, {
					method: "POST",
					headers: partner,
					body: JSON.stringify({ ship_to: shipTo, items: [item] }),
				}),
				201,
				"POST /v1/quotes",
			);
			const order = await json<{ id: string }>(
				await fetch(`${origin}/v1/orders`, {
					method: "POST",
					headers: partner,
					body: JSON.stringify({
						external_id: `DOLLARS-${process.pid}-${index}`,
						callback_url: callback.url,
						ship_to: shipTo,
						items: [item],
						quote_id: quote.id,
						shipping_method: "standard",
					}),
				}),
				201,
				"POST /v1/orders",
			);
			// Validation runs by itself; its webhook says when it is done (no polling, which would be counted).
			await waitFor(`order ${order.id} in production`, () => eventsOf(callback, order.id, "order.in_production") > 0);
			const shipment = await json<{ id: string }>(
				await fetch(`${origin}/v1/ops/orders/${order.id}/shipments`, {
					method: "POST",
					headers: ops,
					body: JSON.stringify({ carrier: "UPS", number: `1ZDOLLARS${index}` }),
				}),
				201,
				"POST /v1/ops/orders/{id}/shipments",
			);
			await json(
				await fetch(`${origin}/v1/ops/shipments/${shipment.id}/deliver`, { method: "POST", headers: ops }),
				200,
				"POST /v1/ops/shipments/{id}/deliver",
			);
			for (let poll = 0; poll < ORDER_POLLS; poll++) {
				await json(await fetch(`${origin}/v1/orders/${order.id}`, { headers: partner }), 200, "GET /v1/orders/{id}");
			}
			await json(
				await fetch(`${origin}/v1/statements/${month}`, { headers: partner }),
				200,
				"GET /v1/statements/{month}",
			);
			await waitFor(
				`order ${order.id}'s webhooks`,
				() => eventsOf(callback, order.id) >= EVENTS_PER_ORDER && eventsOf(endpoint, order.id) >= EVENTS_PER_ORDER,
			);
		}
		// The thumbnails are made by the queue's consumer in the background; once all is quiet, each is read.
		await settle(server);
		let thumbnailBytes = 0;
		for (const id of files) {
			const thumbnail = await fetch(`${origin}/v1/print-files/${id}/thumbnail`, { headers: partner });
			const bytes = await thumbnail.arrayBuffer();
			if (thumbnail.status !== 200) throw new Error(`the thumbnail of ${id} answered ${thumbnail.status}`);
			noteCost("GET /v1/print-files/{id}/thumbnail", thumbnail);
			thumbnailBytes += bytes.byteLength;
		}
		const after = await settle(server);
		const seconds = (performance.now() - started) / 1000;
		const cpuAfter = cpuBefore === null || server.pid === undefined ? null : await workerdCpuSeconds(server.pid);
		const tablesAfter = await d1BytesByTable(persistTo);
		if (thumbnailReads.length !== files.length) {
			throw new Error(`the consumer logged ${thumbnailReads.length} thumbnails for ${files.length} files`);
		}
		const readsTotal = thumbnailReads.reduce((sum, read) => sum + read.reads, 0);
		const bytesTotal = thumbnailReads.reduce((sum, read) => sum + read.sizeBytes, 0);

		// The cron runs every minute whatever the traffic: a few runs on the quiet server, averaged.
		for (let run = 0; run < CRON_RUNS_MEASURED; run++) {
			await (await fetch(`${origin}/cdn-cgi/local/scheduled`)).arrayBuffer();
		}
		const afterCron = await settle(server);
		const cronTotal = billedBetween(after, afterCron);
		if (cronTotal.cronInvocations !== CRON_RUNS_MEASURED) {
			throw new Error(`expected ${CRON_RUNS_MEASURED} cron runs counted, got ${cronTotal.cronInvocations}`);
		}
		const cronPerRun = Object.fromEntries(
			Object.entries(cronTotal).map(([unit, count]) => [unit, count / CRON_RUNS_MEASURED]),
		) as Billed;

		let d1KeptBytes = 0;
		let d1ArchivedBytes = 0;
		for (const [table, bytes] of tablesAfter) {
			const grown = bytes - (tablesBefore.get(table) ?? 0);
			if (ARCHIVED_TABLES.has(table)) d1ArchivedBytes += grown;
			else d1KeptBytes += grown;
		}
		return {
			billed: billedBetween(before, after),
			cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
			presignedPuts,
			fileBytes: file.byteLength,
			thumbnailBytes: thumbnailBytes / files.length,
			d1KeptBytes,
			d1ArchivedBytes,
			cronPerRun,
			webhooks: { callback: callback.arrivals.size, endpoint: endpoint.arrivals.size },
			seconds,
			thumbnailReadsPerByte: readsTotal / bytesTotal,
		};
	} finally {
		await callback.close();
		await endpoint.close();
	}
}

// ─── The tables ─────────────────────────────────────────────────────────────────────────────────────────

const count = (value: number, digits = 0) =>
	value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** A list price as written on Cloudflare's pages: cents, or as many decimals as it has ($0.015, $0.001). */
const priceDigits = (value: number) => (Number(value.toFixed(2)) === value ? value.toFixed(2) : String(value));
const dollars = (value: number) => `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`;
const priceText = (price: Price) =>
	`$${priceDigits(price.dollars)} per ${price.per === 1_000_000 ? "million" : price.per === 1 ? "unit" : count(price.per)}`;

function report(result: Drive): void {
	const perThousand = (units: number) => (units / ORDERS) * 1000;
	const billed = result.billed;
	const cpuMs = result.cpuSeconds === null ? null : result.cpuSeconds * 1000;
	const doGbS = (billed.doActiveMs / 1000) * DURABLE_OBJECT_GB;
	const rows: { name: string; units: number | null; price: Price; note?: string }[] = [
		{ name: "Workers requests", units: billed.workerRequests + billed.queueInvocations, price: PRICES.workerRequests },
		{ name: "Workers CPU (ms)", units: cpuMs, price: PRICES.workerCpuMs, note: "workerd's CPU, an overstatement" },
		{ name: "D1 rows read", units: billed.d1RowsRead, price: PRICES.d1RowsRead },
		{ name: "D1 rows written", units: billed.d1RowsWritten, price: PRICES.d1RowsWritten },
		{ name: "Durable Object requests", units: billed.doRequests + billed.doAlarms, price: PRICES.doRequests },
		{ name: "Durable Object duration (GB-s)", units: doGbS, price: PRICES.doDurationGbS, note: "local wall time" },
		{ name: "R2 class A", units: billed.r2ClassA + result.presignedPuts, price: PRICES.r2ClassA },
		{ name: "R2 class B", units: billed.r2ClassB, price: PRICES.r2ClassB },
		{
			name: "Queue operations",
			units: billed.queueWrites + billed.queueReads + billed.queueDeletes,
			price: PRICES.queueOperations,
		},
	];
	let total = 0;
	console.log(
		`\n### Per 1,000 orders, at list price (${ORDERS} orders driven in ${result.seconds.toFixed(0)} s; prices read ${PRICES_READ_ON})\n`,
	);
	console.log("| component | per order | per 1,000 orders | list price | dollars per 1,000 orders |");
	console.log("| --- | ---: | ---: | --- | ---: |");
	for (const row of rows) {
		if (row.units === null) {
			console.log(`| ${row.name} | n/a | n/a | ${priceText(row.price)} | /proc not readable here |`);
			continue;
		}
		const cost = listDollars(row.price, perThousand(row.units));
		total += cost;
		const digits = row.units / ORDERS < 1 ? 4 : row.units / ORDERS < 10 ? 2 : 0;
		console.log(
			`| ${row.name}${row.note === undefined ? "" : ` (${row.note})`} | ${count(row.units / ORDERS, digits)} | ${count(perThousand(row.units))} | ${priceText(row.price)} | ${dollars(cost)} |`,
		);
	}
	console.log(`| **total** | | | | **${dollars(total)}** |`);
	// The thumbnail reads its file in ranged GETs, so class B grows with the file: the same drive with
	// the stated average file instead of the bench's.
	const extraReadsPerOrder = result.thumbnailReadsPerByte * (AVERAGE_FILE_MB * 1e6 - result.fileBytes);
	const extraClassB = listDollars(PRICES.r2ClassB, 1000 * extraReadsPerOrder);
	console.log(
		`| R2 class B, the thumbnail's ranged GETs for a ${AVERAGE_FILE_MB} MB file instead | +${count(extraReadsPerOrder)} | +${count(1000 * extraReadsPerOrder)} | ${priceText(PRICES.r2ClassB)} | +${dollars(extraClassB)} |`,
	);
	console.log(`| **total, with ${AVERAGE_FILE_MB} MB files** | | | | **${dollars(total + extraClassB)}** |`);

	// Where the rows go: each route's answers, and what is left for the work after them.
	console.log("\nD1 rows per order, by route (from each answer's `X-Cost`) and after the answers:\n");
	console.log("| step | calls per order | rows read per order | rows written per order |");
	console.log("| --- | ---: | ---: | ---: |");
	let answeredRead = 0;
	let answeredWritten = 0;
	for (const [name, step] of steps) {
		answeredRead += step.rowsRead;
		answeredWritten += step.rowsWritten;
		console.log(
			`| ${name} | ${count(step.calls / ORDERS, 1)} | ${count(step.rowsRead / ORDERS, 1)} | ${count(step.rowsWritten / ORDERS, 1)} |`,
		);
	}
	// The totals hold every answer's rows and more: fewer would mean a binding went uncounted.
	if (billed.d1RowsRead < answeredRead || billed.d1RowsWritten < answeredWritten) {
		throw new Error(
			`the billed totals (${billed.d1RowsRead} rows read, ${billed.d1RowsWritten} written) are below the answers' own (${answeredRead}, ${answeredWritten})`,
		);
	}
	console.log(
		`| after the answers: validation, webhook attempts, the thumbnail | | ${count((billed.d1RowsRead - answeredRead) / ORDERS, 1)} | ${count((billed.d1RowsWritten - answeredWritten) / ORDERS, 1)} |`,
	);

	console.log("\nWhat the counts hold, over the whole drive (background work included):\n");
	console.log(
		`- Worker invocations: ${count(billed.workerRequests)} fetches, ${count(billed.queueInvocations)} queue batches; ` +
			`Durable Objects: ${count(billed.doRequests)} calls and ${count(billed.doAlarms)} alarms, ${count(billed.doActiveMs)} ms active; ` +
			`R2: ${count(billed.r2ClassA)} class A through the Worker plus ${result.presignedPuts} presigned PUTs, ${count(billed.r2ClassB)} class B, ${count(billed.r2Free)} free deletes; ` +
			`queues: ${count(billed.queueWrites)} writes, ${count(billed.queueReads)} reads, ${count(billed.queueDeletes)} deletes.`,
	);
	console.log(
		`- Webhooks received: ${result.webhooks.callback} at the callback_url, ${result.webhooks.endpoint} at the subscribed endpoint (${EVENTS_PER_ORDER} per order each).`,
	);

	// The cron: a fixed monthly cost, whatever the orders.
	const cronRuns = DAYS_PER_MONTH * 24 * 60;
	const cron = result.cronPerRun;
	const cronMonth =
		listDollars(
			PRICES.workerRequests,
			cronRuns * (cron.cronInvocations + cron.workerRequests + cron.queueInvocations),
		) +
		listDollars(PRICES.d1RowsRead, cronRuns * cron.d1RowsRead) +
		listDollars(PRICES.d1RowsWritten, cronRuns * cron.d1RowsWritten) +
		listDollars(PRICES.doRequests, cronRuns * (cron.doRequests + cron.doAlarms)) +
		listDollars(PRICES.r2ClassA, cronRuns * cron.r2ClassA) +
		listDollars(PRICES.r2ClassB, cronRuns * cron.r2ClassB) +
		listDollars(PRICES.queueOperations, cronRuns * (cron.queueWrites + cron.queueReads + cron.queueDeletes));
	console.log("\n### Fixed each month: the cron, every minute\n");
	console.log("| runs a month | per run: D1 rows read / written | per run: DO requests | dollars a month |");
	console.log("| ---: | ---: | ---: | ---: |");
	console.log(
		`| ${count(cronRuns)} | ${count(cron.d1RowsRead, 1)} / ${count(cron.d1RowsWritten, 1)} | ${count(cron.doRequests + cron.doAlarms, 1)} | ${dollars(cronMonth)} |`,
	);

	// Storage under retention.
	const printRetention = PRINT_RETENTION;
	const eventRetention = EVENT_RETENTION;
	const keptDays = DAYS_TO_DELIVERY + printRetention.days;
	const printGbMonth = ((1000 * AVERAGE_FILE_MB) / 1000) * (keptDays / DAYS_PER_MONTH);
	const thumbnailGbPerMonth = (1000 * result.thumbnailBytes) / 1e9;
	const d1KeptPerOrder = result.d1KeptBytes / ORDERS;
	const d1ArchivedPerOrder = result.d1ArchivedBytes / ORDERS;
	const d1ArchivedGb = (1000 * d1ArchivedPerOrder * (eventRetention.days / DAYS_PER_MONTH)) / 1e9;
	console.log("\n### Storage per month, for 1,000 orders a month, under retention\n");
	console.log("| what | how it is reckoned | GB-month | dollars a month |");
	console.log("| --- | --- | ---: | ---: |");
	console.log(
		`| R2 print files | ${AVERAGE_FILE_MB} MB a file, kept ${keptDays} days (${DAYS_TO_DELIVERY} to delivery + ${printRetention.days} after) | ${count(printGbMonth, 1)} | ${dollars(listDollars(PRICES.r2StorageGbMonth, printGbMonth))} |`,
	);
	console.log(
		`| R2 thumbnails | ${count(result.thumbnailBytes / 1000, 1)} kB each, kept: each month adds | ${count(thumbnailGbPerMonth, 3)} | ${dollars(listDollars(PRICES.r2StorageGbMonth, thumbnailGbPerMonth))} more each month |`,
	);
	console.log(
		`| D1 events and deliveries | ${count(d1ArchivedPerOrder / 1000, 1)} kB an order, kept ${eventRetention.days} days | ${count(d1ArchivedGb, 3)} | ${dollars(listDollars(PRICES.d1StorageGbMonth, d1ArchivedGb))} |`,
	);
	console.log(
		`| D1 orders, files, quotes, ledger and the rest | ${count(d1KeptPerOrder / 1000, 1)} kB an order, kept: each month adds | ${count((1000 * d1KeptPerOrder) / 1e9, 3)} | ${dollars(listDollars(PRICES.d1StorageGbMonth, (1000 * d1KeptPerOrder) / 1e9))} more each month |`,
	);
	console.log(
		`\nRetention: print files ${printRetention.days} days after delivery (${printRetention.from}); events and deliveries ${eventRetention.days} days (${eventRetention.from}).`,
	);

	// The allowances, apart: what the $5 plan covers before any of the above is billed.
	console.log(
		`\n### Included each month on Workers Paid ($${WORKERS_PAID_MONTHLY_DOLLARS.dollars} minimum), and the orders a month they cover\n`,
	);
	console.log("| component | included a month | orders a month covered |");
	console.log("| --- | ---: | ---: |");
	for (const row of rows) {
		if (row.units === null || row.units === 0) continue;
		console.log(
			`| ${row.name} | ${count(row.price.includedPerMonth)} | ${count(row.price.includedPerMonth / (row.units / ORDERS))} |`,
		);
	}
	console.log(
		`| R2 storage (GB-month) | ${count(PRICES.r2StorageGbMonth.includedPerMonth)} | ${count((PRICES.r2StorageGbMonth.includedPerMonth / printGbMonth) * 1000)} |`,
	);
	console.log(
		`| D1 storage (GB) | ${count(PRICES.d1StorageGbMonth.includedPerMonth)} | (grows with the orders kept) |`,
	);

	console.log(`\nPrices (read ${PRICES_READ_ON}):`);
	for (const price of Object.values(PRICES)) {
		console.log(
			`- ${price.unit}: ${priceText(price)}, ${count(price.includedPerMonth)} included a month (${price.source})`,
		);
	}
	console.log(
		"\nWorkers CPU is workerd's CPU time over the drive (/proc), which also runs local D1, R2, the Durable Objects and the queues: it overstates the Worker's own CPU." +
			" Durable Object duration is each call's and alarm's wall time here at 128 MB; local hops are shorter than the edge's, so it is an estimate, not a measurement.",
	);
	console.log(
		`The bench's file is a ${count(result.fileBytes / 1e6, 1)} MB TIFF, uploaded in one PUT (a class A PutObject); a partner's larger file sent in parts costs a class A per part.`,
	);
}

// ─── Run ────────────────────────────────────────────────────────────────────────────────────────────────

const persistTo = await mkdtemp(path.join(tmpdir(), "fps-bench-dollars-"));
let server: DevServer | undefined;
// wrangler runs in its own process group, which Ctrl-C does not reach: stop it and clean up here.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
	process.once(signal, () => {
		void (server?.stop() ?? Promise.resolve())
			.then(() => rm(persistTo, { recursive: true, force: true }))
			.finally(() => process.exit(130));
	});
}
try {
	const target: D1Target = { remote: false, persistTo };
	await migrateFreshFolder(persistTo);
	const partner = await createAccount(target, "Dollar Bench Gallery");
	const team = await createAccountWithKeys(target, "Dollar bench service team", [
		{ mode: "live", scopes: ["ops"] },
		{ mode: "live", scopes: ["admin"] },
	]);
	const [ops, admin] = team.keys.map((key) => key.key);
	if (ops === undefined || admin === undefined) throw new Error("no ops or admin key");
	const thumbnailReads: ThumbnailRead[] = [];
	const port = await freePort();
	const origin = `http://127.0.0.1:${port}`;
	server = await startDevServer({
		port,
		persistTo,
		vars: {
			COST_TRACE: "1",
			ENVIRONMENT: "development",
			SANDBOX_STEP_SECONDS: "5",
			UPLOAD_SIGNING_SECRET: "bench-upload-signing-secret-0123456789",
			CONSOLE_SESSION_SECRET: "bench-console-session-secret-0123456789",
			...presignedUploadVars(origin),
		},
		onOutput: thumbnailReadsFrom(thumbnailReads),
	});
	await liftLimits(server.origin, admin, partner.account.id);
	console.log(`driving ${ORDERS} orders through their life on ${server.origin} ...`);
	const result = await drive(server, persistTo, { live: partner.keys.live.key, ops }, thumbnailReads);
	report(result);
} finally {
	await server?.stop();
	await rm(persistTo, { recursive: true, force: true });
}
