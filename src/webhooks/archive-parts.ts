/**
 * The archive's layout in R2: an owner's archived events of one UTC day are one or more part objects,
 * `<day>.ndjson` first (the name a day had before it could have parts), then `<day>.2.ndjson`,
 * `<day>.3.ndjson` and on, each NDJSON and at most a bound in size. Each part carries, as custom
 * metadata, the earliest and latest `created_at` of its lines, so a run can tell which parts could
 * hold an event without reading them, and whether it is sealed: a part is sealed (by a conditional
 * write) before the next is started, so no run can add to it after, even one that listed the day
 * before the next part existed.
 */
import { z } from "zod";
import { parsedJson } from "../http/stored-json.ts";
import type { EventOwner } from "./event-store.ts";

/** One line of an archive part: its event's id and time, and its text. */
export type ArchiveLine = { id: string; createdAt: string; text: string };

/** A part of an archived day, as listed: its number (1 first), key, size, etag, time range when known, and whether it is sealed. */
export type DayPart = {
	number: number;
	key: string;
	size: number;
	etag: string;
	/** The earliest and latest `created_at` of its lines; null on a part written without them. */
	range: { first: string; last: string } | null;
	/** Sealed before the next part was started: nothing is added to it any more, lines are only replaced. */
	sealed: boolean;
};

/** The custom metadata each part carries: its lines' time range. */
const PartRange = z.object({ first: z.string().min(1), last: z.string().min(1) });

/**
 * What an archived line must carry to be merged: its id and time. The rest is kept as written, so
 * lines archived before a field was added stay readable.
 */
const StoredLine = z.looseObject({ id: z.string().min(1), created_at: z.string().min(1) });

/** The key prefix shared by every part of an owner's day, and by nothing else. */
function dayPrefix(owner: EventOwner, day: string): string {
	return `archive/events/${owner.accountId}/${owner.mode}/${day}.`;
}

/** The R2 key of part `number` (1 first) of an owner's archived events of one UTC day (`YYYY-MM-DD`). */
export function archivePartKey(owner: EventOwner, day: string, number = 1): string {
	return `${dayPrefix(owner, day)}${number === 1 ? "" : `${number}.`}ndjson`;
}

/** The part number a key's tail names (`ndjson` is 1, `7.ndjson` is 7), or null for any other object. */
function partNumberOf(tail: string): number | null {
	if (tail === "ndjson") return 1;
	const match = /^([2-9]|[1-9]\d{1,5})\.ndjson$/.exec(tail);
	return match?.[1] === undefined ? null : Number(match[1]);
}

/** The custom metadata a part is written with: the time range of its lines, and whether it is sealed. */
function partMetadata(lines: ReadonlyArray<ArchiveLine>, sealed: boolean): Record<string, string> {
	const times = lines.map((line) => line.createdAt).sort();
	return { first: times[0] ?? "", last: times.at(-1) ?? "", sealed: String(sealed) };
}

/** Whether a part's custom metadata says it is sealed. */
export function isSealed(customMetadata: Record<string, string> | undefined): boolean {
	return customMetadata?.sealed === "true";
}

/**
 * Writes a part's lines, in order and with their time range (and sealed or not), only if `onlyIf` still
 * holds (the etag it was read at, or `If-None-Match: *` for a new part). False when another run wrote
 * it first.
 */
export async function writePart(
	bucket: R2Bucket,
	key: string,
	lines: ReadonlyArray<ArchiveLine>,
	onlyIf: R2Conditional | Headers,
	sealed: boolean,
): Promise<boolean> {
	const written = await bucket.put(key, partText(lines), {
		onlyIf,
		httpMetadata: { contentType: "application/x-ndjson" },
		customMetadata: partMetadata(lines, sealed),
	});
	return written !== null;
}

/** The parts of an owner's archived day, first to last (empty when nothing was archived that day). */
export async function listDayParts(bucket: R2Bucket, owner: EventOwner, day: string): Promise<DayPart[]> {
	const prefix = dayPrefix(owner, day);
	const parts: DayPart[] = [];
	let cursor: string | undefined;
	do {
		const page = await bucket.list({ prefix, cursor, include: ["customMetadata"] });
		for (const object of page.objects) {
			const number = partNumberOf(object.key.slice(prefix.length));
			if (number === null) continue;
			const range = PartRange.safeParse(object.customMetadata ?? {});
			parts.push({
				number,
				key: object.key,
				size: object.size,
				etag: object.etag,
				range: range.success ? range.data : null,
				sealed: isSealed(object.customMetadata),
			});
		}
		cursor = page.truncated ? page.cursor : undefined;
	} while (cursor !== undefined);
	return parts.sort((a, b) => a.number - b.number);
}

/** A line of text as an archived event's line, or null when it is not one. */
function parseLine(raw: string): ArchiveLine | null {
	const line = parsedJson(raw, StoredLine);
	return line === null ? null : { id: line.id, createdAt: line.created_at, text: raw };
}

/** A part's lines by event id, or null when a line is not an archived event (then it is left alone). */
export function parsePart(text: string): Map<string, ArchiveLine> | null {
	const lines = new Map<string, ArchiveLine>();
	for (const raw of text.split("\n")) {
		if (raw.trim() === "") continue;
		const line = parseLine(raw);
		if (line === null) return null;
		lines.set(line.id, line);
	}
	return lines;
}

/**
 * Which of `wanted` a part holds, read line by line as it streams (never the whole part in memory);
 * null when a line is not an archived event. A part deleted meanwhile holds none.
 */
export async function idsInPart(
	bucket: R2Bucket,
	key: string,
	wanted: ReadonlySet<string>,
): Promise<Set<string> | null> {
	const object = await bucket.get(key);
	const held = new Set<string>();
	if (object === null) return held;
	let rest = "";
	const take = (raw: string): boolean => {
		if (raw.trim() === "") return true;
		const line = parseLine(raw);
		if (line === null) return false;
		if (wanted.has(line.id)) held.add(line.id);
		return true;
	};
	const reader = object.body.pipeThrough(new TextDecoderStream()).getReader();
	for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
		const lines = (rest + chunk.value).split("\n");
		rest = lines.pop() ?? "";
		if (!lines.every(take)) {
			await reader.cancel();
			return null;
		}
	}
	return take(rest) ? held : null;
}

/** Lines in a part's order: by time, ties by id. */
export function inPartOrder(a: ArchiveLine, b: ArchiveLine): number {
	if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
	return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** A part's text: its lines in order, one a line, ending in a newline. */
function partText(lines: Iterable<ArchiveLine>): string {
	return `${[...lines]
		.sort(inPartOrder)
		.map((line) => line.text)
		.join("\n")}\n`;
}

/**
 * An owner's archived day as one NDJSON stream, its parts in order, each read as it is sent (never
 * the day whole in memory); null when nothing of that owner was archived that day.
 */
export async function readArchivedDay(
	bucket: R2Bucket,
	owner: EventOwner,
	day: string,
): Promise<ReadableStream<Uint8Array> | null> {
	const parts = await listDayParts(bucket, owner, day);
	if (parts.length === 0) return null;
	const keys = parts.map((part) => part.key);
	let current: ReadableStreamDefaultReader<Uint8Array> | null = null;
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			for (;;) {
				if (current === null) {
					const key = keys.shift();
					if (key === undefined) {
						controller.close();
						return;
					}
					// A part deleted since the listing is skipped: there is nothing of it left to send.
					const object = await bucket.get(key);
					if (object === null) continue;
					current = object.body.getReader();
				}
				const chunk = await current.read();
				if (!chunk.done) {
					controller.enqueue(chunk.value);
					return;
				}
				current = null;
			}
		},
		async cancel(reason) {
			await current?.cancel(reason);
		},
	});
}
