import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { KeyMode } from "../../src/accounts/scopes.ts";
import { encodeCursor } from "../../src/http/cursor.ts";
import { newId } from "../../src/ids.ts";
import worker from "../../src/index.ts";
import { eventStatements } from "../../src/orders/event-statements.ts";
import { eventSubject, newOrderRow } from "../../src/orders/rows.ts";
import { insertOrder } from "../../src/orders/store.ts";
import {
	ARCHIVE_BATCH,
	ARCHIVE_BATCH_BYTES,
	type ArchiveOptions,
	archiveKey,
	archiveOldEvents,
	dueEvents,
	writeArchive,
} from "../../src/webhooks/archive.ts";
import { archivePartKey, listDayParts } from "../../src/webhooks/archive-parts.ts";
import { deleteArchivedEvents } from "../../src/webhooks/event-store.ts";
import { api, createAdminKey, createKeyWithScopes, createPartner, expectError, insertKeyRow } from "../helpers.ts";
import { externalId, SHIP_TO } from "../orders/order-helpers.ts";
import { hookUrl, storedEvent } from "./webhook-helpers.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** The retention window wrangler.toml sets (and the default). */
const WINDOW_DAYS = 90;

type Owner = { accountId: string; mode: KeyMode };
type ArchivedLine = {
	account_id: string;
	mode: string;
	id: string;
	type: string;
	created_at: string;
	body: Record<string, unknown>;
	delivery: { status: string } | null;
	endpoint_deliveries: unknown[];
};

function daysAgo(days: number, from = Date.now()): Date {
	return new Date(from - days * DAY_MS);
}

/** Runs the Worker's scheduled handler, as the cron trigger would, and waits for what it started. */
async function runCron(): Promise<void> {
	const ctx = createExecutionContext();
	await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
	await waitOnExecutionContext(ctx);
}

/** Archive runs until nothing more is due at `now` (events other tests left past the window go too). */
async function drain(now = new Date(), options: ArchiveOptions = {}): Promise<void> {
	for (let run = 0; run < 50; run++) {
		if ((await archiveOldEvents(env, now, options)) === 0) return;
	}
	throw new Error("the archive never ran dry");
}

/**
 * An order of `owner` made at `at` (its order.received event, never sent), and `count` order.in_production
 * events of it, each a millisecond apart from `at` on, whose only delivery is the `no_endpoint` record.
 */
async function oldEvents(owner: Owner, at: Date, count: number): Promise<{ orderId: string; eventIds: string[] }> {
	const order = newOrderRow({
		id: newId("ord"),
		accountId: owner.accountId,
		mode: owner.mode,
		externalId: externalId("ARC"),
		requestHash: "0".repeat(64),
		shipTo: SHIP_TO,
		callbackUrl: null,
		now: at,
		status: "in_production",
	});
	await insertOrder(env.DB, order, [], at);
	const recorded = Array.from({ length: count }, (_, index) =>
		eventStatements(
			env.DB,
			{
				type: "order.in_production",
				accountId: owner.accountId,
				mode: owner.mode,
				order: eventSubject(order),
				delivery: { url: null },
				createdAt: new Date(at.getTime() + index + 1),
			},
			null,
		),
	);
	const statements = recorded.flatMap((event) => event.statements);
	for (let start = 0; start < statements.length; start += 300) {
		await env.DB.batch(statements.slice(start, start + 300));
	}
	return { orderId: order.id, eventIds: recorded.map((event) => event.eventId) };
}

/** The ids of an order's events still in D1. */
async function eventsInD1(orderId: string): Promise<string[]> {
	const { results } = await env.DB.prepare("SELECT id FROM events WHERE order_id = ?1")
		.bind(orderId)
		.all<{ id: string }>();
	return results.map((row) => row.id);
}

/** How many delivery rows of these events are still in D1. */
async function deliveriesInD1(eventIds: ReadonlyArray<string>): Promise<number> {
	const row = await env.DB.prepare(
		"SELECT COUNT(*) AS count FROM deliveries WHERE event_id IN (SELECT value FROM json_each(?1))",
	)
		.bind(JSON.stringify(eventIds))
		.first<{ count: number }>();
	return row?.count ?? 0;
}

/** A delivery's status in D1, or null when its row is gone. */
async function deliveryStatus(deliveryId: string): Promise<string | null> {
	const row = await env.DB.prepare("SELECT status FROM deliveries WHERE id = ?1")
		.bind(deliveryId)
		.first<{ status: string }>();
	return row?.status ?? null;
}

/** The texts of a day's archive parts, first to last. */
async function partTexts(owner: Owner, day: string): Promise<string[]> {
	const texts: string[] = [];
	for (const part of await listDayParts(env.PRINT_FILES, owner, day)) {
		const text = (await (await env.PRINT_FILES.get(part.key))?.text()) ?? "";
		expect(text.endsWith("\n")).toBe(true);
		texts.push(text);
	}
	return texts;
}

/** The lines of a day's archive, every part in order, parsed, or null when there is none. */
async function archivedLines(owner: Owner, at: Date): Promise<ArchivedLine[] | null> {
	const texts = await partTexts(owner, at.toISOString().slice(0, 10));
	if (texts.length === 0) return null;
	return texts
		.join("")
		.trimEnd()
		.split("\n")
		.map((line) => JSON.parse(line) as ArchivedLine);
}

/** The ids in an archive object, each as often as it appears. */
async function archivedIds(owner: Owner, at: Date): Promise<string[]> {
	return ((await archivedLines(owner, at)) ?? []).map((line) => line.id);
}

/**
 * A fresh partner's owner (live unless `mode` says), once the archive has run dry: its events made at
 * `at` are past the window at `now`, a day after it ends.
 */
async function ownerPastWindow(name: string, at: Date, mode: KeyMode = "live"): Promise<{ owner: Owner; now: Date }> {
	await drain();
	const partner = await createPartner(name);
	return { owner: { accountId: partner.account.id, mode }, now: new Date(at.getTime() + (WINDOW_DAYS + 1) * DAY_MS) };
}

/** Asserts the day's object holds `count` lines, each event once. */
async function expectEachOnce(owner: Owner, at: Date, count: number): Promise<string[]> {
	const ids = await archivedIds(owner, at);
	expect(ids).toHaveLength(count);
	expect(new Set(ids).size).toBe(count);
	return ids;
}

async function listedIds(key: string, query = ""): Promise<string[]> {
	const response = await api(`/v1/events?limit=100${query}`, { key });
	expect(response.status).toBe(200);
	const page = (await response.json()) as { data: { id: string }[] };
	return page.data.map((event) => event.id);
}

describe("the events archive", () => {
	it("the cron moves events past the window to their day's object and out of D1 and GET /v1/events; events inside it stay", async () => {
		const partner = await createPartner("Archive Gallery");
		const owner: Owner = { accountId: partner.account.id, mode: "live" };
		const key = partner.keys.live.key;
		const oldAt = daysAgo(WINDOW_DAYS + 1);
		const recentAt = daysAgo(WINDOW_DAYS - 1);
		const old = await storedEvent(owner, null, oldAt);
		const recent = await storedEvent(owner, null, recentAt);
		const listedBefore = await listedIds(key);
		expect(listedBefore).toContain(old.eventId);

		await runCron();

		expect(await eventsInD1(old.orderId)).toEqual([]);
		expect(await deliveriesInD1([old.eventId])).toBe(0);
		expect(await listedIds(key)).not.toContain(old.eventId);
		expect(await listedIds(key, `&order_id=${old.orderId}`)).toEqual([]);
		// Inside the window: untouched.
		expect((await eventsInD1(recent.orderId)).sort()).toHaveLength(2);
		expect(await listedIds(key)).toContain(recent.eventId);
		// The order itself, and its history, stay.
		const order = await api(`/v1/orders/${old.orderId}`, { key });
		expect(order.status).toBe(200);

		// The day's object holds the order's two events, oldest first, each as the log showed it.
		const lines = await archivedLines(owner, oldAt);
		const mine = (lines ?? []).filter((line) => line.body.order_id === old.orderId);
		// Both at the same instant: in id order.
		expect(mine.map((line) => line.type).sort()).toEqual(["order.in_production", "order.received"]);
		const sent = mine.find((line) => line.type === "order.in_production");
		expect(sent).toMatchObject({ account_id: owner.accountId, mode: "live", id: old.eventId, endpoint_deliveries: [] });
		expect(sent?.delivery?.status).toBe("no_endpoint");
		expect(sent?.created_at).toBe(oldAt.toISOString());

		// A redelivery of the archived event is a 404 that says why.
		const error = await expectError(
			await api(`/v1/events/${old.eventId}/redeliver`, { method: "POST", key }),
			"not_found",
			"id",
		);
		expect(error.code).toBe("event_not_found");
		expect(error.message).toContain(`older than ${WINDOW_DAYS} days are archived`);
	});

	it("an event whose delivery is still pending keeps its place in D1 until it is finished, then is archived", async () => {
		const partner = await createPartner("Pending Gallery");
		const owner: Owner = { accountId: partner.account.id, mode: "live" };
		const oldAt = daysAgo(WINDOW_DAYS + 5);
		const held = await storedEvent(owner, hookUrl("ok"), oldAt);
		await drain();
		// The order.received event (never sent) went; the one with a pending delivery stayed, with its delivery.
		expect(await eventsInD1(held.orderId)).toEqual([held.eventId]);
		expect(await deliveriesInD1([held.eventId])).toBe(1);
		expect(await listedIds(partner.keys.live.key)).toContain(held.eventId);

		// A retrying one (pending, attempts made) stays too.
		await env.DB.prepare("UPDATE deliveries SET attempts = 3, last_status_code = 503 WHERE id = ?1")
			.bind(held.deliveryId)
			.run();
		await drain();
		expect(await eventsInD1(held.orderId)).toEqual([held.eventId]);

		await env.DB.prepare("UPDATE deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = ?1")
			.bind(held.deliveryId)
			.run();
		await drain();
		expect(await eventsInD1(held.orderId)).toEqual([]);
		const line = (await archivedLines(owner, oldAt))?.find((archived) => archived.id === held.eventId);
		expect(line?.delivery).toMatchObject({ status: "failed", attempts: 3, last_status_code: 503 });
	});

	it("a redelivery asked for between the archive's write and its delete keeps the event in D1, pending", async () => {
		await drain();
		const partner = await createPartner("Race Gallery");
		const owner: Owner = { accountId: partner.account.id, mode: "live" };
		const oldAt = daysAgo(WINDOW_DAYS + 3);
		// A receiver that never answers: the redelivered attempt is still under way (the sender gives up
		// after WEBHOOK_TIMEOUT_SECONDS) when the delete comes. One that answered at once could finish the
		// attempt first under a loaded machine's queue, and an event this old is not retried: it would be
		// failed again, and rightly deleted.
		const event = await storedEvent(owner, hookUrl("hang"), oldAt);
		await env.DB.prepare("UPDATE deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = ?1")
			.bind(event.deliveryId)
			.run();
		const written = await writeArchive(env, await dueEvents(env, env.DB, new Date()));
		expect(written).toContain(event.eventId);

		const redelivered = await api(`/v1/events/${event.eventId}/redeliver`, {
			method: "POST",
			key: partner.keys.live.key,
		});
		expect(redelivered.status).toBe(200);
		expect(await deliveryStatus(event.deliveryId)).toBe("pending");
		expect(await deleteArchivedEvents(env.DB, written)).toBe(written.length - 1);
		expect(await eventsInD1(event.orderId)).toEqual([event.eventId]);
		expect(await deliveriesInD1([event.eventId])).toBe(1);
	});

	it(`a run moves at most ${ARCHIVE_BATCH} events; the rest go in the next run, into the same day's object`, async () => {
		const at = new Date(Date.UTC(2026, 0, 15, 10));
		const { owner, now } = await ownerPastWindow("Busy Gallery", at);
		const { orderId, eventIds } = await oldEvents(owner, at, ARCHIVE_BATCH + 20);

		expect(await archiveOldEvents(env, now)).toBe(ARCHIVE_BATCH);
		expect(await eventsInD1(orderId)).toHaveLength(21);
		expect(await archivedIds(owner, at)).toHaveLength(ARCHIVE_BATCH);

		expect(await archiveOldEvents(env, now)).toBe(21);
		expect(await eventsInD1(orderId)).toEqual([]);
		expect(await deliveriesInD1(eventIds)).toBe(0);
		const ids = await archivedIds(owner, at);
		expect(ids).toHaveLength(ARCHIVE_BATCH + 21);
		expect(ids).toEqual(expect.arrayContaining(eventIds));
		// Nothing more is due: a third run reads nothing and writes nothing.
		expect(await archiveOldEvents(env, now)).toBe(0);
	});

	it("a rerun changes nothing: the object keeps each event once and is not written again", async () => {
		const at = new Date(Date.UTC(2026, 1, 3, 8));
		const { owner, now } = await ownerPastWindow("Rerun Gallery", at, "test");
		const { eventIds } = await oldEvents(owner, at, 5);
		await drain(now);
		const first = await env.PRINT_FILES.head(archiveKey(owner, "2026-02-03"));
		await drain(now);
		const second = await env.PRINT_FILES.head(archiveKey(owner, "2026-02-03"));
		expect(second?.etag).toBe(first?.etag);
		expect((await archivedIds(owner, at)).sort()).toEqual(expect.arrayContaining(eventIds));
		expect(await archivedIds(owner, at)).toHaveLength(6);
	});

	it("a run that died between the R2 write and the D1 delete is finished by the next: each event once", async () => {
		const at = new Date(Date.UTC(2026, 2, 9, 23, 59, 59));
		const { owner, now } = await ownerPastWindow("Crash Gallery", at);
		const { orderId, eventIds } = await oldEvents(owner, at, 4);

		// The writer alone, as a run killed before its delete: in R2 and still in D1.
		const written = await writeArchive(env, await dueEvents(env, env.DB, now));
		expect(written).toEqual(expect.arrayContaining(eventIds));
		expect(await eventsInD1(orderId)).toHaveLength(5);
		expect(await archivedIds(owner, at)).toHaveLength(5);

		expect(await archiveOldEvents(env, now)).toBe(5);
		expect(await eventsInD1(orderId)).toEqual([]);
		await expectEachOnce(owner, at, 5);
	});

	it("two runs at once lose nothing and write nothing twice", async () => {
		const at = new Date(Date.UTC(2026, 3, 20, 12));
		const { owner, now } = await ownerPastWindow("Concurrent Gallery", at);
		const { orderId } = await oldEvents(owner, at, 30);

		const [first, second] = await Promise.all([archiveOldEvents(env, now), archiveOldEvents(env, now)]);
		expect(first + second).toBeGreaterThanOrEqual(31);
		expect(await eventsInD1(orderId)).toEqual([]);
		await expectEachOnce(owner, at, 31);
	});

	it("two writers of different events of the same day, at once, both land: neither overwrites the other", async () => {
		const at = new Date(Date.UTC(2026, 4, 2, 6));
		const { owner, now } = await ownerPastWindow("Split Day Gallery", at);
		await oldEvents(owner, at, 9);
		const due = (await dueEvents(env, env.DB, now)).filter((event) => event.accountId === owner.accountId);
		expect(due).toHaveLength(10);

		// Each writer reads the object before the other has written it: only the conditional put keeps both.
		const halves = [due.slice(0, 5), due.slice(5)];
		const written = await Promise.all(halves.map((half) => writeArchive(env, half)));
		expect(written.flat()).toHaveLength(10);
		expect((await archivedIds(owner, at)).sort()).toEqual(due.map((event) => event.id).sort());
	});

	it("each account and mode has its own object for the day", async () => {
		await drain();
		const gallery = await createPartner("Own Objects Gallery");
		const other = await createPartner("Other Objects Gallery");
		const live: Owner = { accountId: gallery.account.id, mode: "live" };
		const test: Owner = { accountId: gallery.account.id, mode: "test" };
		const otherLive: Owner = { accountId: other.account.id, mode: "live" };
		const at = new Date(Date.UTC(2026, 5, 11, 9));
		const now = new Date(at.getTime() + (WINDOW_DAYS + 1) * DAY_MS);
		const made = await Promise.all([oldEvents(live, at, 2), oldEvents(test, at, 3), oldEvents(otherLive, at, 1)]);
		await drain(now);

		const [liveLines, testLines, otherLines] = await Promise.all([
			archivedLines(live, at),
			archivedLines(test, at),
			archivedLines(otherLive, at),
		]);
		expect(liveLines?.map((line) => line.body.order_id)).toEqual(Array(3).fill(made[0]?.orderId));
		expect(testLines?.map((line) => line.body.order_id)).toEqual(Array(4).fill(made[1]?.orderId));
		expect(otherLines?.map((line) => line.body.order_id)).toEqual(Array(2).fill(made[2]?.orderId));
		expect(new Set(liveLines?.map((line) => `${line.account_id} ${line.mode}`))).toEqual(
			new Set([`${live.accountId} live`]),
		);
		expect(new Set(testLines?.map((line) => `${line.account_id} ${line.mode}`))).toEqual(
			new Set([`${test.accountId} test`]),
		);
		// Events just after midnight UTC go to the next day's object.
		expect(await env.PRINT_FILES.head(archiveKey(live, "2026-06-12"))).toBeNull();
	});

	it("an object that is not an archive is left as it is, and its events stay in D1", async () => {
		const at = new Date(Date.UTC(2026, 6, 4, 4));
		const { owner, now } = await ownerPastWindow("Damaged Archive Gallery", at);
		const { orderId } = await oldEvents(owner, at, 2);
		await env.PRINT_FILES.put(archiveKey(owner, "2026-07-04"), "not json\n");
		expect(await archiveOldEvents(env, now)).toBe(0);
		expect(await eventsInD1(orderId)).toHaveLength(3);
		expect(await (await env.PRINT_FILES.get(archiveKey(owner, "2026-07-04")))?.text()).toBe("not json\n");
		await env.PRINT_FILES.delete(archiveKey(owner, "2026-07-04"));
		await drain(now);
	});
	it("a day whose object R2 refuses keeps its events in D1 and holds back no other day", async () => {
		const at = new Date(Date.UTC(2026, 6, 9, 9));
		const { owner, now } = await ownerPastWindow("Refused Day Gallery", at);
		const { orderId } = await oldEvents(owner, at, 2);
		// An owner whose key is longer than R2 takes (1,024 bytes): its reads and writes throw.
		const refused = newId("evt");
		await env.DB.prepare(
			"INSERT INTO events (id, account_id, mode, order_id, type, body, created_at) VALUES (?1, ?2, 'live', ?3, 'order.received', '{}', ?4)",
		)
			.bind(refused, `acct_${"x".repeat(1100)}`, orderId, at.toISOString())
			.run();
		expect(await archiveOldEvents(env, now)).toBe(3);
		expect(await eventsInD1(orderId)).toEqual([refused]);
		await expectEachOnce(owner, at, 3);
		await env.DB.prepare("DELETE FROM events WHERE id = ?1").bind(refused).run();
	});
});

describe("the events archive, attacked", () => {
	it(`a run moves at most ${ARCHIVE_BATCH_BYTES} bytes of event bodies: a day of 100 KB events goes over several runs, each event once`, async () => {
		const at = new Date(Date.UTC(2026, 7, 3, 11));
		const { owner, now } = await ownerPastWindow("Heavy Day Gallery", at);
		const { orderId } = await oldEvents(owner, at, 0);
		const count = Math.ceil((ARCHIVE_BATCH_BYTES * 1.5) / 100_000);
		const statements = Array.from({ length: count }, (_, index) =>
			env.DB.prepare(
				"INSERT INTO events (id, account_id, mode, order_id, type, body, created_at) VALUES (?1, ?2, ?3, ?4, 'order.updated', ?5, ?6)",
			).bind(
				newId("evt"),
				owner.accountId,
				owner.mode,
				orderId,
				JSON.stringify({ event: "order.updated", pad: "é".repeat(50_000) }),
				new Date(at.getTime() + index + 1).toISOString(),
			),
		);
		for (let start = 0; start < statements.length; start += 20) {
			await env.DB.batch(statements.slice(start, start + 20));
		}

		const first = await archiveOldEvents(env, now);
		expect(first).toBeGreaterThan(1);
		expect(first).toBeLessThanOrEqual(Math.ceil(ARCHIVE_BATCH_BYTES / 100_000) + 1);
		await drain(now);
		expect(await eventsInD1(orderId)).toEqual([]);
		await expectEachOnce(owner, at, count + 1);
	});

	it("a day whose object cannot be written holds back only its own events: runs take the due events from both ends", async () => {
		const at = new Date(Date.UTC(2020, 2, 1, 5));
		const { owner: stuck } = await ownerPastWindow("Stuck Day Gallery", at);
		// Two days on: the window's edge at the minutes below (June 2, noon) is past the whole of March 3.
		const later = new Date(at.getTime() + 2 * DAY_MS);
		const other: Owner = { accountId: (await createPartner("Next Day Gallery")).account.id, mode: "live" };
		// More events than a run takes, on a day whose object is not an archive: each run fails to write it.
		const stuckEvents = await oldEvents(stuck, at, ARCHIVE_BATCH + 20);
		await env.PRINT_FILES.put(archiveKey(stuck, "2020-03-01"), "written by hand\n");
		const { orderId } = await oldEvents(other, later, 2);
		const evenMinute = new Date(Date.UTC(2020, 5, 2, 12, 0));
		const oddMinute = new Date(Date.UTC(2020, 5, 2, 12, 1));

		expect(await archiveOldEvents(env, evenMinute)).toBe(0);
		expect(await eventsInD1(orderId)).toHaveLength(3);
		expect(await archiveOldEvents(env, oddMinute)).toBe(3);
		expect(await eventsInD1(orderId)).toEqual([]);
		await expectEachOnce(other, later, 3);
		expect(await eventsInD1(stuckEvents.orderId)).toHaveLength(ARCHIVE_BATCH + 21);

		await env.PRINT_FILES.delete(archiveKey(stuck, "2020-03-01"));
		await drain(oddMinute);
		expect(await eventsInD1(stuckEvents.orderId)).toEqual([]);
	});

	it("a UTC day's events leave D1 together, once the whole day is older than the window", async () => {
		const at = new Date(Date.UTC(2026, 8, 14, 0, 0, 0));
		const { owner } = await ownerPastWindow("Edge Gallery", at);
		const { orderId, eventIds } = await oldEvents(owner, new Date(at.getTime() - 2), 2);
		// The order.received event is the 13th's second-last millisecond, the first in_production its last, the
		// second the 14th's first. The 13th leaves once the window's edge is past the 13th's end, at once.
		const edgeAt = (instant: Date) => new Date(instant.getTime() + WINDOW_DAYS * DAY_MS);
		await drain(new Date(edgeAt(at).getTime() - 1));
		expect(await eventsInD1(orderId)).toHaveLength(3);
		await drain(edgeAt(at));
		expect(await eventsInD1(orderId)).toEqual([eventIds[1]]);
		// The 14th stays however far into the 15th the edge goes, until the 15th begins.
		await drain(new Date(edgeAt(at).getTime() + DAY_MS - 1));
		expect(await eventsInD1(orderId)).toEqual([eventIds[1]]);
		await drain(new Date(edgeAt(at).getTime() + DAY_MS));
		expect(await eventsInD1(orderId)).toEqual([]);
		await expectEachOnce(owner, at, 1);
		expect(await archivedIds(owner, new Date(at.getTime() - 1))).toHaveLength(2);
	});

	it("a cursor of GET /v1/events pointing into the archived range gives an empty page, not an error", async () => {
		const partner = await createPartner("Cursor Gallery");
		const owner: Owner = { accountId: partner.account.id, mode: "live" };
		const key = partner.keys.live.key;
		const at = daysAgo(WINDOW_DAYS + 2);
		const { eventIds } = await oldEvents(owner, at, 3);
		const first = await api("/v1/events?limit=2", { key });
		const page = (await first.json()) as { data: { id: string }[]; next_cursor: string | null };
		expect(page.next_cursor).not.toBeNull();
		await drain();

		const next = await api(`/v1/events?limit=2&cursor=${page.next_cursor ?? ""}`, { key });
		expect(next.status).toBe(200);
		expect(await next.json()).toEqual({ data: [], next_cursor: null });
		// A cursor made up to point at an archived event reads the same.
		const madeUp = encodeCursor({ createdAt: at.toISOString(), id: eventIds[2] ?? "" });
		const pointed = await api(`/v1/events?limit=100&cursor=${madeUp}`, { key });
		expect(await pointed.json()).toEqual({ data: [], next_cursor: null });
	});
});

/** A part bound small enough that a few events of a day fill a part. */
const SMALL_PART = 3_000;

/** The real bucket, recording the keys each run reads whole or streams (get) and writes (put). */
function recordingBucket(): { bucket: R2Bucket; reads: string[]; writes: string[] } {
	const reads: string[] = [];
	const writes: string[] = [];
	const real = env.PRINT_FILES;
	const bucket = new Proxy(real, {
		get(target, property) {
			if (property === "get") {
				return (key: string) => {
					reads.push(key);
					return target.get(key);
				};
			}
			if (property === "put") {
				return (...args: Parameters<R2Bucket["put"]>) => {
					writes.push(args[0]);
					return target.put(...args);
				};
			}
			const value: unknown = Reflect.get(target, property);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
	return { bucket, reads, writes };
}

/**
 * The real bucket, whose first listing is answered as it was before `meanwhile` ran: the run using it
 * works from a stale view, as a run overtaken by another would.
 */
function overtakenBucket(meanwhile: () => Promise<unknown>): R2Bucket {
	let overtaken = false;
	return new Proxy(env.PRINT_FILES, {
		get(target, property) {
			if (property === "list") {
				return async (options: R2ListOptions) => {
					const listed = await target.list(options);
					if (!overtaken) {
						overtaken = true;
						await meanwhile();
					}
					return listed;
				};
			}
			const value: unknown = Reflect.get(target, property);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}

/** Asserts a day is stored in several parts, none past the bound unless it holds a single line, each part in time order. */
async function expectParts(owner: Owner, day: string, bound: number): Promise<string[]> {
	const texts = await partTexts(owner, day);
	expect(texts.length).toBeGreaterThan(1);
	const utf8 = new TextEncoder();
	for (const text of texts) {
		const lines = text.trimEnd().split("\n");
		if (lines.length > 1) expect(utf8.encode(text).length).toBeLessThanOrEqual(bound);
		const times = lines.map((line) => (JSON.parse(line) as ArchivedLine).created_at);
		expect(times).toEqual([...times].sort());
	}
	return texts;
}

describe("the events archive, a day in parts", () => {
	it("a day past one part's bound ends in several parts, none past it, each event exactly once across them", async () => {
		const at = new Date(Date.UTC(2026, 10, 2, 9));
		const { owner, now } = await ownerPastWindow("Parts Gallery", at);
		const { orderId, eventIds } = await oldEvents(owner, at, 30);
		// One run writes a few events, and deletes them; the next adds the rest, filling the last part, then new ones.
		const due = (await dueEvents(env, env.DB, now)).filter((event) => event.accountId === owner.accountId);
		const first = await writeArchive(env, due.slice(0, 3), { partBytes: SMALL_PART });
		expect(await deleteArchivedEvents(env.DB, first)).toBe(3);
		await drain(now, { partBytes: SMALL_PART });

		expect(await eventsInD1(orderId)).toEqual([]);
		await expectParts(owner, "2026-11-02", SMALL_PART);
		const ids = await expectEachOnce(owner, at, 31);
		expect(ids).toEqual(expect.arrayContaining(eventIds));
		// The first part keeps its old name; the others follow it.
		const keys = (await listDayParts(env.PRINT_FILES, owner, "2026-11-02")).map((part) => part.key);
		expect(keys[0]).toBe(archiveKey(owner, "2026-11-02"));
		expect(keys.slice(1)).toEqual(keys.slice(1).map((_, index) => archivePartKey(owner, "2026-11-02", index + 2)));
		// Each part carries its lines' time range; every part but the last is sealed.
		const parts = await listDayParts(env.PRINT_FILES, owner, "2026-11-02");
		const texts = await partTexts(owner, "2026-11-02");
		expect(parts.map((part) => part.sealed)).toEqual(parts.map((_, index) => index < parts.length - 1));
		expect(parts.map((part) => part.range)).toEqual(
			texts.map((text) => {
				const times = text
					.trimEnd()
					.split("\n")
					.map((line) => (JSON.parse(line) as ArchivedLine).created_at);
				return { first: times[0], last: times.at(-1) };
			}),
		);
	});

	it("a run that died between the write and the delete is finished by the next: events in an earlier part are not written again, a changed one is replaced where it is", async () => {
		const at = new Date(Date.UTC(2026, 10, 5, 13));
		const { owner, now } = await ownerPastWindow("Crashed Parts Gallery", at);
		const { orderId, eventIds } = await oldEvents(owner, at, 20);
		// The writer alone, as a run killed before its delete: every event in R2 and still in D1.
		const written = await writeArchive(env, await dueEvents(env, env.DB, now), { partBytes: SMALL_PART });
		expect(written).toEqual(expect.arrayContaining(eventIds));
		const before = await expectParts(owner, "2026-11-05", SMALL_PART);
		// Meanwhile the first event's delivery outcome changes: the rerun replaces its line in the first part.
		const changed = eventIds[0] ?? "";
		await env.DB.prepare("UPDATE deliveries SET attempts = 7 WHERE event_id = ?1").bind(changed).run();

		expect(await archiveOldEvents(env, now, { partBytes: SMALL_PART })).toBe(21);
		expect(await eventsInD1(orderId)).toEqual([]);
		await expectEachOnce(owner, at, 21);
		const after = await expectParts(owner, "2026-11-05", SMALL_PART);
		expect(after).toHaveLength(before.length);
		const holder = after.findIndex((text) => text.includes(changed));
		expect(after[holder]).toContain('"attempts":7');
		// Every other part is as it was.
		expect(after.filter((_, index) => index !== holder)).toEqual(before.filter((_, index) => index !== holder));
	});

	it("a rerun of a day in parts writes nothing", async () => {
		const at = new Date(Date.UTC(2026, 10, 7, 1));
		const { owner, now } = await ownerPastWindow("Rerun Parts Gallery", at);
		await oldEvents(owner, at, 12);
		const due = await dueEvents(env, env.DB, now);
		await writeArchive(env, due, { partBytes: SMALL_PART });
		const recorded = recordingBucket();
		expect(await writeArchive(env, due, { partBytes: SMALL_PART, bucket: recorded.bucket })).toHaveLength(due.length);
		expect(recorded.writes).toEqual([]);
		await drain(now, { partBytes: SMALL_PART });
		await expectEachOnce(owner, at, 13);
	});

	it("two runs at once over a day past the bound lose nothing and write nothing twice", async () => {
		const at = new Date(Date.UTC(2026, 10, 9, 17));
		const { owner, now } = await ownerPastWindow("Concurrent Parts Gallery", at);
		const { orderId } = await oldEvents(owner, at, 30);
		const options = { partBytes: SMALL_PART };
		const [first, second] = await Promise.all([
			archiveOldEvents(env, now, options),
			archiveOldEvents(env, now, options),
		]);
		expect(first + second).toBeGreaterThanOrEqual(31);
		await drain(now, options);
		expect(await eventsInD1(orderId)).toEqual([]);
		await expectParts(owner, "2026-11-09", SMALL_PART);
		await expectEachOnce(owner, at, 31);
	});

	it("a run overtaken by another that wrote the same events into several parts writes none of them again", async () => {
		const at = new Date(Date.UTC(2026, 10, 10, 12));
		const { owner, now } = await ownerPastWindow("Overtaken Parts Gallery", at);
		const { orderId } = await oldEvents(owner, at, 20);
		const due = await dueEvents(env, env.DB, now);
		const options = { partBytes: SMALL_PART };
		// The slow run listed the day (nothing yet), then the other wrote every event, filling several parts.
		let other: string[] = [];
		const bucket = overtakenBucket(async () => {
			other = await writeArchive(env, due, options);
		});
		const slow = await writeArchive(env, due, { ...options, bucket });
		expect(other).toHaveLength(21);
		expect(slow.sort()).toEqual([...other].sort());
		await expectParts(owner, "2026-11-10", SMALL_PART);
		await expectEachOnce(owner, at, 21);
		expect(await deleteArchivedEvents(env.DB, slow)).toBe(21);
		expect(await eventsInD1(orderId)).toEqual([]);
	});

	it("a run overtaken by another that added other events of the day still writes its own, once", async () => {
		const at = new Date(Date.UTC(2026, 10, 10, 18));
		const { owner, now } = await ownerPastWindow("Overtaken Split Gallery", at);
		await oldEvents(owner, at, 20);
		const due = (await dueEvents(env, env.DB, now)).filter((event) => event.accountId === owner.accountId);
		const options = { partBytes: SMALL_PART };
		const bucket = overtakenBucket(() => writeArchive(env, due.slice(10), options));
		expect(await writeArchive(env, due.slice(0, 10), { ...options, bucket })).toHaveLength(10);
		await expectParts(owner, "2026-11-10", SMALL_PART);
		expect((await archivedIds(owner, at)).sort()).toEqual(due.map((event) => event.id).sort());
	});

	it("a run that read the open part as it was before another sealed it and started the next adds nothing to it", async () => {
		const at = new Date(Date.UTC(2026, 10, 12, 3));
		const { owner, now } = await ownerPastWindow("Sealed Meanwhile Gallery", at);
		const { orderId } = await oldEvents(owner, at, 1);
		await drain(now, { partBytes: SMALL_PART });
		// Then a large event and a small one of the same day: the small one fits in the open part, the
		// large one (earlier) does not.
		const large = newId("evt");
		await env.DB.prepare(
			"INSERT INTO events (id, account_id, mode, order_id, type, body, created_at) VALUES (?1, ?2, ?3, ?4, 'order.updated', ?5, ?6)",
		)
			.bind(
				large,
				owner.accountId,
				owner.mode,
				orderId,
				JSON.stringify({ event: "order.updated", pad: "x".repeat(2_000) }),
				new Date(at.getTime() + 60_000).toISOString(),
			)
			.run();
		const small = await oldEvents(owner, new Date(at.getTime() + 120_000), 0);
		const due = (await dueEvents(env, env.DB, now)).filter((event) => event.accountId === owner.accountId);
		expect(due.map((event) => event.id)).toEqual([large, ...(await eventsInD1(small.orderId))]);
		const options = { partBytes: SMALL_PART };

		// The slow run (the small event alone) listed the day with its first part open; meanwhile the other
		// run, with both events, filled nothing in it, sealed it and put both in the second part.
		const bucket = overtakenBucket(() => writeArchive(env, due, options));
		expect(await writeArchive(env, due.slice(1), { ...options, bucket })).toEqual([due[1]?.id]);
		await expectEachOnce(owner, at, 4);
		const parts = await listDayParts(env.PRINT_FILES, owner, "2026-11-12");
		expect(parts.map((part) => part.sealed)).toEqual([true, false]);
	});

	it("two writers of different events of a day in parts, at once, both land in it, each event once", async () => {
		const at = new Date(Date.UTC(2026, 10, 11, 6));
		const { owner, now } = await ownerPastWindow("Split Parts Gallery", at);
		await oldEvents(owner, at, 23);
		const due = (await dueEvents(env, env.DB, now)).filter((event) => event.accountId === owner.accountId);
		const halves = [due.filter((_, index) => index % 2 === 0), due.filter((_, index) => index % 2 === 1)];
		const written = await Promise.all(halves.map((half) => writeArchive(env, half, { partBytes: SMALL_PART })));
		// A writer that lost three times leaves its rest for the next run; the next run writes it once.
		const left = due.filter((event) => !written.flat().includes(event.id));
		await writeArchive(env, left, { partBytes: SMALL_PART });
		await expectParts(owner, "2026-11-11", SMALL_PART);
		expect((await archivedIds(owner, at)).sort()).toEqual(due.map((event) => event.id).sort());
	});

	it("a run adding later events to a day of several parts reads and writes only its last part (and the new ones)", async () => {
		const at = new Date(Date.UTC(2026, 10, 13, 8));
		const { owner, now } = await ownerPastWindow("Bounded Parts Gallery", at);
		const { orderId } = await oldEvents(owner, at, 16);
		await drain(now, { partBytes: SMALL_PART });
		const parts = await listDayParts(env.PRINT_FILES, owner, "2026-11-13");
		expect(parts.length).toBeGreaterThan(2);
		const lastKey = parts.at(-1)?.key;

		// Later events of the same day, and a run with a bucket that records what it touches.
		const later = await oldEvents(owner, new Date(at.getTime() + 60_000), 3);
		const recorded = recordingBucket();
		expect(await archiveOldEvents(env, now, { partBytes: SMALL_PART, bucket: recorded.bucket })).toBe(4);
		expect(recorded.reads).toEqual([lastKey]);
		const sealed = parts.slice(0, -1).map((part) => part.key);
		expect(recorded.writes.filter((key) => sealed.includes(key))).toEqual([]);
		expect(await eventsInD1(orderId)).toEqual([]);
		expect(await eventsInD1(later.orderId)).toEqual([]);
		await expectEachOnce(owner, at, 21);
	});

	it("a day's first object past the bound (archived before days had parts) is never rewritten: the day goes on in the next part", async () => {
		const at = new Date(Date.UTC(2026, 9, 20, 7));
		const { owner, now } = await ownerPastWindow("Oversized Day Gallery", at);
		const { orderId, eventIds } = await oldEvents(owner, at, 2);
		const line = JSON.stringify({ id: "evt_big", created_at: at.toISOString(), pad: "x".repeat(3 * SMALL_PART) });
		const stored = await env.PRINT_FILES.put(archiveKey(owner, "2026-10-20"), `${line}\n`);
		await drain(now, { partBytes: SMALL_PART });
		expect(await eventsInD1(orderId)).toEqual([]);
		expect((await env.PRINT_FILES.head(archiveKey(owner, "2026-10-20")))?.etag).toBe(stored?.etag);
		const ids = await expectEachOnce(owner, at, 4);
		expect(ids[0]).toBe("evt_big");
		expect(ids).toEqual(expect.arrayContaining(eventIds));
		expect(await env.PRINT_FILES.head(archivePartKey(owner, "2026-10-20", 2))).not.toBeNull();
	});

	it("a part that is not an archive is left as it is, and the events it might hold stay in D1", async () => {
		const at = new Date(Date.UTC(2026, 10, 15, 4));
		const { owner, now } = await ownerPastWindow("Damaged Part Gallery", at);
		const { orderId } = await oldEvents(owner, at, 10);
		await drain(now, { partBytes: SMALL_PART });
		// Part 1 replaced by hand with text that is not an archive, then more events of the day come due.
		await env.PRINT_FILES.put(archiveKey(owner, "2026-11-15"), "not json\n");
		const later = await oldEvents(owner, at, 1);
		expect(await archiveOldEvents(env, now, { partBytes: SMALL_PART })).toBe(0);
		expect(await eventsInD1(later.orderId)).toHaveLength(2);
		expect(await (await env.PRINT_FILES.get(archiveKey(owner, "2026-11-15")))?.text()).toBe("not json\n");
		expect(await eventsInD1(orderId)).toEqual([]);
		for (const part of await listDayParts(env.PRINT_FILES, owner, "2026-11-15")) await env.PRINT_FILES.delete(part.key);
		await drain(now);
	});
});

describe("GET /v1/admin/accounts/{id}/events-archive/{mode}/{day}", () => {
	it("gives the service team an archived day as stored, one event per line", async () => {
		const at = new Date(Date.UTC(2026, 7, 20, 15));
		const { owner, now } = await ownerPastWindow("Read Archive Gallery", at);
		const { eventIds } = await oldEvents(owner, at, 2);
		await drain(now);
		const admin = await createAdminKey();

		const response = await api(`/v1/admin/accounts/${owner.accountId}/events-archive/live/2026-08-20`, { key: admin });
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toBe("application/x-ndjson; charset=utf-8");
		const lines = (await response.text())
			.trimEnd()
			.split("\n")
			.map((line) => JSON.parse(line) as ArchivedLine);
		expect(lines.map((line) => line.id)).toEqual(expect.arrayContaining(eventIds));
		expect(lines[0]?.type).toBe("order.received");

		// The other mode, another day, another account: nothing archived.
		for (const path of [
			`${owner.accountId}/events-archive/test/2026-08-20`,
			`${owner.accountId}/events-archive/live/2026-08-21`,
			`acct_${"Z".repeat(24)}/events-archive/live/2026-08-20`,
		]) {
			const missing = await expectError(await api(`/v1/admin/accounts/${path}`, { key: admin }), "not_found");
			expect(missing.code).toBe("events_archive_not_found");
		}
	});

	it("answers a day stored in parts whole: every part in order, streamed, each event once; other objects beside them are not sent", async () => {
		const at = new Date(Date.UTC(2026, 10, 18, 10));
		const { owner, now } = await ownerPastWindow("Read Parts Gallery", at);
		const { eventIds } = await oldEvents(owner, at, 25);
		await drain(now, { partBytes: SMALL_PART });
		const texts = await expectParts(owner, "2026-11-18", SMALL_PART);
		expect(texts.length).toBeGreaterThan(3);
		// An object under the day's name that is not a part (a note left by hand) is not part of the day.
		await env.PRINT_FILES.put(`${archiveKey(owner, "2026-11-18")}.bak`, "not a part\n");
		await env.PRINT_FILES.put(archivePartKey(owner, "2026-11-18", 1).replace(".ndjson", ".02.ndjson"), "nor this\n");
		const admin = await createAdminKey();

		const response = await api(`/v1/admin/accounts/${owner.accountId}/events-archive/live/2026-11-18`, { key: admin });
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toBe("application/x-ndjson; charset=utf-8");
		const body = await response.text();
		expect(body).toBe(texts.join(""));
		const ids = body
			.trimEnd()
			.split("\n")
			.map((line) => (JSON.parse(line) as ArchivedLine).id);
		expect(new Set(ids).size).toBe(26);
		expect(ids).toEqual(expect.arrayContaining(eventIds));
	});

	it("refuses a malformed day, mode or account id with a 422 naming it", async () => {
		const admin = await createAdminKey();
		const base = "/v1/admin/accounts";
		await expectError(
			await api(`${base}/acct_X1/events-archive/live/2026-02-30`, { key: admin }),
			"validation_error",
			"day",
		);
		await expectError(
			await api(`${base}/acct_X1/events-archive/live/20260201`, { key: admin }),
			"validation_error",
			"day",
		);
		await expectError(
			await api(`${base}/acct_X1/events-archive/staging/2026-02-01`, { key: admin }),
			"validation_error",
			"mode",
		);
		const hostile = encodeURIComponent("acct_X1/live/2026-02-01.ndjson?");
		await expectError(
			await api(`${base}/${hostile}/events-archive/live/2026-02-01`, { key: admin }),
			"validation_error",
			"id",
		);
		await expectError(
			await api(`${base}/${"acct_".padEnd(5000, "x")}/events-archive/live/2026-02-01`, { key: admin }),
			"validation_error",
			"id",
		);
		for (const [path, field] of [
			[`..%2F..%2Facct_X1/events-archive/live/2026-02-01`, "id"],
			[`acct_X1/events-archive/live/..%2F..%2F2026-02-01`, "day"],
			[`acct_X1/events-archive/live%2F..%2Ftest/2026-02-01`, "mode"],
			[`acct_X1/events-archive/live/2026-02-01%00`, "day"],
		] as const) {
			await expectError(await api(`${base}/${path}`, { key: admin }), "validation_error", field);
		}
	});

	it("is the admin's alone: a partner key, an ops key and a test-mode admin key are refused", async () => {
		const partner = await createPartner("Curious Gallery");
		const path = `/v1/admin/accounts/${partner.account.id}/events-archive/live/2026-08-20`;
		await expectError(await api(path, { key: partner.keys.live.key }), "forbidden");
		await expectError(await api(path, { key: await createKeyWithScopes(["ops"]) }), "forbidden");
		// An admin scope on a test key (which provisioning never issues) reads no archive either.
		await expectError(await api(path, { key: await insertKeyRow(["admin"], "test") }), "forbidden");
		await expectError(await api(path), "unauthorized");
	});
});
