/**
 * `npm run faults`, its second part: move an account between two databases while its clients write,
 * kill the server in the middle of the move, and show nothing is lost, duplicated or split.
 *  1. A throwaway `wrangler dev` with two D1 bindings (a generated configuration: the project's
 *     wrangler.toml with a DB_2 beside DB; ACCOUNT_DATABASES names both, every account in DB by its range).
 *  2. 120 orders, then `npm run admin -- move-account`'s loop moves the account to DB_2 while 5 clients
 *     create orders (10% repeats) and cancel some, retrying a 503 `account_moving` after its Retry-After.
 *  3. After the move's first answer (mid-move: the drain alone outlasts one call) the server is killed
 *     with SIGKILL, started again on the same state, and the same command resumes the move to its end.
 * Checks: the move is done with every table's rows and content hash equal in both databases; every order
 * answered 2xx reads back through the API; no external_id has two orders; DB holds none of the account's
 * rows and DB_2 all of its orders; no 5xx but the 503s. One-line summary; non-zero exit on a violation.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type AccountMoveAnswer, moveAccount } from "./lib/account-move.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { migrateFreshFolder } from "./lib/migrated-template.ts";
import { createScenarioAccounts, liftLimits, scenarioShipTo, uploadReadyFile } from "./lib/scenario.ts";
import { applyMigrations, type D1Target, PROJECT_ROOT, queryRows } from "./lib/wrangler.ts";

const BEFORE = 120;
const DURING = 150;
const CLIENTS = 5;
const SHIP_TO = scenarioShipTo("Move Buyer");

/** The project's configuration with a second database beside DB, its paths made absolute. */
async function twoDatabaseConfig(folder: string): Promise<string> {
	const text = await readFile(path.join(PROJECT_ROOT, "wrangler.toml"), "utf8");
	const main = path.join(PROJECT_ROOT, "src", "index.ts");
	const migrations = path.join(PROJECT_ROOT, "migrations");
	const second = `[[d1_databases]]\nbinding = "DB_2"\ndatabase_name = "framed-print-api-second"\ndatabase_id = "00000000-0000-0000-0000-000000000002"\nmigrations_dir = ${JSON.stringify(migrations)}\n\n[[r2_buckets]]`;
	const config = text
		.replace(/^#:schema .*$/m, "")
		.replace('main = "src/index.ts"', `main = ${JSON.stringify(main)}`)
		.replace('migrations_dir = "migrations"', `migrations_dir = ${JSON.stringify(migrations)}`)
		.replace("[[r2_buckets]]", second);
	const file = path.join(folder, "wrangler.toml");
	await writeFile(file, config);
	return file;
}

const folder = await mkdtemp(path.join(tmpdir(), "fps-faults-move-"));
const violations: string[] = [];
let server: DevServer | undefined;
try {
	await migrateFreshFolder(folder);
	const config = await twoDatabaseConfig(folder);
	const directory: D1Target = { remote: false, persistTo: folder, config };
	const second: D1Target = { remote: false, persistTo: folder, config, binding: "DB_2" };
	await applyMigrations(second);
	const { partner, adminKey } = await createScenarioAccounts(directory, "Move");
	const accountId = partner.account.id;
	const port = await freePort();
	const vars = {
		UPLOAD_SIGNING_SECRET: "fault-upload-signing-secret-0123456789",
		ENVIRONMENT: "development",
		ACCOUNT_DATABASES: JSON.stringify([
			{ from: "", binding: "DB" },
			{ from: "acct_~", binding: "DB_2" },
		]),
		PLACEMENT_TTL_SECONDS: "2",
	};
	server = await startDevServer({ port, persistTo: folder, config, vars });
	const origin = server.origin;
	const json = { Authorization: `Bearer ${partner.keys.live.key}`, "Content-Type": "application/json" };
	await liftLimits(origin, adminKey, accountId);
	const fileId = await uploadReadyFile(origin, json);

	const answered = new Map<string, Set<string>>();
	let refused = 0;
	let unanswered = 0;
	let restarting: Promise<void> | null = null;

	/** Sends a request until it has an answer that is not a 503 `account_moving`. */
	async function sendUntilAnswered(pathname: string, body: string): Promise<Response> {
		for (;;) {
			try {
				const response = await fetch(`${origin}${pathname}`, { method: "POST", headers: json, body });
				if (response.status === 503) {
					const refusal = (await response.json()) as { error?: { code?: string } };
					if (refusal.error?.code !== "account_moving")
						violations.push(`${pathname} answered 503 ${JSON.stringify(refusal)}`);
					refused += 1;
					await new Promise((resolve) =>
						setTimeout(resolve, Number(response.headers.get("Retry-After") ?? "1") * 1000),
					);
					continue;
				}
				if (response.status >= 500) violations.push(`${pathname} answered ${response.status}`);
				return response;
			} catch {
				unanswered += 1;
				await (restarting ?? new Promise((resolve) => setTimeout(resolve, 200)));
			}
		}
	}

	async function create(index: number): Promise<void> {
		const externalId = `MOVE-${index % 10 === 9 ? index - 1 : index}`;
		const body = JSON.stringify({
			external_id: externalId,
			ship_to: SHIP_TO,
			items: [{ print_file_id: fileId, width_in: 8, height_in: 10 }],
		});
		const response = await sendUntilAnswered("/v1/orders", body);
		const order = (await response.json()) as { id?: string };
		if (typeof order.id !== "string") {
			violations.push(`${externalId} answered ${response.status} without an order`);
			return;
		}
		answered.set(externalId, (answered.get(externalId) ?? new Set<string>()).add(order.id));
		if (index % 13 === 0) await sendUntilAnswered(`/v1/orders/${order.id}/cancel`, "{}");
	}

	for (let index = 0; index < BEFORE; index++) await create(index);
	let next = BEFORE;
	let moving = true;
	const clients = Array.from({ length: CLIENTS }, async () => {
		while (moving || next < BEFORE + DURING) {
			const index = next;
			next += 1;
			if (index >= BEFORE + DURING) {
				await new Promise((resolve) => setTimeout(resolve, 100));
				continue;
			}
			await create(index);
		}
	});

	const started = Date.now();
	let answers = 0;
	const log = (move: AccountMoveAnswer) => {
		answers += 1;
		console.log(`move ${move.id}: ${move.state}, ${move.copied_rows} rows copied, ${move.removed_rows} removed`);
	};
	const moveFrom = (at: string) =>
		moveAccount({ baseUrl: at, adminKey, accountId, to: "DB_2", pauseMs: 500, onProgress: log });
	// The first answer is mid-move (the drain waits longer than one call runs): then the crash.
	const interrupted = await fetch(`${origin}/v1/admin/accounts/${accountId}/move`, {
		method: "POST",
		headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
		body: JSON.stringify({ to: "DB_2" }),
	});
	const before = (await interrupted.json()) as AccountMoveAnswer;
	log(before);
	restarting = (async () => {
		await server?.kill();
		server = await startDevServer({ port, persistTo: folder, config, vars });
	})();
	await restarting;
	restarting = null;
	const moved = await moveFrom(origin);
	moving = false;
	await Promise.all(clients);
	const moveSeconds = (Date.now() - started) / 1000;

	if (moved.state !== "done") violations.push(`the move ended ${moved.state}: ${moved.error ?? ""}`);
	if (before.state === "done") violations.push("the move was done before the crash: nothing was interrupted");
	for (const table of moved.tables) {
		if (table.rows !== table.target_rows || table.hash !== table.target_hash) {
			violations.push(`${table.table}: ${table.rows} rows in DB, ${table.target_rows} in DB_2 (hashes differ)`);
		}
	}
	for (const [externalId, ids] of answered) {
		if (ids.size > 1) violations.push(`${externalId} has ${ids.size} orders`);
		for (const id of ids) {
			const read = await fetch(`${origin}/v1/orders/${id}`, { headers: json });
			if (read.status !== 200) violations.push(`${id} (${externalId}) reads ${read.status}`);
		}
	}
	const orderIds = [...answered.values()].flatMap((ids) => [...ids]);
	const inDb = await queryRows<{ rows: number }>(
		`SELECT COUNT(*) AS rows FROM orders WHERE account_id = '${accountId}'`,
		directory,
	);
	const inSecond = await queryRows<{ rows: number; external: number }>(
		`SELECT COUNT(*) AS rows, COUNT(DISTINCT external_id) AS external FROM orders WHERE account_id = '${accountId}'`,
		second,
	);
	const leftInDb = inDb[0]?.rows ?? -1;
	const arrived = inSecond[0]?.rows ?? -1;
	if (leftInDb !== 0) violations.push(`DB still holds ${leftInDb} of the account's orders`);
	if (arrived !== orderIds.length)
		violations.push(`DB_2 holds ${arrived} orders, the clients were answered ${orderIds.length}`);
	if (inSecond[0]?.external !== arrived) violations.push("an external_id has two orders in DB_2");
	const copied = moved.tables.reduce((sum, table) => sum + table.rows, 0);
	console.log(
		`faults (move): ${orderIds.length} orders (${BEFORE} before, ${DURING} during), moved DB → DB_2 in ${moveSeconds.toFixed(1)} s (${answers} answers, killed after the first at ${before.state}); ${copied} rows verified in ${moved.tables.length} tables; ${refused} writes refused 503 account_moving and retried, ${unanswered} lost to the crash and resent; DB keeps ${leftInDb} orders, DB_2 ${arrived}; ${violations.length === 0 ? "no violations" : `${violations.length} violations`}`,
	);
	for (const violation of violations.slice(0, 20)) console.error(`violation: ${violation}`);
	process.exitCode = violations.length === 0 ? 0 : 1;
} finally {
	await server?.stop();
	await rm(folder, { recursive: true, force: true });
}
