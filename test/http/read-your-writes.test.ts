/**
 * Partner reads through D1 sessions (src/database-sessions.ts): a key reads its own writes, the Bookmark
 * header carries where they got to, and a bookmark sent back is checked before it is used.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app.ts";
import type { Order } from "../../src/orders/response.ts";
import { api, createPartner, send } from "../helpers.ts";
import { createOrder, orderBody, partnerWithFile, partnerWithWindow } from "../orders/order-helpers.ts";
import { COOKIE, post, request, signedInUser } from "../partner-console/console-client.ts";

const ROUNDS = 12;
/** D1's bookmark as this service carries it, for the database bound as DB. */
const DB_BOOKMARK = /^DB:[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

function bookmarkOf(response: Response): string {
	const header = response.headers.get("Bookmark");
	if (header === null) throw new Error(`no Bookmark header on a ${response.status}`);
	return header;
}

async function readOrderNow(key: string, id: string): Promise<Order> {
	const response = await api(`/v1/orders/${id}`, { key });
	expect(response.status).toBe(200);
	return (await response.json()) as Order;
}

/** The DB binding, with the bookmarks (or constraints) sessions were opened with written down. */
function watchedDatabase(): { database: D1Database; sessionsFrom: (string | undefined)[] } {
	const sessionsFrom: (string | undefined)[] = [];
	const real = env.DB;
	const database = {
		prepare: (query: string) => real.prepare(query),
		batch: <T>(statements: D1PreparedStatement[]) => real.batch<T>(statements),
		exec: (query: string) => real.exec(query),
		withSession: (from?: string) => {
			sessionsFrom.push(from);
			return real.withSession(from);
		},
		dump: () => real.dump(),
	} as unknown as D1Database;
	return { database, sessionsFrom };
}

/** A request through the app with DB watched. */
async function throughWatchedDatabase(path: string, init: RequestInit, database: D1Database): Promise<Response> {
	const context = createExecutionContext();
	const response = await app.fetch(new Request(`https://api.test${path}`, init), { ...env, DB: database }, context);
	await waitOnExecutionContext(context);
	return response;
}

describe("a key reads its own writes", () => {
	it("an order just created is there at once, read by id and in the list, every time", async () => {
		const { key, file } = await partnerWithFile({ orderBurst: ROUNDS + 5 });
		for (let round = 0; round < ROUNDS; round++) {
			const created = await createOrder(key, orderBody(file));
			expect((await readOrderNow(key, created.id)).id).toBe(created.id);
			const listed = await api("/v1/orders?limit=3", { key });
			expect(listed.status).toBe(200);
			const { data } = (await listed.json()) as { data: Order[] };
			expect(data.map((order) => order.id)).toContain(created.id);
		}
	});

	it("a PATCH then a read never shows the order as it was", async () => {
		const { key, file } = await partnerWithFile();
		const created = await createOrder(key, orderBody(file));
		for (let round = 0; round < ROUNDS; round++) {
			const patched = await send("PATCH", `/v1/orders/${created.id}`, key, { metadata: { round: String(round) } });
			expect(patched.status).toBe(200);
			expect((await readOrderNow(key, created.id)).metadata).toEqual({ round: String(round) });
		}
	});

	it("a cancel then a read shows the order canceled, every time", async () => {
		const { key, file } = await partnerWithWindow(60);
		for (let round = 0; round < ROUNDS / 2; round++) {
			const created = await createOrder(key, orderBody(file));
			const canceled = await api(`/v1/orders/${created.id}/cancel`, { method: "POST", key });
			expect(canceled.status).toBe(200);
			expect((await readOrderNow(key, created.id)).status).toBe("canceled");
		}
	});
});

describe("the Bookmark header", () => {
	it("every answer to a key carries one, and a write moves it on", async () => {
		const { key, file } = await partnerWithFile();
		const before = bookmarkOf(await api("/v1/orders?limit=1", { key }));
		expect(before).toMatch(DB_BOOKMARK);
		const created = await postAndBookmark(key, file);
		expect(created > before).toBe(true);
		// A read after it starts no earlier than the write.
		expect(bookmarkOf(await api("/v1/orders?limit=1", { key })) >= created).toBe(true);
	});

	it("the key's next read opens its session at the bookmark of the key's last write", async () => {
		const { key, file } = await partnerWithFile();
		const written = await postAndBookmark(key, file);
		const watched = watchedDatabase();
		const read = await throughWatchedDatabase(
			"/v1/orders?limit=1",
			{ headers: { Authorization: `Bearer ${key}` } },
			watched.database,
		);
		expect(read.status).toBe(200);
		expect(watched.sessionsFrom).toEqual([written.slice("DB:".length)]);
	});

	it("a change the order's machine writes (a PATCH) moves the key's bookmark past it, and the next read starts there", async () => {
		const { key, file } = await partnerWithFile();
		const created = await createOrder(key, orderBody(file));
		const before = bookmarkOf(await api(`/v1/orders/${created.id}`, { key }));
		const patched = await send("PATCH", `/v1/orders/${created.id}`, key, { metadata: { note: "after" } });
		expect(patched.status).toBe(200);
		const written = bookmarkOf(patched);
		expect(written > before).toBe(true);
		const watched = watchedDatabase();
		const read = await throughWatchedDatabase(
			`/v1/orders/${created.id}`,
			{ headers: { Authorization: `Bearer ${key}` } },
			watched.database,
		);
		expect(((await read.json()) as Order).metadata).toEqual({ note: "after" });
		expect(watched.sessionsFrom).toEqual([written.slice("DB:".length)]);
	});

	it("a key with no write behind it reads from anywhere: its session starts unconstrained", async () => {
		const partner = await createPartner();
		const watched = watchedDatabase();
		const read = await throughWatchedDatabase(
			"/v1/orders?limit=1",
			{ headers: { Authorization: `Bearer ${partner.keys.test.key}` } },
			watched.database,
		);
		expect(read.status).toBe(200);
		expect(watched.sessionsFrom).toEqual(["first-unconstrained"]);
	});

	it("another key's bookmark sent back makes that key's reads start there, and shows it nothing else", async () => {
		const first = await partnerWithFile();
		const other = await partnerWithFile();
		const written = await postAndBookmark(first.key, first.file);
		const created = (await (await api("/v1/orders?limit=1", { key: first.key })).json()) as { data: Order[] };
		const orderId = created.data[0]?.id ?? "";
		const watched = watchedDatabase();
		const read = await throughWatchedDatabase(
			`/v1/orders/${orderId}`,
			{ headers: { Authorization: `Bearer ${other.key}`, Bookmark: written } },
			watched.database,
		);
		// Another account's order stays another account's: the bookmark is a point in time, not a right.
		expect(read.status).toBe(404);
		expect(watched.sessionsFrom).toHaveLength(1);
		expect((watched.sessionsFrom[0] ?? "") >= written.slice("DB:".length)).toBe(true);
	});

	it("a Bookmark this service did not send is set aside: the read answers from the key's own bookmark, never a 500", async () => {
		const { key, file } = await partnerWithFile();
		// The key's last write left this bookmark; reads do not move it.
		const genuine = await postAndBookmark(key, file);
		const hostile = [
			"garbage",
			"DB:",
			":00000000-00000000-00000000-00000000000000000000000000000000",
			"DB:zzzzzzzz-00000000-00000000-00000000000000000000000000000000",
			`${genuine}:extra`,
			`${genuine},`,
			"db:00000000-00000000-00000000-00000000000000000000000000000000",
			"__proto__:00000000-00000000-00000000-00000000000000000000000000000000",
			`DB:${"0".repeat(5000)}`,
			Array.from({ length: 40 }, (_, index) => `DB_${index}:${genuine.slice(3)}`).join(","),
			"DB:00000000-00000000-00000000-00000000000000000000000000000000; DROP TABLE orders",
		];
		for (const value of hostile) {
			const watched = watchedDatabase();
			const response = await throughWatchedDatabase(
				"/v1/orders?limit=1",
				{ headers: { Authorization: `Bearer ${key}`, Bookmark: value } },
				watched.database,
			);
			expect(response.status, value).toBe(200);
			expect(watched.sessionsFrom, value).toEqual([genuine.slice("DB:".length)]);
		}
	});

	it("a well-formed bookmark of a database this Worker does not bind is set aside", async () => {
		const { key } = await partnerWithFile();
		const response = await api("/v1/orders?limit=1", {
			key,
			headers: { Bookmark: "DB_99:00000000-00000001-00000000-00000000000000000000000000000000" },
		});
		expect(response.status).toBe(200);
		expect(bookmarkOf(response)).toMatch(DB_BOOKMARK);
	});
});

describe("the partner console reads its own writes", () => {
	it("a post that writes (a sign-in) leaves a bookmark cookie, and the next page takes it back", async () => {
		const user = await signedInUser("owner");
		const signedInAgain = await post("/partner/sign-in", { email: user.email, password: "a harbour at dusk" });
		expect(signedInAgain.status).toBe(303);
		const bookmark = decodeURIComponent(bookmarkCookieOf(signedInAgain) ?? "");
		expect(bookmark).toMatch(DB_BOOKMARK);
		const page = await request("/partner", {
			headers: { Cookie: `${COOKIE}=${user.cookie}; __Host-partner_bookmark=${encodeURIComponent(bookmark)}` },
		});
		expect(page.status).toBe(200);
	});

	it("a bookmark cookie this service did not write is set aside: the page still answers", async () => {
		const user = await signedInUser();
		const page = await request("/partner", {
			headers: { Cookie: `${COOKIE}=${user.cookie}; __Host-partner_bookmark=DB:garbage` },
		});
		expect(page.status).toBe(200);
	});
});

/** Creates an order with `key` and returns the Bookmark of the create's answer. */
async function postAndBookmark(key: string, file: string): Promise<string> {
	const response = await send("POST", "/v1/orders", key, orderBody(file));
	expect(response.status).toBe(201);
	return bookmarkOf(response);
}

function bookmarkCookieOf(response: Response): string | null {
	for (const header of response.headers.getSetCookie()) {
		const [pair] = header.split(";");
		if (pair?.startsWith("__Host-partner_bookmark=")) return pair.slice("__Host-partner_bookmark=".length);
	}
	return null;
}
