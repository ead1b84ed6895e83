import type { Owner } from "../accounts/owner.ts";
import type { KeyMode } from "../accounts/scopes.ts";
import { type BatchedRead, readOne, rowRead } from "../http/batched-read.ts";
import type { ColourFacts } from "../imaging/colour/facts.ts";
import type { ImageFormat } from "../imaging/formats.ts";
import type { InvalidReason } from "./invalid-reasons.ts";
import type { ThumbnailColumns } from "./thumbnail-store.ts";

export const PRINT_FILE_STATUSES = ["awaiting_upload", "processing", "ready", "invalid"] as const;
/** awaiting_upload → (bytes stored) processing → (inspected) ready | invalid. */
export type PrintFileStatus = (typeof PRINT_FILE_STATUSES)[number];

/** The statuses a partner reads: the stored ones, and `expired` once the retention sweep removed the bytes. */
export const PRINT_FILE_READ_STATUSES = [...PRINT_FILE_STATUSES, "expired"] as const;
/** One of PRINT_FILE_READ_STATUSES. */
export type PrintFileReadStatus = (typeof PRINT_FILE_READ_STATUSES)[number];

/** The status a file reads as: `expired` past its retention, whatever it was before. */
export function readStatus(file: Pick<PrintFileRow, "status" | "expired_at">): PrintFileReadStatus {
	return file.expired_at === null ? file.status : "expired";
}

/** A print_files row (its thumbnail's columns included). */
export type PrintFileRow = ThumbnailColumns & {
	id: string;
	account_id: string;
	mode: KeyMode;
	status: PrintFileStatus;
	filename: string | null;
	content_type: string;
	declared_size_bytes: number | null;
	r2_key: string;
	created_at: string;
	expires_at: string;
	uploaded_at: string | null;
	format: ImageFormat | null;
	width_px: number | null;
	height_px: number | null;
	size_bytes: number | null;
	invalid_reason: InvalidReason | null;
	invalid_message: string | null;
	inspected_at: string | null;
	inspection_bytes_read: number | null;
	/** R2's etag of the bytes the inspection read: the file is those bytes and no others. */
	r2_etag: string | null;
	/** When the file's retention period started: its creation, or the latest use the retention sweep found. */
	retention_clock: string | null;
	/** When the retention sweep expired the file: its bytes are gone (or going), and no new use is taken. */
	expired_at: string | null;
	/** When the expired file's object left R2. */
	purged_at: string | null;
	/** What the headers say of its colour (ColourFacts as JSON), written by the inspection; null before. */
	colour_facts: string | null;
	/** What its pixels say (ContentStats as JSON), written when its thumbnail is made; null before. */
	content_stats: string | null;
};

/** Stores a new file awaiting its upload. */
export async function insertPrintFile(
	db: D1Database,
	file: Pick<
		PrintFileRow,
		| "id"
		| "account_id"
		| "mode"
		| "filename"
		| "content_type"
		| "declared_size_bytes"
		| "r2_key"
		| "created_at"
		| "expires_at"
	>,
): Promise<void> {
	await db
		.prepare(
			`INSERT INTO print_files (id, account_id, mode, status, filename, content_type, declared_size_bytes, r2_key, created_at, expires_at, retention_clock)
			 VALUES (?1, ?2, ?3, 'awaiting_upload', ?4, ?5, ?6, ?7, ?8, ?9, ?8)`,
		)
		.bind(
			file.id,
			file.account_id,
			file.mode,
			file.filename,
			file.content_type,
			file.declared_size_bytes,
			file.r2_key,
			file.created_at,
			file.expires_at,
		)
		.run();
}

/** A file by id only: for the signed upload route, where the signature, not a key, is the authority. */
export function findPrintFileById(db: D1Database, id: string): Promise<PrintFileRow | null> {
	return db.prepare("SELECT * FROM print_files WHERE id = ?1").bind(id).first<PrintFileRow>();
}

/** Where in R2 the bytes of this account's and mode's file `id` go. */
export function printFileKey(owner: Owner, id: string): string {
	return `print-files/${owner.mode}/${owner.accountId}/${id}`;
}

/** A file of this account and mode, or null (another account's or mode's file is not found). */
export function findOwnedPrintFile(db: D1Database, owner: Owner, id: string): Promise<PrintFileRow | null> {
	return readOne(db, ownedPrintFileRead(db, owner, id));
}

/** findOwnedPrintFile as a read that can share a batch. */
export function ownedPrintFileRead(db: D1Database, owner: Owner, id: string): BatchedRead<PrintFileRow | null> {
	return rowRead(
		db
			.prepare("SELECT * FROM print_files WHERE id = ?1 AND account_id = ?2 AND mode = ?3")
			.bind(id, owner.accountId, owner.mode),
		(row: PrintFileRow | null) => row,
	);
}

/** A file of this account in either mode: a brand logo serves live and test orders alike. */
export function findAccountPrintFile(db: D1Database, accountId: string, id: string): Promise<PrintFileRow | null> {
	return db
		.prepare("SELECT * FROM print_files WHERE id = ?1 AND account_id = ?2")
		.bind(id, accountId)
		.first<PrintFileRow>();
}

/** The files among `ids` that belong to this account (either mode), by id. */
export async function findAccountPrintFiles(
	db: D1Database,
	accountId: string,
	ids: string[],
): Promise<Map<string, PrintFileRow>> {
	if (ids.length === 0) return new Map();
	const placeholders = ids.map((_, index) => `?${index + 2}`).join(", ");
	const { results } = await db
		.prepare(`SELECT * FROM print_files WHERE account_id = ?1 AND id IN (${placeholders})`)
		.bind(accountId, ...ids)
		.all<PrintFileRow>();
	return new Map(results.map((file) => [file.id, file]));
}

/** Records that the bytes are in R2 (worker upload route). Only moves a file still awaiting its upload. */
export async function markUploaded(db: D1Database, id: string, sizeBytes: number, now: Date): Promise<void> {
	await db
		.prepare(
			"UPDATE print_files SET status = 'processing', uploaded_at = ?2, size_bytes = ?3 WHERE id = ?1 AND status = 'awaiting_upload'",
		)
		.bind(id, now.toISOString(), sizeBytes)
		.run();
}

/** What an inspection found. */
export type InspectionRecord =
	| { status: "ready"; format: ImageFormat; widthPx: number; heightPx: number; colour: ColourFacts | null }
	| { status: "invalid"; format: ImageFormat | null; reason: InvalidReason; message: string };

/**
 * Stores an inspection's result unless another request already did (inspection happens once), and
 * returns the row as it stands afterwards.
 */
export async function recordInspection(
	db: D1Database,
	id: string,
	result: InspectionRecord,
	facts: { sizeBytes: number; etag: string; uploadedAt: Date; bytesRead: number; now: Date },
): Promise<PrintFileRow | null> {
	const ready = result.status === "ready";
	await db
		.prepare(
			`UPDATE print_files SET status = ?2, format = ?3, width_px = ?4, height_px = ?5, size_bytes = ?6,
			        invalid_reason = ?7, invalid_message = ?8, uploaded_at = COALESCE(uploaded_at, ?9),
			        inspected_at = ?10, inspection_bytes_read = ?11, r2_etag = ?12,
			        thumbnail_status = ?13, thumbnail_queued_at = ?14, colour_facts = ?15
			  WHERE id = ?1 AND inspected_at IS NULL`,
		)
		.bind(
			id,
			result.status,
			result.format,
			ready ? result.widthPx : null,
			ready ? result.heightPx : null,
			facts.sizeBytes,
			ready ? null : result.reason,
			ready ? null : result.message,
			facts.uploadedAt.toISOString(),
			facts.now.toISOString(),
			facts.bytesRead,
			facts.etag,
			// A ready file's thumbnail is pending from now; the caller sends its message (queued now).
			ready ? "pending" : null,
			ready ? facts.now.toISOString() : null,
			ready && result.colour !== null ? JSON.stringify(result.colour) : null,
		)
		.run();
	return findPrintFileById(db, id);
}

/**
 * Marks a ready file `invalid` (`file_changed`): the object in R2 is not the one inspected. Only a
 * file still pinned to `etag` is changed, so two requests noticing it at once write it once. Its
 * thumbnail, made from the old bytes or not, is unavailable from then on (`file_changed`).
 */
export async function markFileChanged(
	db: D1Database,
	id: string,
	pinnedEtag: string | null,
	message: string,
): Promise<PrintFileRow | null> {
	await db
		.prepare(
			`UPDATE print_files SET status = 'invalid', invalid_reason = 'file_changed', invalid_message = ?3,
			        thumbnail_status = 'unavailable', thumbnail_reason = 'file_changed'
			  WHERE id = ?1 AND status = 'ready' AND r2_etag IS ?2`,
		)
		.bind(id, pinnedEtag, message)
		.run();
	return findPrintFileById(db, id);
}

/** Pins a file inspected before pins were kept to the object in R2 now (its size still the inspected one). */
export async function pinLegacyFile(db: D1Database, id: string, etag: string): Promise<void> {
	await db.prepare("UPDATE print_files SET r2_etag = ?2 WHERE id = ?1 AND r2_etag IS NULL").bind(id, etag).run();
}
