/**
 * An account moved from DB to DB_2 while a load creates, changes, ships and cancels its orders (retrying on 503
 * `account_moving`), the move's state read back from the directory before every step (as after a crash):
 * nothing lost, duplicated or split, both databases checked; a stale writer refused by the fence; the
 * move back; another account untouched; and every table of an account's rows fenced.
 */
import { applyD1Migrations } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { isFinished, summarize } from "../../src/account-moves/mover.ts";
import { requestMove, runSteps } from "../../src/account-moves/request-move.ts";
import { latestMove, type MoveRow, progressStatement, type VerifiedTable } from "../../src/account-moves/store.ts";
import { ACCOUNT_TABLES, type AccountTable, countRows } from "../../src/account-moves/tables.ts";
import { databaseOf, forgetPlacements, placementBookmarks, refreshPlacements } from "../../src/databases.ts";
import { api, createAdminKey, createKeyWithScopes, createPartner, expectError, send } from "../helpers.ts";
import { orderBody, partnerWithFile, readyFile, settleValidation, TRACKING } from "../orders/order-helpers.ts";

function secondDatabase(): D1Database {
	const second = env.DB_2;
	if (second === undefined) throw new Error("the workers project binds DB_2 (vitest.config.ts)");
	return second;
}

/** Both databases named, every account in DB by its range, placements kept 1 second. */
const spread: Env = {
	...env,
	ACCOUNT_DATABASES: JSON.stringify([
		{ from: "", binding: "DB" },
		{ from: "acct_~", binding: "DB_2" },
	]),
	PLACEMENT_TTL_SECONDS: "1",
};

beforeAll(async () => {
	await applyD1Migrations(secondDatabase(), env.TEST_MIGRATIONS);
});

/** A request to the Worker, once. */
function once(path: string, key: string, init: RequestInit = {}): Promise<Response> {
	return exports.default.fetch(
		new Request(`https://api.test${path}`, {
			...init,
			headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
		}),
	);
}

/** A request to the Worker, retried while the account is moving (503 `account_moving`). */
async function retrying(path: string, key: string, init: RequestInit = {}): Promise<Response> {
	for (let attempt = 0; attempt < 200; attempt++) {
		const response = await exports.default.fetch(
			new Request(`https://api.test${path}`, {
				...init,
				headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
			}),
		);
		if (response.status !== 503) return response;
		const body = (await response.json()) as { error: { code?: string } };
		expect(body.error.code).toBe("account_moving");
		expect(response.headers.get("Retry-After")).toBe("2");
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error(`${path} refused for too long`);
}

function ledgerMonths(): AccountTable {
	const table = ACCOUNT_TABLES.find(({ table }) => table === "ledger_months");
	if (table === undefined) throw new Error("ledger_months is an account table");
	return table;
}

async function rowsOf(database: D1Database, accountId: string): Promise<Record<string, number>> {
	const counts: Record<string, number> = {};
	for (const table of ACCOUNT_TABLES) {
		const row = await database.prepare(countRows(table)).bind(accountId).first<{ rows: number }>();
		counts[table.table] = row?.rows ?? 0;
	}
	return counts;
}

/** Each table's rows and content hash of the account in `database`. */
async function contentOf(
	database: D1Database,
	accountId: string,
): Promise<Record<string, { rows: number; hash: string }>> {
	const content: Record<string, { rows: number; hash: string }> = {};
	for (const table of ACCOUNT_TABLES) content[table.table] = await summarize(database, table, accountId);
	return content;
}

/** Runs the move to its end, one step per call, the move read back from the directory each time, the load between. */
async function moveUnderLoad(accountId: string, to: string, load: () => Promise<void>): Promise<MoveRow> {
	const started = await requestMove(spread, accountId, to, { steps: 1, ms: 60_000 });
	if (!started.ok) throw new Error(started.message);
	let states = new Set<string>([started.move.state]);
	for (let round = 0; round < 2000; round++) {
		const stored = await latestMove(env.DB, accountId);
		if (stored === null) throw new Error("the move is gone");
		if (isFinished(stored)) return stored;
		states = states.add(stored.state);
		await runSteps(spread, stored, { steps: 1, ms: 60_000 });
		await load();
		if (stored.state === "draining") await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`the move did not finish: ${[...states].join(", ")}`);
}

/**
 * A partner the load drives, with a ready file: its retries are many requests a minute, so its key's
 * limits are lifted before its first request.
 */
async function loadedPartner(name: string) {
	const partner = await createPartner(name);
	await env.DB.prepare("UPDATE accounts SET requests_per_minute = 100000, order_burst = 1000 WHERE id = ?1")
		.bind(partner.account.id)
		.run();
	const key = partner.keys.live.key;
	return { accountId: partner.account.id, key, file: await readyFile(key, 2400, 3000) };
}

describe("moving an account between databases", () => {
	it("moves every row under load of creates, changes, shipments and cancels: each order answered 2xx is readable once with what its answers said, all in DB_2, none left in DB", async () => {
		const { accountId, key, file } = await loadedPartner("Moving Gallery");
		const other = await partnerWithFile({ name: "Staying Gallery" });
		const created: { id: string; external_id: string }[] = [];
		const opsKey = await createKeyWithScopes(["ops"]);
		// The floor's key ships through the same retries: its account's limits lifted before its first request.
		await env.DB.prepare(
			"UPDATE accounts SET requests_per_minute = 100000 WHERE id IN (SELECT account_id FROM api_keys WHERE scopes LIKE '%ops%')",
		).run();
		/** What each order's 2xx answers said it became: the reads after the move must show it. */
		const expected = new Map<string, { status?: string; metadata: Record<string, string> }>();
		const changed = { patch: 0, ship: 0, cancel: 0 };
		type Pending = { path: string; body: string; method: string; key: string; kind: "create" | keyof typeof changed };
		/** Requests not yet answered 2xx: each tried once a round, a 503 `account_moving` tried again next round. */
		const pending: Pending[] = [];
		const tryPending = async () => {
			for (const request of pending.splice(0)) {
				const response = await once(request.path, request.key, { method: request.method, body: request.body });
				if (response.status === 503) {
					const refusal = (await response.json()) as { error: { code?: string } };
					expect(refusal.error.code).toBe("account_moving");
					expect(response.headers.get("Retry-After")).toBe("2");
					pending.push(request);
					refused += 1;
					continue;
				}
				// A change may come too late or too early (a cancel once in production, a ship before it): a 409, the order unchanged.
				const answered = request.kind === "create" ? [200, 201] : [200, 409];
				expect(answered, await response.clone().text()).toContain(response.status);
				if (response.status === 409) continue;
				const order = (await response.json()) as {
					id: string;
					external_id: string;
					status: string;
					metadata: Record<string, string>;
				};
				if (request.kind === "create") created.push(order);
				else changed[request.kind] += 1;
				const before = expected.get(order.id)?.status;
				const moved = request.kind === "cancel" || request.kind === "ship";
				expected.set(order.id, { status: moved ? order.status : before, metadata: order.metadata });
			}
		};
		let refused = 0;
		const createOne = () =>
			pending.push({ path: "/v1/orders", body: JSON.stringify(orderBody(file)), method: "POST", key, kind: "create" });
		for (let index = 0; index < 6; index++) createOne();
		await tryPending();
		const otherOrder = await retrying("/v1/orders", other.key, {
			method: "POST",
			body: JSON.stringify(orderBody(other.file)),
		});
		expect(otherOrder.status).toBe(201);
		await settleValidation(other.key, ((await otherOrder.json()) as { id: string }).id);
		const otherBefore = await contentOf(env.DB, other.partner.account.id);

		let round = 0;
		const moved = await moveUnderLoad(accountId, "DB_2", async () => {
			round += 1;
			if (round % 3 === 0) createOne();
			const target = created[round % Math.max(created.length, 1)];
			if (round % 7 === 0 && target !== undefined) {
				pending.push({ path: `/v1/orders/${target.id}/cancel`, body: "{}", method: "POST", key, kind: "cancel" });
			}
			const changedOne = created[(round * 5) % Math.max(created.length, 1)];
			if (round % 2 === 0 && changedOne !== undefined) {
				const body = JSON.stringify({ metadata: { [`round_${round}`]: String(round) } });
				pending.push({ path: `/v1/orders/${changedOne.id}`, body, method: "PATCH", key, kind: "patch" });
			}
			const shipped = created[(round * 3) % Math.max(created.length, 1)];
			if (round % 4 === 1 && shipped !== undefined) {
				const body = JSON.stringify(TRACKING);
				pending.push({ path: `/v1/ops/orders/${shipped.id}/ship`, body, method: "POST", key: opsKey, kind: "ship" });
			}
			await tryPending();
		});
		for (let attempt = 0; attempt < 50 && pending.length > 0; attempt++) await tryPending();
		expect(pending).toEqual([]);
		expect(refused).toBeGreaterThan(0);
		// The load changed and shipped orders through the move, not only created and canceled them.
		expect(changed.patch).toBeGreaterThan(0);
		expect(changed.ship).toBeGreaterThan(0);
		expect(moved.state).toBe("done");
		for (const table of JSON.parse(moved.tables) as VerifiedTable[]) {
			expect([table.table, table.target_rows, table.target_hash]).toEqual([table.table, table.rows, table.hash]);
		}
		for (let index = 0; index < 3; index++) createOne();
		await tryPending();
		expect(pending).toEqual([]);

		forgetPlacements();
		await refreshPlacements(spread);
		expect(databaseOf(spread, accountId)).toBe(secondDatabase());
		// The switch kept where the copy left DB_2: the account's reads start there (a replica behind it never answers).
		const { DB_2: copied } = placementBookmarks(accountId);
		expect(copied).toMatch(/^[0-9a-f]{8}-/);
		const carried = (await retrying("/v1/orders?limit=1", key)).headers.get("Bookmark") ?? "";
		const readFrom = /DB_2:([0-9a-f-]+)/.exec(carried)?.[1] ?? "";
		expect(readFrom >= (copied ?? "~"), `${readFrom} is not at or after ${copied}`).toBe(true);
		for (const order of created) {
			const read = await retrying(`/v1/orders/${order.id}`, key);
			expect(read.status).toBe(200);
			// Nothing an answer said was done is lost: the last status a cancel or ship gave, and the metadata.
			const { status, metadata } = (await read.json()) as { status: string; metadata: Record<string, string> };
			const last = expected.get(order.id);
			if (last?.status !== undefined) expect(status, order.id).toBe(last.status);
			expect(metadata, order.id).toEqual(last?.metadata);
		}
		const listed = await retrying("/v1/orders?limit=100", key);
		const ids = ((await listed.json()) as { data: { id: string; external_id: string }[] }).data;
		expect(ids.map(({ id }) => id).sort()).toEqual(created.map(({ id }) => id).sort());
		expect(new Set(ids.map(({ external_id }) => external_id)).size).toBe(ids.length);

		const left = await rowsOf(env.DB, accountId);
		expect(Object.values(left).every((count) => count === 0)).toBe(true);
		const arrived = await rowsOf(secondDatabase(), accountId);
		expect(arrived.orders).toBe(created.length);
		expect(await contentOf(env.DB, other.partner.account.id)).toEqual(otherBefore);

		// A writer holding the old placement is refused by DB itself, for good.
		const stale = env.DB.prepare("UPDATE print_files SET expired_at = NULL WHERE account_id = ?1").bind(accountId);
		await stale.run();
		const orderStale = env.DB.prepare(
			"INSERT INTO webhook_endpoints (id, account_id, mode, url, created_at, events) VALUES ('whe_stale', ?1, 'live', 'https://example.com', '2026-01-01T00:00:00Z', '[]')",
		).bind(accountId);
		await expect(orderStale.run()).rejects.toThrow(/account_moving/);

		// And back: the ledger months and every table come out as they were.
		const ledgerBefore = await summarize(secondDatabase(), ledgerMonths(), accountId);
		const back = await moveUnderLoad(accountId, "DB", async () => {});
		expect(back.state).toBe("done");
		const ledgerAfter = await summarize(env.DB, ledgerMonths(), accountId);
		expect(ledgerAfter).toEqual(ledgerBefore);
		expect(Object.values(await rowsOf(secondDatabase(), accountId)).every((count) => count === 0)).toBe(true);
		for (const order of created) expect((await retrying(`/v1/orders/${order.id}`, key)).status).toBe(200);
	}, 120_000);

	it("each step run twice, as when a crash comes after its work and before its progress is saved, moves the same rows", async () => {
		const { accountId, key, file } = await loadedPartner("Twice Gallery");
		for (let index = 0; index < 4; index++) {
			const created = await retrying("/v1/orders", key, { method: "POST", body: JSON.stringify(orderBody(file)) });
			expect(created.status).toBe(201);
			await settleValidation(key, ((await created.json()) as { id: string }).id);
		}
		const before = await contentOf(env.DB, accountId);
		const started = await requestMove(spread, accountId, "DB_2", { steps: 0, ms: 0 });
		if (!started.ok) throw new Error(started.message);
		const states = new Set<string>();
		for (let round = 0; round < 500; round++) {
			const stored = await latestMove(env.DB, accountId);
			if (stored === null || isFinished(stored)) break;
			states.add(stored.state);
			await runSteps(spread, stored, { steps: 1, ms: 60_000 });
			// The crash: the step's work is done, its progress lost; the next run does the same step again.
			await progressStatement(env.DB, stored, stored, new Date()).run();
			await runSteps(spread, stored, { steps: 1, ms: 60_000 });
			if (stored.state === "draining") await new Promise((resolve) => setTimeout(resolve, 200));
		}
		const moved = await latestMove(env.DB, accountId);
		expect(moved?.state).toBe("done");
		expect([...states]).toEqual(["fencing", "clearing", "copying", "verifying", "switching", "draining", "removing"]);
		// The print file's row may change by itself meanwhile (its thumbnail, made off the queue): its count is compared.
		const after = await contentOf(secondDatabase(), accountId);
		expect(after.print_files?.rows).toBe(before.print_files?.rows);
		expect({ ...after, print_files: null }).toEqual({ ...before, print_files: null });
		expect(Object.values(await rowsOf(env.DB, accountId)).every((count) => count === 0)).toBe(true);
	}, 120_000);

	it("refuses a move to a database ACCOUNT_DATABASES does not name, to where the account is, or of an unknown account", async () => {
		const { partner } = await partnerWithFile({ name: "Refused Gallery" });
		expect(await requestMove(spread, partner.account.id, "DB_9")).toMatchObject({
			ok: false,
			code: "move_target_unknown",
		});
		expect(await requestMove(spread, partner.account.id, "DB")).toMatchObject({
			ok: false,
			code: "account_already_there",
		});
		expect(await requestMove(spread, "acct_nobody", "DB_2")).toMatchObject({ ok: false, code: "account_not_found" });
	});

	it("fences every table of an account's rows, and every table with an account_id is one of them or the directory's", async () => {
		const { results } = await env.DB.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'").all<{
			name: string;
			tbl_name: string;
		}>();
		const triggers = new Set(results.map(({ name }) => name));
		// The ledger's months are written only by the entries' trigger, inside the entries' fenced statement.
		for (const { table } of ACCOUNT_TABLES.filter(({ table }) => table !== "ledger_months")) {
			for (const write of ["insert", "update"])
				expect(triggers, `${table}_fence_${write}`).toContain(`${table}_fence_${write}`);
		}
		const directory = new Set([
			"accounts",
			"api_keys",
			"webhook_secrets",
			"partner_users",
			"account_fences",
			"account_placements",
			"account_moves",
		]);
		const { results: tables } = await env.DB.prepare(
			"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
		).all<{ name: string }>();
		const moved = new Set(ACCOUNT_TABLES.map(({ table }) => table));
		for (const { name } of tables) {
			const columns = await env.DB.prepare(`SELECT name FROM pragma_table_info(?1)`).bind(name).all<{ name: string }>();
			if (columns.results.some((column) => column.name === "account_id") && !directory.has(name)) {
				expect(moved, name).toContain(name);
			}
		}
	});
});

describe("POST and GET /v1/admin/accounts/{id}/move", () => {
	it("refuses, in the envelope: a binding ACCOUNT_DATABASES does not name (422), an unknown account (404), a move never made (404), a partner key (403)", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner("Route Gallery");
		const path = `/v1/admin/accounts/${partner.account.id}/move`;
		const unknown = await expectError(await send("POST", path, admin, { to: "DB_2" }), "validation_error", "to");
		expect(unknown.code).toBe("move_target_unknown");
		const already = await expectError(await send("POST", path, admin, { to: "DB" }), "conflict", "to");
		expect(already.code).toBe("account_already_there");
		const nobody = await send("POST", "/v1/admin/accounts/acct_nobody/move", admin, { to: "DB" });
		expect((await expectError(nobody, "not_found", "id")).code).toBe("account_not_found");
		const never = await expectError(await api(path, { key: admin }), "not_found", "id");
		expect(never.code).toBe("account_move_not_found");
		await expectError(await send("POST", path, partner.keys.live.key, { to: "DB" }), "forbidden");
	});
});
