import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import { runBatch } from "../src/accounts/store.ts";
import { planAccount } from "../src/admin/provisioning.ts";
import { ConfigError } from "../src/config.ts";
import {
	databaseOf,
	directoryDatabase,
	everyDatabase,
	findInEveryDatabase,
	readByAccountDatabase,
} from "../src/databases.ts";
import { decodeCursor, encodeCursor } from "../src/http/cursor.ts";
import { floorCounts, floorQueue } from "../src/orders/floor-queue.ts";
import { findOrder, insertOrder } from "../src/orders/store.ts";
import { rawOrder } from "./orders/order-helpers.ts";

/** The second database the workers project binds, with the schema applied. */
function secondDatabase(): D1Database {
	const second = env.DB_2;
	if (second === undefined) throw new Error("the workers project binds DB_2 (vitest.config.ts)");
	return second;
}

/** Accounts whose id sorts before "acct_V" in DB, the rest in DB_2. */
const SPREAD = JSON.stringify([
	{ from: "", binding: "DB" },
	{ from: "acct_V", binding: "DB_2" },
]);

function spreadEnv(ranges = SPREAD): Env {
	return { ...env, ACCOUNT_DATABASES: ranges };
}

beforeAll(async () => {
	await applyD1Migrations(secondDatabase(), env.TEST_MIGRATIONS);
});

describe("databaseOf", () => {
	it("puts every account in DB when ACCOUNT_DATABASES is unset", () => {
		expect(databaseOf(env, "acct_0000")).toBe(env.DB);
		expect(databaseOf(env, "acct_zzzz")).toBe(env.DB);
		expect(everyDatabase(env)).toEqual([env.DB]);
		expect(directoryDatabase(env)).toBe(env.DB);
	});

	it("puts an account in the database of the range its id falls in, a range's start included", () => {
		const spread = spreadEnv();
		expect(databaseOf(spread, "acct_AAAA")).toBe(env.DB);
		expect(databaseOf(spread, "acct_Uzzz")).toBe(env.DB);
		expect(databaseOf(spread, "acct_V")).toBe(secondDatabase());
		expect(databaseOf(spread, "acct_zzzz")).toBe(secondDatabase());
		expect(everyDatabase(spread)).toEqual([env.DB, secondDatabase()]);
		expect(directoryDatabase(spread)).toBe(env.DB);
	});

	it("refuses a range naming a binding the Worker does not have, or one that is not a database, naming the setting", () => {
		const missing = spreadEnv(JSON.stringify([{ from: "", binding: "DB_9" }]));
		expect(() => databaseOf(missing, "acct_A")).toThrow(ConfigError);
		expect(() => databaseOf(missing, "acct_A")).toThrow(/ACCOUNT_DATABASES names DB_9/);
		const bucket = spreadEnv(JSON.stringify([{ from: "", binding: "PRINT_FILES" }]));
		expect(() => everyDatabase(bucket)).toThrow(/ACCOUNT_DATABASES names PRINT_FILES, which is not a D1 binding/);
	});

	it("refuses ranges out of order, without a first range from the start, or not JSON", () => {
		const outOfOrder = JSON.stringify([
			{ from: "", binding: "DB" },
			{ from: "acct_V", binding: "DB_2" },
			{ from: "acct_M", binding: "DB" },
		]);
		for (const ranges of [outOfOrder, JSON.stringify([{ from: "acct_", binding: "DB" }]), "DB, DB_2", "[]"]) {
			expect(() => databaseOf(spreadEnv(ranges), "acct_A")).toThrow(/^ACCOUNT_DATABASES is /);
		}
	});
});

describe("accounts spread over two databases", () => {
	/** A live partner written to the directory and, for its rows' references, to its own database. */
	async function partnerIn(database: D1Database, name: string) {
		for (;;) {
			const { created, statements } = await planAccount(name, PARTNER_SCOPES, new Date());
			if (databaseOf(spreadEnv(), created.account.id) === database) {
				await runBatch(env.DB, statements);
				if (database !== env.DB) await runBatch(database, statements);
				return { accountId: created.account.id, mode: "live" as const };
			}
		}
	}

	it("an order in the second database is found by its id alone, and only there", async () => {
		const spread = spreadEnv();
		const owner = await partnerIn(secondDatabase(), "Second Gallery");
		const { order, items } = rawOrder(owner, "in_production", "https://example.com/print.png");
		await insertOrder(secondDatabase(), order, items, new Date(order.created_at));
		expect(await findOrder(env.DB, order.id, env.PRINT_FILES)).toBeNull();
		const found = await findInEveryDatabase(spread, (database) => findOrder(database, order.id, env.PRINT_FILES));
		expect(found?.order.id).toBe(order.id);
		expect(databaseOf(spread, found?.order.account_id ?? "")).toBe(secondDatabase());
		expect(
			await findInEveryDatabase(spread, (database) => findOrder(database, "ord_nowhere", env.PRINT_FILES)),
		).toBeNull();
	});

	it("the floor's queue merges both databases oldest first, page by page, and the counts add up", async () => {
		const spread = spreadEnv();
		const [first, second] = [await partnerIn(env.DB, "First Museum"), await partnerIn(secondDatabase(), "Far Museum")];
		const base = Date.parse("2026-03-01T10:00:00.000Z");
		const placed = [first, second, first, second, second].map((owner, index) => ({
			owner,
			stored: rawOrder(owner, "on_hold", "https://example.com/print.png", { now: new Date(base + index * 60_000) }),
		}));
		for (const { owner, stored } of placed) {
			await insertOrder(
				databaseOf(spread, owner.accountId),
				stored.order,
				stored.items,
				new Date(stored.order.created_at),
			);
		}
		const expected = placed.map(({ stored }) => stored.order.id);

		const one = await floorQueue(spread, { mode: "live", status: "on_hold", limit: 3 });
		expect(one.page.map(({ order }) => order.id)).toEqual(expected.slice(0, 3));
		expect(one.more).toBe(true);
		const last = one.page.at(-1)?.order;
		const cursor = decodeCursor(encodeCursor({ createdAt: last?.created_at ?? "", id: last?.id ?? "" }));
		const two = await floorQueue(spread, { mode: "live", status: "on_hold", limit: 3, cursor });
		expect(two.page.map(({ order }) => order.id)).toEqual(expected.slice(3));
		expect(two.more).toBe(false);

		const named = await floorQueue(spread, { mode: "live", status: "on_hold", limit: 10, q: "Far Museum" });
		expect(named.page.map(({ order }) => order.id)).toEqual([expected[1], expected[3], expected[4]]);

		expect((await floorCounts(spread, "live")).on_hold).toBe(5);
		expect((await floorCounts(env, "live")).on_hold).toBe(2);
	});

	it("reads each account's values from its own database, in the order asked", async () => {
		const spread = spreadEnv();
		const ids = ["acct_Zed", "acct_Ant", "acct_Vee", "acct_Bee"];
		const asked: { database: D1Database; ids: string[] }[] = [];
		const values = await readByAccountDatabase(spread, ids, async (database, accountIds) => {
			asked.push({ database, ids: accountIds });
			return accountIds.map((id) => `${id}@${database === env.DB ? "DB" : "DB_2"}`);
		});
		expect(values).toEqual(["acct_Zed@DB_2", "acct_Ant@DB", "acct_Vee@DB_2", "acct_Bee@DB"]);
		expect(asked).toHaveLength(2);
	});
});
