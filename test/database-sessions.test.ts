/** src/database-sessions.ts: a request's D1 bindings answering through sessions, and what it wrote. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { configOf } from "../src/config.ts";
import {
	bookmarksOfToken,
	bookmarkToken,
	laterBookmarks,
	openReadSessions,
	primaryBookmarks,
} from "../src/database-sessions.ts";
import { databaseOf, directoryDatabase, everyDatabase } from "../src/databases.ts";

const OLD = "00000000-00000001-00000000-00000000000000000000000000000000";
const NEW = "00000000-00000002-00000000-00000000000000000000000000000000";

/** Accounts from "acct_V" on in DB_2 (bound in vitest.config.ts). */
const SPREAD: Env = {
	...env,
	ACCOUNT_DATABASES: JSON.stringify([
		{ from: "", binding: "DB" },
		{ from: "acct_V", binding: "DB_2" },
	]),
};

describe("openReadSessions", () => {
	it("hands the seam session-backed bindings it resolves by name, with the settings not parsed again", async () => {
		const sessions = openReadSessions(SPREAD, {});
		expect(configOf(sessions.env)).toBe(configOf(SPREAD));
		const second = databaseOf(sessions.env, "acct_Zebra");
		expect(second).not.toBe(env.DB_2);
		expect(everyDatabase(sessions.env)).toEqual([directoryDatabase(sessions.env), second]);
		await second.prepare("SELECT 1").first();
		expect(Object.keys(sessions.bookmarks())).toEqual(["DB_2"]);
	});

	it("keeps the later of the bookmark it started from and where the session got to", async () => {
		const sessions = openReadSessions(env, { DB: OLD, DB_2: NEW });
		await directoryDatabase(sessions.env).prepare("SELECT 1").first();
		const reached = sessions.bookmarks();
		expect((reached.DB ?? "") > OLD).toBe(true);
		expect(reached.DB_2).toBe(NEW);
	});

	it("names nothing written after reads, the database of a writing statement, and after a Durable Object call the databases read and the owners'", async () => {
		const reads = openReadSessions(env, {});
		await directoryDatabase(reads.env).prepare("SELECT created_at FROM accounts LIMIT 1").all();
		expect(reads.writtenTo([directoryDatabase(reads.env)])).toEqual([]);

		const writes = openReadSessions(SPREAD, {});
		databaseOf(writes.env, "acct_Zebra").prepare("DELETE FROM orders WHERE id = ?1").bind("ord_none");
		expect(writes.writtenTo([])).toEqual(["DB_2"]);

		const called = openReadSessions(SPREAD, {});
		await directoryDatabase(called.env).prepare("SELECT 1").first();
		called.env.RATE_LIMITER.idFromName("nobody");
		expect(called.writtenTo([databaseOf(called.env, "acct_Zebra")])).toEqual([]);
		called.env.RATE_LIMITER.get(called.env.RATE_LIMITER.idFromName("nobody"));
		expect(called.writtenTo([databaseOf(called.env, "acct_Zebra")])).toEqual(["DB", "DB_2"]);
	});
});

describe("bookmark tokens", () => {
	it("round-trip, sorted by binding, and drop a database this Worker does not bind", () => {
		const token = bookmarkToken({ DB_2: NEW, DB: OLD });
		expect(token).toBe(`DB:${OLD},DB_2:${NEW}`);
		expect(bookmarksOfToken(env, token)).toEqual({ DB: OLD, DB_2: NEW });
		expect(bookmarksOfToken(env, `DB:${OLD},ELSEWHERE:${NEW}`)).toEqual({ DB: OLD });
		expect(bookmarksOfToken(env, "DB:not-a-bookmark")).toBeNull();
	});

	it("the later of two is each database's newer bookmark", () => {
		expect(laterBookmarks({ DB: NEW, DB_2: OLD }, { DB: OLD, DB_2: NEW, DB_3: OLD })).toEqual({
			DB: NEW,
			DB_2: NEW,
			DB_3: OLD,
		});
	});

	it("the primary's bookmark is past every write committed before it was asked, and unknown names are left out", async () => {
		const before = await primaryBookmarks(env, ["DB", "NOT_A_DATABASE"]);
		expect(Object.keys(before)).toEqual(["DB"]);
		await env.DB.prepare("UPDATE accounts SET name = name WHERE id = 'acct_none'").run();
		const after = await primaryBookmarks(env, ["DB"]);
		expect((after.DB ?? "") > (before.DB ?? "")).toBe(true);
	});
});
