import type { ColourFacts } from "../imaging/colour/facts.ts";
import type { ContentStats } from "../imaging/content-stats.ts";
import type { ImageFormat } from "../imaging/formats.ts";
import { colourFactsOf } from "./colour-facts-read.ts";

/** A thumbnail's state, on the print file's row: pending until made, then ready or unavailable for good. */
export const THUMBNAIL_STATUSES = ["pending", "ready", "unavailable"] as const;
export type ThumbnailStatus = (typeof THUMBNAIL_STATUSES)[number];

/**
 * Why a file has no thumbnail: the decoder's reasons (a variant it does not read, a corrupt or cut
 * file, too many pixels), `failed` (storage or the decoder kept failing: given up after the attempts),
 * `file_changed` (the bytes in storage are no longer the inspected ones) and `file_invalid` (the file
 * itself was refused, so there is nothing to draw).
 */
export const THUMBNAIL_UNAVAILABLE_REASONS = [
	"unsupported_variant",
	"corrupt",
	"truncated",
	"too_large",
	"failed",
	"file_changed",
	"file_invalid",
] as const;
export type ThumbnailUnavailableReason = (typeof THUMBNAIL_UNAVAILABLE_REASONS)[number];

/** The thumbnail's columns of a print_files row (migration 0025). */
export type ThumbnailColumns = {
	thumbnail_status: ThumbnailStatus | null;
	thumbnail_width_px: number | null;
	thumbnail_height_px: number | null;
	thumbnail_reason: ThumbnailUnavailableReason | null;
	thumbnail_etag: string | null;
	thumbnail_attempts: number;
	thumbnail_queued_at: string | null;
};

/**
 * Where a file's thumbnail goes in R2: under the file's own key and the etag of the bytes it was made
 * from, so bytes put under the same key later can never be shown the old thumbnail.
 */
export function thumbnailKey(file: { r2_key: string }, etag: string): string {
	return `thumbnails/${file.r2_key}/${etag}.png`;
}

/** A file whose thumbnail the consumer is about to make: what it reads, and how many tries this one is. */
export type ThumbnailClaim = {
	id: string;
	r2_key: string;
	r2_etag: string;
	format: ImageFormat;
	thumbnail_attempts: number;
	/** What the inspection found of its colour (the thumbnail is converted to sRGB by it); null when not kept. */
	colour: ColourFacts | null;
};

/**
 * Counts one more try at the thumbnail of file `id` pinned to `etag`, if it is still ready, still those
 * bytes and still pending; null otherwise (made, given up, or other bytes: nothing to do).
 */
export async function claimThumbnail(db: D1Database, id: string, etag: string): Promise<ThumbnailClaim | null> {
	const row = await db
		.prepare(
			`UPDATE print_files SET thumbnail_attempts = thumbnail_attempts + 1
			  WHERE id = ?1 AND r2_etag = ?2 AND status = 'ready' AND thumbnail_status = 'pending' AND format IS NOT NULL
			  RETURNING id, r2_key, r2_etag, format, thumbnail_attempts, colour_facts`,
		)
		.bind(id, etag)
		.first<Omit<ThumbnailClaim, "colour"> & { colour_facts: string | null }>();
	if (row === null) return null;
	const { colour_facts, ...claim } = row;
	// The inspection wrote this column from a ColourFacts: parsed back as one.
	// Read safely: a column that does not read is colour not known, converted as the file's own samples.
	return { ...claim, colour: colourFactsOf(colour_facts) };
}

/**
 * Marks the thumbnail made from `etag` ready, with the content's statistics taken while it was made, once:
 * a second consumer's write changes nothing.
 */
export async function markThumbnailReady(
	db: D1Database,
	id: string,
	etag: string,
	made: { width: number; height: number; contentStats: ContentStats },
): Promise<void> {
	await db
		.prepare(
			`UPDATE print_files SET thumbnail_status = 'ready', thumbnail_width_px = ?3, thumbnail_height_px = ?4,
			        thumbnail_etag = ?2, thumbnail_reason = NULL, content_stats = ?5
			  WHERE id = ?1 AND r2_etag = ?2 AND thumbnail_status = 'pending'`,
		)
		.bind(id, etag, made.width, made.height, JSON.stringify(made.contentStats))
		.run();
}

/** Gives up on the thumbnail of file `id` pinned to `etag`, with the reason; only a pending one. */
export async function markThumbnailUnavailable(
	db: D1Database,
	id: string,
	etag: string,
	reason: ThumbnailUnavailableReason,
): Promise<void> {
	await db
		.prepare(
			`UPDATE print_files SET thumbnail_status = 'unavailable', thumbnail_reason = ?3
			  WHERE id = ?1 AND r2_etag = ?2 AND thumbnail_status = 'pending'`,
		)
		.bind(id, etag, reason)
		.run();
}

/** A pending thumbnail whose message is overdue: the file and the bytes it is pinned to. */
export type OverdueThumbnail = { id: string; r2_etag: string };

/**
 * At most `limit` pending thumbnails whose message was last sent before `sentBefore`, the longest
 * waiting first (one range of the partial index print_files_thumbnails_pending).
 */
export async function overdueThumbnails(db: D1Database, sentBefore: Date, limit: number): Promise<OverdueThumbnail[]> {
	const { results } = await db
		.prepare(
			`SELECT id, r2_etag FROM print_files
			  WHERE thumbnail_status = 'pending' AND thumbnail_queued_at < ?1
			  ORDER BY thumbnail_queued_at LIMIT ?2`,
		)
		.bind(sentBefore.toISOString(), limit)
		.all<{ id: string; r2_etag: string | null }>();
	return results.flatMap((row) => (row.r2_etag === null ? [] : [{ id: row.id, r2_etag: row.r2_etag }]));
}

/** Records that the thumbnails of `ids` were sent to the queue again at `now`. */
export async function markThumbnailsQueued(db: D1Database, ids: readonly string[], now: Date): Promise<void> {
	if (ids.length === 0) return;
	await db
		.prepare(
			"UPDATE print_files SET thumbnail_queued_at = ?1 WHERE thumbnail_status = 'pending' AND id IN (SELECT value FROM json_each(?2))",
		)
		.bind(now.toISOString(), JSON.stringify(ids))
		.run();
}
