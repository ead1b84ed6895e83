import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { findPrintFileById } from "../../src/print-files/store.ts";
import { consumeThumbnails } from "../../src/thumbnails/consumer.ts";
import { createPartner } from "../helpers.ts";
import { encodePng } from "../imaging/fixtures/png.ts";
import { createOrder, orderBody, settleValidation } from "../orders/order-helpers.ts";
import { uploadedFile } from "../print-files/upload-helpers.ts";

/** A partner's live key and a ready 1200 × 1500 PNG (150 DPI at 8 × 10 in) whose thumbnail is made (as the queue's consumer makes it) unless told. */
export async function partnerWithThumbnail({ made = true } = {}) {
	const partner = await createPartner();
	const key = partner.keys.live.key;
	const file = await uploadedFile(key, encodePng(1200, 1500, { opaque: true }));
	if (made) await consumeThumbnailMessage(file);
	return { partner, key, file };
}

/** Hands the queue's consumer the message inspection sends for the ready file `file`, as the queue would. */
export async function consumeThumbnailMessage(file: string): Promise<void> {
	const row = await findPrintFileById(env.DB, file);
	const body = { print_file_id: file, etag: row?.r2_etag };
	await consumeThumbnails(
		createMessageBatch("framed-print-thumbnails", [{ id: "m1", timestamp: new Date(), attempts: 1, body }]),
		env,
	);
}

/** Where a file's thumbnail stands, as its row says it. */
const THUMBNAIL_COLUMNS = {
	ready: null,
	pending: "thumbnail_status = NULL",
	unavailable: "thumbnail_status = 'unavailable', thumbnail_reason = 'corrupt'",
} as const;

/**
 * A new partner's order in production of one 8 × 10 in item, whose file's thumbnail is made, then set
 * to `state` as its row would say it (`unavailable`: the file's data is `corrupt`).
 */
export async function orderWithThumbnail(state: keyof typeof THUMBNAIL_COLUMNS) {
	const { key, file } = await partnerWithThumbnail();
	const order = await createOrder(key, orderBody(file));
	const settled = await settleValidation(key, order.id);
	if (settled.status !== "in_production") throw new Error(`order ${order.id} is ${settled.status}`);
	const column = THUMBNAIL_COLUMNS[state];
	if (column !== null) await env.DB.prepare(`UPDATE print_files SET ${column} WHERE id = ?1`).bind(file).run();
	return { key, file, orderId: order.id, itemId: order.items[0]?.id ?? "" };
}
