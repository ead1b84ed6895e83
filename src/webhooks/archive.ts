/**
 * Events older than the retention window leave D1 for R2, with their deliveries: each goes first into
 * its day's archive (one or more NDJSON part objects per account, mode and UTC day, one event per line
 * as the event log shows it, plus its owner; see archive-parts.ts), then out of D1. Run by the cron, a
 * bounded batch at a time.
 *
 * Every step can be repeated: an event already in one of its day's parts (a run that died between the
 * write and the delete, a rerun) has its line replaced where it is, never written again; every part is
 * written only over the version read (R2's conditional put), so two runs at once cannot drop each
 * other's lines; and no part is read whole or written past a bound, however busy the day.
 */
import { configOf } from "../config.ts";
import { everyDatabase } from "../databases.ts";
import { log } from "../log.ts";
import {
	type ArchiveLine,
	archivePartKey,
	type DayPart,
	idsInPart,
	inPartOrder,
	isSealed,
	listDayParts,
	parsePart,
	readArchivedDay,
	writePart,
} from "./archive-parts.ts";
import { type ArchivableEventRow, archivableEvents, deleteArchivedEvents, type EventOwner } from "./event-store.ts";
import { toEvent } from "./event-view.ts";

/** The most events one cron run moves: a run's reads, writes and memory stay bounded whatever is due. */
export const ARCHIVE_BATCH = 500;

/** The most bytes of event bodies one cron run moves (at least one event): 500 events of 100 KB would be 50 MB. */
export const ARCHIVE_BATCH_BYTES = 8 * 1024 * 1024;

/**
 * The most bytes a run adds to one part of a day before it starts the next: a run holds at most one
 * part of a day in memory (two or three times over while merging), six days side by side, and a
 * Worker has 128 MB.
 */
export const ARCHIVE_PART_BYTES = 2 * 1024 * 1024;

/** Day objects a run reads and writes side by side. */
const DAYS_AT_ONCE = 6;

/** Attempts at one day's parts when another run keeps writing them first. */
const WRITE_ATTEMPTS = 3;

const DAY_MS = 24 * 60 * 60 * 1000;

/** How a run writes the archive: the part bound, and the bucket (the service's own unless a test says). */
export type ArchiveOptions = { partBytes?: number; bucket?: R2Bucket };

/** The R2 key of the first part of an owner's archived events of one UTC day (`YYYY-MM-DD`). */
export function archiveKey(owner: EventOwner, day: string): string {
	return archivePartKey(owner, day, 1);
}

/**
 * The instant before which events are archived: the start of the UTC day `EVENT_RETENTION_DAYS` before
 * `now`. A day's events leave together once the whole day is past the window (an event is kept 90 to 91
 * days), so a day's object is written once for each batch of its events, not again every minute as the
 * window's edge crosses the day: each write is an R2 class A operation, and a rewrite of the day so far.
 */
export function archiveCutoff(env: Env, now: Date): Date {
	const edge = now.getTime() - configOf(env).EVENT_RETENTION_DAYS * DAY_MS;
	return new Date(edge - (((edge % DAY_MS) + DAY_MS) % DAY_MS));
}

/** An event as its archive line: the event log's view of it with its account and mode first. */
function lineOf(row: ArchivableEventRow): ArchiveLine {
	const text = JSON.stringify({ account_id: row.accountId, mode: row.mode, ...toEvent(row) });
	return { id: row.id, createdAt: row.created_at, text };
}

const utf8 = new TextEncoder();

/** The bytes a line takes in its part, newline included. */
function lineBytes(line: ArchiveLine): number {
	return utf8.encode(line.text).length + 1;
}

/** Whether a part could hold this event: its time within the part's range (any, when the range is unknown). */
function mayHold(part: DayPart, line: ArchiveLine): boolean {
	return part.range === null || (line.createdAt >= part.range.first && line.createdAt <= part.range.last);
}

/** What a write to a part came to: written (or already as wanted), lost to another run, or refused as not an archive. */
type PartOutcome = "written" | "contended" | "unreadable";

/**
 * Replaces the lines of events a sealed part already holds, written only over the version read. A part
 * past twice the bound (an object archived before days had parts) is never read whole: its lines stay
 * as first written.
 */
async function replaceInPart(
	bucket: R2Bucket,
	part: DayPart,
	lines: ReadonlyArray<ArchiveLine>,
	partBytes: number,
): Promise<PartOutcome> {
	if (part.size > 2 * partBytes) return "written";
	const object = await bucket.get(part.key);
	if (object === null) return "contended";
	const merged = parsePart(await object.text());
	if (merged === null) return "unreadable";
	let changed = false;
	for (const line of lines) {
		if (merged.get(line.id)?.text === line.text) continue;
		merged.set(line.id, line);
		changed = true;
	}
	if (!changed) return "written";
	const written = await writePart(
		bucket,
		part.key,
		[...merged.values()],
		{ etagMatches: object.etag },
		isSealed(object.customMetadata),
	);
	return written ? "written" : "contended";
}

/**
 * Adds lines of events no sealed part holds to the day: into its open part (the last, while unsealed
 * and under the bound; a line of an event it holds is replaced) up to the bound, then into new parts,
 * each up to the bound (at least one line). A part is sealed before the next is started, so a run that
 * read it before cannot add to it after. Returns the ids written, in order, stopping at the first write
 * another run won (or at a part sealed since the listing); "unreadable" when the open part is not an
 * archive.
 */
async function appendToDay(
	bucket: R2Bucket,
	owner: EventOwner,
	day: string,
	open: DayPart | undefined,
	lastNumber: number,
	fresh: ReadonlyArray<ArchiveLine>,
	partBytes: number,
): Promise<string[] | "unreadable"> {
	let merged = new Map<string, ArchiveLine>();
	let etag = "";
	let size = 0;
	if (open !== undefined) {
		const object = await bucket.get(open.key);
		// Deleted or sealed since the listing: the day is listed again, and this part searched as a sealed one.
		if (object === null || isSealed(object.customMetadata)) return [];
		const parsed = parsePart(await object.text());
		if (parsed === null) return "unreadable";
		merged = parsed;
		etag = object.etag;
		size = object.size;
	}
	const intoOpen: string[] = [];
	const spilled: ArchiveLine[] = [];
	let changed = false;
	for (const line of fresh) {
		const old = merged.get(line.id);
		const fits = open !== undefined && spilled.length === 0 && size + lineBytes(line) <= partBytes;
		if (old === undefined && !fits) {
			spilled.push(line);
			continue;
		}
		intoOpen.push(line.id);
		if (old?.text === line.text) continue;
		size += lineBytes(line) - (old === undefined ? 0 : lineBytes(old));
		merged.set(line.id, line);
		changed = true;
	}
	// The open part is sealed by the write that fills it, before the next part exists.
	const seal = open !== undefined && spilled.length > 0;
	if (open !== undefined && (changed || seal)) {
		if (!(await writePart(bucket, open.key, [...merged.values()], { etagMatches: etag }, seal))) return [];
	}
	const archived = intoOpen;
	let number = lastNumber;
	for (let start = 0; start < spilled.length; ) {
		let end = start + 1;
		let bytes = lineBytes(spilled[start] as ArchiveLine);
		for (; end < spilled.length; end++) {
			const next = lineBytes(spilled[end] as ArchiveLine);
			if (bytes + next > partBytes) break;
			bytes += next;
		}
		const lines = spilled.slice(start, end);
		number += 1;
		// A new part only if still absent: false means another run started it first.
		const key = archivePartKey(owner, day, number);
		// A full part is sealed from the start; the last one stays open for the next run.
		if (!(await writePart(bucket, key, lines, new Headers({ "If-None-Match": "*" }), end < spilled.length))) {
			return archived;
		}
		archived.push(...lines.map((line) => line.id));
		start = end;
	}
	return archived;
}

/**
 * Writes an owner's lines of one day into the day's parts: an event a sealed part already holds has its
 * line replaced there (found by the parts' time ranges, then read line by line), the rest are added to
 * the open part and new ones. Listed again and retried when another run wrote first. Returns the ids
 * archived; the others stay in D1 for a later run.
 */
async function archiveDay(
	bucket: R2Bucket,
	owner: EventOwner,
	day: string,
	lines: ReadonlyArray<ArchiveLine>,
	partBytes: number,
): Promise<string[]> {
	const pending = new Map(lines.map((line) => [line.id, line]));
	const archived: string[] = [];
	const settle = (ids: Iterable<string>) => {
		for (const id of ids) if (pending.delete(id)) archived.push(id);
	};
	const unreadable = (key: string) => {
		log.error("events_archive.unreadable", { key, message: "a line is not an archived event; left as it is" });
		return archived;
	};
	attempts: for (let attempt = 0; attempt < WRITE_ATTEMPTS && pending.size > 0; attempt++) {
		const parts = await listDayParts(bucket, owner, day);
		const last = parts.at(-1);
		const open = last !== undefined && !last.sealed && last.size < partBytes ? last : undefined;
		for (const part of parts) {
			if (part === open) continue;
			const candidates = [...pending.values()].filter((line) => mayHold(part, line));
			if (candidates.length === 0) continue;
			const held = await idsInPart(bucket, part.key, new Set(candidates.map((line) => line.id)));
			if (held === null) return unreadable(part.key);
			if (held.size === 0) continue;
			const heldLines = candidates.filter((line) => held.has(line.id));
			const outcome = await replaceInPart(bucket, part, heldLines, partBytes);
			if (outcome === "unreadable") return unreadable(part.key);
			// Lost to another run: its events must not go to the open part, so everything waits for a fresh listing.
			if (outcome === "contended") continue attempts;
			settle(held);
		}
		const fresh = [...pending.values()].sort(inPartOrder);
		if (fresh.length === 0) break;
		const written = await appendToDay(bucket, owner, day, open, last?.number ?? 0, fresh, partBytes);
		if (written === "unreadable") return unreadable(open?.key ?? archivePartKey(owner, day));
		settle(written);
	}
	if (pending.size > 0) {
		log.warn("events_archive.contended", {
			key: archivePartKey(owner, day),
			message: `written by another run ${WRITE_ATTEMPTS} times; ${pending.size} events wait for the next run`,
		});
	}
	return archived;
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
 * Writes each event into its owner's day in R2, a few days side by side. Returns the ids of the events
 * now safely archived (the only ones that may leave D1).
 */
export async function writeArchive(
	env: Env,
	events: ReadonlyArray<ArchivableEventRow>,
	options: ArchiveOptions = {},
): Promise<string[]> {
	const bucket = options.bucket ?? env.PRINT_FILES;
	const partBytes = options.partBytes ?? ARCHIVE_PART_BYTES;
	const byDay = new Map<string, { owner: EventOwner; day: string; lines: ArchiveLine[] }>();
	for (const event of events) {
		const day = event.created_at.slice(0, 10);
		const key = archiveKey(event, day);
		const group = byDay.get(key) ?? { owner: { accountId: event.accountId, mode: event.mode }, day, lines: [] };
		group.lines.push(lineOf(event));
		byDay.set(key, group);
	}
	// A few days at a time: a run holds at most DAYS_AT_ONCE parts in memory, and a batch spread over
	// hundreds of days (a backlog) takes a fraction of the sequential round trips.
	const days = [...byDay];
	const archived: string[] = [];
	const writer = async () => {
		for (let next = days.shift(); next !== undefined; next = days.shift()) {
			const [key, { owner, day, lines }] = next;
			try {
				archived.push(...(await archiveDay(bucket, owner, day, lines, partBytes)));
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
 * The cron's job: in each database, a batch of events past the window written to their days' parts,
 * then deleted from D1 with their deliveries. Returns how many left D1.
 */
export async function archiveOldEvents(
	env: Env,
	now: Date = new Date(),
	options: ArchiveOptions = {},
): Promise<number> {
	const moved = await Promise.all(
		everyDatabase(env).map(async (database) => {
			const due = await dueEvents(env, database, now);
			if (due.length === 0) return 0;
			return deleteArchivedEvents(database, await writeArchive(env, due, options));
		}),
	);
	return moved.reduce((sum, count) => sum + count, 0);
}

/**
 * An owner's archived events of one UTC day as one NDJSON stream, its parts in order (each part oldest
 * first), or null when none were archived.
 */
export function readArchiveDay(env: Env, owner: EventOwner, day: string): Promise<ReadableStream<Uint8Array> | null> {
	return readArchivedDay(env.PRINT_FILES, owner, day);
}
