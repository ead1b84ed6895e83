import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { consumeThumbnails } from "../../src/previews/thumbnail-consumer.ts";
import { findPrintFileById } from "../../src/print-files/store.ts";
import { createPartner } from "../helpers.ts";
import { encodePng } from "../print-files/fixtures/png.ts";
import { uploadedFile } from "../print-files/upload-helpers.ts";

/** A partner's live key and a ready 1200 × 1500 PNG (150 DPI at 8 × 10 in) whose thumbnail is made (as the queue's consumer makes it) unless told. */
export async function partnerWithThumbnail({ made = true } = {}) {
	const partner = await createPartner();
	const key = partner.keys.live.key;
	const file = await uploadedFile(key, encodePng(1200, 1500, { opaque: true }));
	if (made) {
		const row = await findPrintFileById(env.DB, file);
		const body = { print_file_id: file, etag: row?.r2_etag };
		await consumeThumbnails(
			createMessageBatch("framed-print-thumbnails", [{ id: "m1", timestamp: new Date(), attempts: 1, body }]),
			env,
		);
	}
	return { partner, key, file };
}
