import { configOf } from "../config.ts";
import { everyDatabase, findInEveryDatabase } from "../databases.ts";
import { ImageFault } from "../imaging/fault.ts";
import { log } from "../log.ts";
import { r2Source } from "../print-files/r2-source.ts";
import { requestThumbnails, ThumbnailMessage } from "../print-files/thumbnail-queue.ts";
import {
	claimThumbnail,
	markThumbnailReady,
	markThumbnailsQueued,
	markThumbnailUnavailable,
	overdueThumbnails,
	type ThumbnailClaim,
	thumbnailKey,
} from "../print-files/thumbnail-store.ts";
import { makeThumbnail } from "./make-thumbnail.ts";
import { UNAVAILABLE_REASON_OF } from "./unavailable-reason.ts";

/** Tries at one thumbnail before it is given up as `failed` (a crash mid-way counts as a try). */
export const MAX_THUMBNAIL_ATTEMPTS = 5;

/** Seconds before try `attempt` + 1: 30 s, 1 min, 2 min, 4 min. */
export function thumbnailRetryDelaySeconds(attempt: number): number {
	return 30 * 2 ** Math.max(0, attempt - 1);
}

/** What became of one message. */
type Outcome = "made" | "unavailable" | "nothing" | "retry";

/**
 * The THUMBNAILS consumer: each message's file is streamed from R2 (every read pinned to the inspected
 * etag), decoded into an area average, encoded as PNG and stored under a key of the file and that etag;
 * then the row is marked ready, with the statistics of the content measured on the way (content_stats). A file the decoder cannot read is `unavailable` with the decoder's
 * reason. Anything else is retried with backoff, and given up as `failed` after five tries. It never
 * changes the file's own status, and no order waits for it. A message for a thumbnail already made or
 * given up, or for other bytes than the file's, does nothing.
 */
export async function consumeThumbnails(batch: MessageBatch<unknown>, env: Env): Promise<void> {
	// One at a time: each holds a thumbnail and a band of rows, and two at once would double the peak.
	for (const message of batch.messages) {
		const parsed = ThumbnailMessage.safeParse(message.body);
		if (!parsed.success) {
			log.error("thumbnail.message_dropped", { message: "dropped a malformed thumbnail message", id: message.id });
			message.ack();
			continue;
		}
		const outcome = await thumbnailOf(env, parsed.data);
		if (outcome.kind === "retry") message.retry({ delaySeconds: thumbnailRetryDelaySeconds(outcome.attempt) });
		else message.ack();
	}
}

/** Makes one file's thumbnail, or says why not. */
async function thumbnailOf(env: Env, request: ThumbnailMessage): Promise<{ kind: Outcome; attempt: number }> {
	// The message names the file only: the database that holds it is the one whose claim succeeds.
	const claimed = await findInEveryDatabase(env, async (database) => {
		const claim = await claimThumbnail(database, request.print_file_id, request.etag);
		return claim === null ? null : { database, claim };
	});
	if (claimed === null) return { kind: "nothing", attempt: 0 };
	const { database, claim } = claimed;
	if (claim.thumbnail_attempts > MAX_THUMBNAIL_ATTEMPTS) {
		await markThumbnailUnavailable(database, claim.id, claim.r2_etag, "failed");
		return { kind: "unavailable", attempt: claim.thumbnail_attempts };
	}
	try {
		return { kind: await madeFrom(env, database, claim), attempt: claim.thumbnail_attempts };
	} catch (error) {
		const last = claim.thumbnail_attempts >= MAX_THUMBNAIL_ATTEMPTS;
		log.error(last ? "thumbnail.failed" : "thumbnail.retried", {
			print_file_id: claim.id,
			attempt: claim.thumbnail_attempts,
			message: String(error),
		});
		if (!last) return { kind: "retry", attempt: claim.thumbnail_attempts };
		await markThumbnailUnavailable(database, claim.id, claim.r2_etag, "failed");
		return { kind: "unavailable", attempt: claim.thumbnail_attempts };
	}
}

/** Reads, decodes, stores and records the thumbnail of the claimed file's pinned bytes. */
async function madeFrom(env: Env, database: D1Database, claim: ThumbnailClaim): Promise<Outcome> {
	const started = Date.now();
	const head = await env.PRINT_FILES.head(claim.r2_key);
	if (head === null || head.etag !== claim.r2_etag) {
		// Not the inspected bytes: no thumbnail of them is ever made under this file's pinned key.
		await markThumbnailUnavailable(database, claim.id, claim.r2_etag, "file_changed");
		return "unavailable";
	}
	const source = r2Source(env.PRINT_FILES, claim.r2_key, head.size, claim.r2_etag);
	let made: Awaited<ReturnType<typeof makeThumbnail>>;
	try {
		made = await makeThumbnail(claim.format, source, claim.colour);
	} catch (error) {
		// Anything but the file's own fault (storage failing, a bug) is retried.
		if (!(error instanceof ImageFault)) throw error;
		const reason = UNAVAILABLE_REASON_OF[error.reason];
		if (reason === null) throw error;
		await markThumbnailUnavailable(database, claim.id, claim.r2_etag, reason);
		log.info("thumbnail.unavailable", { print_file_id: claim.id, reason, message: error.message });
		return "unavailable";
	}
	await env.PRINT_FILES.put(thumbnailKey(claim, claim.r2_etag), made.png, {
		httpMetadata: { contentType: "image/png" },
	});
	await markThumbnailReady(database, claim.id, claim.r2_etag, made);
	log.info("thumbnail.made", {
		print_file_id: claim.id,
		format: claim.format,
		size_bytes: head.size,
		bytes_read: source.bytesRead,
		reads: source.reads,
		width_px: made.width,
		height_px: made.height,
		png_bytes: made.png.byteLength,
		colour_conversion: made.conversion,
		content_flags: made.contentStats.flags,
		ms: Date.now() - started,
	});
	return "made";
}

/**
 * The cron's safety net for thumbnails: up to 50 pending ones whose message was sent over ten minutes
 * ago (lost, or its consumer died) are sent again, and marked as sent now. A duplicate is harmless.
 */
export async function sweepPendingThumbnails(env: Env, now: Date = new Date()): Promise<number> {
	const sentBefore = new Date(now.getTime() - configOf(env).THUMBNAIL_SWEEP_OVERDUE_SECONDS * 1000);
	const swept = await Promise.all(
		everyDatabase(env).map(async (database) => {
			const overdue = await overdueThumbnails(database, sentBefore, 50);
			if (overdue.length === 0) return 0;
			await requestThumbnails(
				env,
				overdue.map((file) => ({ print_file_id: file.id, etag: file.r2_etag })),
			);
			await markThumbnailsQueued(
				database,
				overdue.map((file) => file.id),
				now,
			);
			return overdue.length;
		}),
	);
	return swept.reduce((sum, count) => sum + count, 0);
}
