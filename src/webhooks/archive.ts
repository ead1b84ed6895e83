/**
 * Events older than the retention window leave D1 for R2, with their deliveries: each goes first into
 * its day's archive object (one NDJSON object per account, mode and UTC day, one event per line as
 * the event log shows it, plus its owner), then out of D1. Run by the cron, a bounded batch at a time.
 *
 * Every step can be repeated: an object is merged with what it already holds by event id (a day split
 * across runs, a run that died between the write and the delete, a rerun), and written only over the
 * version it was read from (R2's conditional put), so two runs at once cannot drop each other's lines.
 */
import { z } from "zod";
import { configOf } from "../config.ts";
import { everyDatabase } from "../databases.ts";
import { log } from "../log.ts";
import { type ArchivableEventRow, archivableEvents, deleteArchivedEvents, type EventOwner } from "./event-store.ts";
import { toEvent } from "./event-view.ts";

/** The most events one cron run moves: a run's reads, writes and memory stay bounded whatever is due. */
export const ARCHIVE_BATCH = 500;

/** The most bytes of event bodies one cron run moves (at least one event): 500 events of 100 KB would be 50 MB. */
export const ARCHIVE_BATCH_BYTES = 8 * 1024 * 1024;

/**
 * The largest day object a run reads to merge into: merging holds the object two or three times over
 * in memory, and a Worker has 128 MB. A larger day keeps its further events in D1 (logged).
 */
export const MAX_DAY_OBJECT_BYTES = 16 * 1024 * 1024;

/** Day objects a run reads and writes side by side. */
const DAYS_AT_ONCE = 6;

/** Attempts at one day's object when another run keeps writing it first. */
const WRITE_ATTEMPTS = 3;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The R2 key of an owner's archived events of one UTC day (`YYYY-MM-DD`). */
export function archiveKey(owner: EventOwner, day: string): string {
	return `archive/events/${owner.accountId}/${owner.mode}/${day}.ndjson`;
}

/** The instant before which events are archived: `EVENT_RETENTION_DAYS` before `now`. */
export function archiveCutoff(env: Env, now: Date): Date {
	return new Date(now.getTime() - configOf(env).EVENT_RETENTION_DAYS * DAY_MS);
}

/**
 * What an archived line must carry to be merged: its id and time. The rest is kept as written, so
 * lines archived before a field was added stay readable.
 */
const StoredLine = z.looseObject({ id: z.string().min(1), created_at: z.string().min(1) });

/** One line of an archive object: its event's id and time, and its text. */
type ArchiveLine = { id: string; createdAt: string; text: string };

/** An event as its archive line: the event log's view of it with its account and mode first. */
function lineOf(row: ArchivableEventRow): ArchiveLine {
	const text = JSON.stringify({ account_id: row.accountId, mode: row.mode, ...toEvent(row) });
	return { id: row.id, createdAt: row.created_at, text };
}

/** An object's lines by event id, or null when a line is not an archived event (then it is left alone). */
function parseArchive(text: string): Map<string, ArchiveLine> | null {
	const lines = new Map<string, ArchiveLine>();
	for (const raw of text.split("\n")) {
		if (raw.trim() === "") continue;
		let json: unknown;
		try {
			json = JSON.parse(raw);
		} catch {
			return null;
		}
		const parsed = StoredLine.safeParse(json);
		if (!parsed.success) return null;
		lines.set(parsed.data.id, { id: parsed.data.id, createdAt: parsed.data.created_at, text: raw });
	}
	return lines;
}

/**
 * Merges `lines` into the object at `key` (a line of the same event replaced, the rest kept, all in
 * time order) and writes it only over the version read; read again and retried when another run wrote
 * it meanwhile. False when it could not be written: its events then stay in D1 for a later run.
 */
async function mergeIntoDay(bucket: R2Bucket, key: string, lines: ReadonlyArray<ArchiveLine>): Promise<boolean> {
	for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
		const existing = await bucket.get(key);
		if (existing !== null && existing.size > MAX_DAY_OBJECT_BYTES) {
			await existing.body.cancel();
			log.error("events_archive.day_too_large", {
				key,
				size_bytes: existing.size,
				message: `the day's object passed ${MAX_DAY_OBJECT_BYTES} bytes; its further events stay in D1`,
			});
			return false;
		}
		const merged = existing === null ? new Map<string, ArchiveLine>() : parseArchive(await existing.text());
		if (merged === null) {
			log.error("events_archive.unreadable", { key, message: "a line is not an archived event; left as it is" });
			return false;
		}
		for (const line of lines) merged.set(line.id, line);
		const ordered = [...merged.values()].sort((a, b) =>
			a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
		);
		const body = `${ordered.map((line) => line.text).join("\n")}\n`;
		// Written only over the version read (or only if still absent): a null answer means another run won.
		const written = await bucket.put(key, body, {
			onlyIf: existing === null ? new Headers({ "If-None-Match": "*" }) : { etagMatches: existing.etag },
			httpMetadata: { contentType: "application/x-ndjson" },
		});
		if (written !== null) return true;
	}
	log.warn("events_archive.contended", { key, message: `written by another run ${WRITE_ATTEMPTS} times; next run` });
	return false;
}

/**
 * A database's events due for the archive at `now`: finished ones past the window, at most `limit` and
 * ARCHIVE_BATCH_BYTES; the oldest in an even minute, the newest in an odd one. A day whose object cannot
 * be written keeps its events in D1; taken from both ends, such a day holds back only its own events,
 * never the whole archive behind it.
 */
export function dueEvents(
	env: Env,
	database: D1Database,
	now: Date,
	limit = ARCHIVE_BATCH,
): Promise<ArchivableEventRow[]> {
	const from = now.getUTCMinutes() % 2 === 0 ? "oldest" : "newest";
	return archivableEvents(database, archiveCutoff(env, now), limit, ARCHIVE_BATCH_BYTES, from);
}

/**
 * Writes each event into its owner's day object in R2, a few days side by side. Returns the ids of the
 * events now safely archived (the only ones that may leave D1).
 */
export async function writeArchive(env: Env, events: ReadonlyArray<ArchivableEventRow>): Promise<string[]> {
	const byKey = new Map<string, ArchiveLine[]>();
	for (const event of events) {
		const key = archiveKey(event, event.created_at.slice(0, 10));
		const lines = byKey.get(key) ?? [];
		lines.push(lineOf(event));
		byKey.set(key, lines);
	}
	// A few objects at a time: a run holds at most DAYS_AT_ONCE days' objects in memory, and a batch
	// spread over hundreds of days (a backlog) takes a fraction of the sequential round trips.
	const days = [...byKey];
	const archived: string[] = [];
	const writer = async () => {
		for (let next = days.shift(); next !== undefined; next = days.shift()) {
			const [key, lines] = next;
			try {
				if (await mergeIntoDay(env.PRINT_FILES, key, lines)) archived.push(...lines.map((line) => line.id));
			} catch (error) {
				// One day R2 refuses keeps its events in D1 for a later run; the other days go on.
				log.error("events_archive.write_failed", { key, message: String(error) });
			}
		}
	};
	await Promise.all(Array.from({ length: DAYS_AT_ONCE }, writer));
	return archived;
}

/**
 * The cron's job: in each database, a batch of events past the window written to their day objects,
 * then deleted from D1 with their deliveries. Returns how many left D1.
 */
export async function archiveOldEvents(env: Env, now: Date = new Date()): Promise<number> {
	const moved = await Promise.all(
		everyDatabase(env).map(async (database) => {
			const due = await dueEvents(env, database, now);
			if (due.length === 0) return 0;
			return deleteArchivedEvents(database, await writeArchive(env, due));
		}),
	);
	return moved.reduce((sum, count) => sum + count, 0);
}

/** An owner's archived events of one UTC day, as stored (NDJSON, oldest first), or null when none were archived. */
export async function readArchiveDay(env: Env, owner: EventOwner, day: string): Promise<R2ObjectBody | null> {
	return env.PRINT_FILES.get(archiveKey(owner, day));
}
