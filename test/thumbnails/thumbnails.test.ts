/**
 * Thumbnails of print files: made by the THUMBNAILS queue's consumer after inspection, pinned to the
 * inspected bytes, shown on the file and served to partners and the floor; never holding an order.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import UPNG from "upng-js";
import { describe, expect, it } from "vitest";
import type { ErrorCode, ErrorType } from "../../src/error-catalog.ts";
import worker from "../../src/index.ts";
import { findPrintFileById, type PrintFileRow } from "../../src/print-files/store.ts";
import { thumbnailKey } from "../../src/print-files/thumbnail-store.ts";
import {
	MAX_THUMBNAIL_ATTEMPTS,
	sweepPendingThumbnails,
	thumbnailRetryDelaySeconds,
} from "../../src/thumbnails/consumer.ts";
import type { DeliveryMessage } from "../../src/webhooks/enqueue.ts";
import { api, createKeyWithScopes, createPartner, expectError } from "../helpers.ts";
import { encodeJpeg } from "../imaging/fixtures/jpeg.ts";
import { encodePng } from "../imaging/fixtures/png.ts";
import { pixelTiff } from "../imaging/fixtures/tiff-pixels.ts";
import { createOrder, orderBody, partnerWithFile, settleValidation } from "../orders/order-helpers.ts";
import { waitFor } from "../polling.ts";
import { requestUpload, uploadedFile, uploadImage } from "../print-files/upload-helpers.ts";

const QUEUE = "framed-print-thumbnails";

/** The file's row, which must exist. */
async function rowOf(id: string): Promise<PrintFileRow> {
	const row = await findPrintFileById(env.DB, id);
	if (row === null) throw new Error(`no print file ${id}`);
	return row;
}

/** Hands messages to the Worker's queue handler as the THUMBNAILS queue would; the batch's outcome. */
async function runConsumer(bodies: unknown[]) {
	// The Worker's handler is typed for the webhooks' messages; the thumbnail consumer parses its own with zod.
	const batch = createMessageBatch<DeliveryMessage>(
		QUEUE,
		bodies.map((body, index) => ({
			id: `msg-${index}`,
			timestamp: new Date(),
			attempts: 1,
			body: body as DeliveryMessage,
		})),
	);
	const ctx = createExecutionContext();
	await worker.queue(batch, env, ctx);
	return getQueueResult(batch, ctx);
}

/** The message inspection sends for a ready file, driven through the consumer. */
async function makeThumbnailOf(id: string) {
	const row = await rowOf(id);
	return runConsumer([{ print_file_id: id, etag: row.r2_etag }]);
}

/** The thumbnail as GET /v1/print-files/{id} shows it. */
async function thumbnailField(key: string, id: string): Promise<Record<string, unknown>> {
	const response = await api(`/v1/print-files/${id}`, { key });
	expect(response.status).toBe(200);
	return ((await response.json()) as { thumbnail: Record<string, unknown> }).thumbnail;
}

/** Asserts the error envelope of `type` with this stable `code` (field `id`). */
async function expectCode(response: Response, type: ErrorType, code: ErrorCode): Promise<void> {
	expect((await expectError(response, type, "id")).code).toBe(code);
}

/** A partner's live key and a ready, really decodable PNG file of `width` × `height`. */
async function partnerWithImage(width: number, height: number) {
	const partner = await createPartner();
	const key = partner.keys.live.key;
	const file = await uploadedFile(key, encodePng(width, height, { opaque: true }));
	return { partner, key, file };
}

describe("thumbnails made by the queue consumer", () => {
	it("a ready file gets an 8-bit RGB PNG thumbnail, longest side 1024, served as image/png", async () => {
		const { key, file } = await partnerWithImage(1600, 1200);
		const result = await makeThumbnailOf(file);
		expect(result.retryMessages).toEqual([]);
		expect(await thumbnailField(key, file)).toEqual({
			status: "ready",
			width_px: 1024,
			height_px: 768,
			reason: null,
		});
		const response = await api(`/v1/print-files/${file}/thumbnail`, { key });
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toBe("image/png");
		const png = UPNG.decode(await response.arrayBuffer());
		expect({ width: png.width, height: png.height, ctype: png.ctype, depth: png.depth }).toEqual({
			width: 1024,
			height: 768,
			ctype: 2,
			depth: 8,
		});
	});

	it("the inspection that makes a file ready sends its message, and the queue alone brings the thumbnail", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const before = Date.now();
		const id = await uploadImage(key, encodePng(90, 60, { opaque: true }), "image/png");
		expect(await findPrintFileById(env.DB, id)).toMatchObject({ status: "processing", thumbnail_status: null });
		// The first read inspects it: ready, its thumbnail pending and its message sent now.
		expect((await api(`/v1/print-files/${id}`, { key })).status).toBe(200);
		const row = await rowOf(id);
		expect(Date.parse(row.thumbnail_queued_at ?? "")).toBeGreaterThanOrEqual(before);
		const made = await waitFor(
			() => thumbnailField(key, id),
			(thumbnail) => thumbnail.status !== "pending",
		);
		expect(made).toEqual({ status: "ready", width_px: 90, height_px: 60, reason: null });
	});

	it("a small image keeps its own size (never upscaled), and the thumbnail is stored under the file's key and etag", async () => {
		const { file } = await partnerWithImage(120, 90);
		await makeThumbnailOf(file);
		const row = await rowOf(file);
		expect(row).toMatchObject({ thumbnail_status: "ready", thumbnail_width_px: 120, thumbnail_height_px: 90 });
		expect(row.thumbnail_etag).toBe(row.r2_etag);
		const stored = await env.PRINT_FILES.head(thumbnailKey(row, row.r2_etag ?? ""));
		expect(stored?.httpMetadata?.contentType).toBe("image/png");
	});

	it("a JPEG and a TIFF go through their own decoders to a thumbnail", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const jpeg = await uploadImage(key, encodeJpeg(640, 480), "image/jpeg");
		const tiffBytes = await pixelTiff(
			{ order: "MM", width: 300, height: 200, photometric: 2, samples: 3, depth: 8, compression: 5, predictor: 2 },
			(x, y, s) => (s === 0 ? x % 256 : s === 1 ? y % 256 : 128),
		);
		const tiff = await uploadImage(key, tiffBytes, "image/tiff");
		// The first read inspects them (ready), as every use of a file does.
		for (const id of [jpeg, tiff]) expect((await api(`/v1/print-files/${id}`, { key })).status).toBe(200);
		await runConsumer([
			{ print_file_id: jpeg, etag: (await rowOf(jpeg)).r2_etag },
			{ print_file_id: tiff, etag: (await rowOf(tiff)).r2_etag },
		]);
		// A JPEG under 1024 px is decoded whole and keeps its size (never upscaled).
		expect(await thumbnailField(key, jpeg)).toMatchObject({ status: "ready", width_px: 640, height_px: 480 });
		expect(await thumbnailField(key, tiff)).toMatchObject({ status: "ready", width_px: 300, height_px: 200 });
	});

	it("a redelivered message does nothing new: the same row and object, and the message is acknowledged", async () => {
		const { file } = await partnerWithImage(200, 100);
		await makeThumbnailOf(file);
		const before = await rowOf(file);
		const object = await env.PRINT_FILES.head(thumbnailKey(before, before.r2_etag ?? ""));
		const again = await makeThumbnailOf(file);
		expect(again.explicitAcks).toEqual(["msg-0"]);
		expect(again.retryMessages).toEqual([]);
		expect(await rowOf(file)).toEqual(before);
		const after = await env.PRINT_FILES.head(thumbnailKey(before, before.r2_etag ?? ""));
		expect(after?.uploaded.getTime()).toBe(object?.uploaded.getTime());
	});

	it("two consumers racing on one file both finish cleanly and leave one ready thumbnail", async () => {
		const { key, file } = await partnerWithImage(300, 200);
		const [first, second] = await Promise.all([makeThumbnailOf(file), makeThumbnailOf(file)]);
		expect([...first.retryMessages, ...second.retryMessages]).toEqual([]);
		expect(await thumbnailField(key, file)).toEqual({ status: "ready", width_px: 300, height_px: 200, reason: null });
		const response = await api(`/v1/print-files/${file}/thumbnail`, { key });
		expect(UPNG.decode(await response.arrayBuffer()).height).toBe(200);
	});

	it("a malformed message and one for other bytes than the inspected ones are acknowledged and do nothing", async () => {
		const { file } = await partnerWithImage(64, 64);
		const pendingBefore = await rowOf(file);
		const result = await runConsumer([
			{ print_file_id: file },
			"not an object",
			{ print_file_id: "x".repeat(5000), etag: "e" },
			{ print_file_id: file, etag: "0123456789abcdef0123456789abcdef" },
		]);
		expect([...result.explicitAcks].sort()).toEqual(["msg-0", "msg-1", "msg-2", "msg-3"]);
		const after = await rowOf(file);
		// Only the queue's own delivery (racing this test) could have made it; these messages did not.
		if (after.thumbnail_status === "pending") expect(after).toEqual(pendingBefore);
		else expect(after.thumbnail_etag).toBe(pendingBefore.r2_etag);
	});

	it(`gives up after ${MAX_THUMBNAIL_ATTEMPTS} tries (a consumer that kept crashing): unavailable, reason failed`, async () => {
		const { key, file } = await partnerWithImage(64, 64);
		await env.DB.prepare(
			"UPDATE print_files SET thumbnail_status = 'pending', thumbnail_attempts = ?2, thumbnail_etag = NULL WHERE id = ?1",
		)
			.bind(file, MAX_THUMBNAIL_ATTEMPTS)
			.run();
		await makeThumbnailOf(file);
		expect(await thumbnailField(key, file)).toEqual({
			status: "unavailable",
			width_px: null,
			height_px: null,
			reason: "failed",
		});
		await expectCode(await api(`/v1/print-files/${file}/thumbnail`, { key }), "not_found", "thumbnail_unavailable");
	});
});

describe("the consumer's retries", () => {
	it("a failed attempt is retried after 30 s, then 1, 2 and 4 minutes; the fifth gives up", () => {
		const delays = Array.from({ length: MAX_THUMBNAIL_ATTEMPTS - 1 }, (_, index) =>
			thumbnailRetryDelaySeconds(index + 1),
		);
		expect(delays).toEqual([30, 60, 120, 240]);
	});
});

describe("thumbnails and the bytes they were made from", () => {
	it("bytes replaced before the thumbnail is made never get one: unavailable (file_changed), nothing stored", async () => {
		const { key, file } = await partnerWithImage(64, 48);
		const row = await rowOf(file);
		const replaced = await env.PRINT_FILES.put(row.r2_key, encodePng(80, 60, { opaque: true }));
		await makeThumbnailOf(file);
		expect(await thumbnailField(key, file)).toMatchObject({ status: "unavailable", reason: "file_changed" });
		expect(await env.PRINT_FILES.head(thumbnailKey(row, replaced?.etag ?? ""))).toBeNull();
		await expectCode(await api(`/v1/print-files/${file}/thumbnail`, { key }), "not_found", "thumbnail_unavailable");
	});

	it("bytes replaced after the thumbnail was made: the old thumbnail is no longer served", async () => {
		const { key, file } = await partnerWithImage(64, 48);
		await makeThumbnailOf(file);
		expect((await api(`/v1/print-files/${file}/thumbnail`, { key })).status).toBe(200);
		await env.PRINT_FILES.put((await rowOf(file)).r2_key, encodePng(80, 60, { opaque: true }));
		await expectCode(await api(`/v1/print-files/${file}/thumbnail`, { key }), "not_found", "thumbnail_unavailable");
		expect(await thumbnailField(key, file)).toMatchObject({ status: "unavailable", reason: "file_changed" });
	});

	it("an undecodable file's thumbnail is unavailable with the decoder's reason; the file stays ready and its order goes on", async () => {
		// partnerWithFile's PNG is 48 × 48 px behind a header claiming 2400 × 3000: the inspector believes the
		// header, the decoder finds the pixels missing.
		const { key, file } = await partnerWithFile();
		await makeThumbnailOf(file);
		expect(await thumbnailField(key, file)).toEqual({
			status: "unavailable",
			width_px: null,
			height_px: null,
			reason: "truncated",
		});
		const response = await api(`/v1/print-files/${file}`, { key });
		expect(await response.json()).toMatchObject({ status: "ready" });
		const order = await createOrder(key, orderBody(file));
		const settled = await settleValidation(key, order.id);
		expect(settled.status).not.toBe("held");
		expect(settled.status).not.toBe("received");
	});

	it("a file not uploaded yet has a pending thumbnail, and its route is a 409 thumbnail_pending", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const ticket = await requestUpload(key);
		expect(await thumbnailField(key, ticket.id)).toEqual({
			status: "pending",
			width_px: null,
			height_px: null,
			reason: null,
		});
		await expectCode(await api(`/v1/print-files/${ticket.id}/thumbnail`, { key }), "conflict", "thumbnail_pending");
	});

	it("an invalid file's thumbnail is unavailable (file_invalid)", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const id = await uploadImage(key, new TextEncoder().encode("not an image at all"), "image/png");
		expect(await thumbnailField(key, id)).toMatchObject({ status: "unavailable", reason: "file_invalid" });
		await expectCode(await api(`/v1/print-files/${id}/thumbnail`, { key }), "not_found", "thumbnail_unavailable");
	});
});

describe("who may read a thumbnail", () => {
	it("another account's key and the same account's other mode get 404 print_file_not_found", async () => {
		const { partner, file } = await partnerWithImage(64, 64);
		await makeThumbnailOf(file);
		const stranger = (await createPartner()).keys.live.key;
		await expectCode(
			await api(`/v1/print-files/${file}/thumbnail`, { key: stranger }),
			"not_found",
			"print_file_not_found",
		);
		const testKey = partner.keys.test.key;
		await expectCode(
			await api(`/v1/print-files/${file}/thumbnail`, { key: testKey }),
			"not_found",
			"print_file_not_found",
		);
	});

	it("a hostile id (huge, or path-like) is a 404 in the envelope, never a 500", async () => {
		const { key } = await partnerWithImage(32, 32);
		for (const id of ["x".repeat(10_000), "..%2F..%2Fprint-files", "%00", "pf_' OR 1=1 --"]) {
			await expectCode(await api(`/v1/print-files/${id}/thumbnail`, { key }), "not_found", "print_file_not_found");
		}
	});

	it("the floor's route serves any partner's thumbnail; a partner key is 403 there", async () => {
		const { key, file } = await partnerWithImage(64, 64);
		await makeThumbnailOf(file);
		const opsKey = await createKeyWithScopes(["ops"]);
		const response = await api(`/v1/ops/print-files/${file}/thumbnail`, { key: opsKey });
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toBe("image/png");
		expect(UPNG.decode(await response.arrayBuffer()).width).toBe(64);
		await expectError(await api(`/v1/ops/print-files/${file}/thumbnail`, { key }), "forbidden");
		await expectCode(
			await api("/v1/ops/print-files/pf_doesnotexist/thumbnail", { key: opsKey }),
			"not_found",
			"print_file_not_found",
		);
	});
});

describe("the cron's safety net for thumbnails", () => {
	it("sends overdue pending thumbnails again, at most 50 a run, and marks them sent", async () => {
		const { file } = await partnerWithImage(16, 16);
		await env.DB.prepare(
			"UPDATE print_files SET thumbnail_status = 'pending', thumbnail_queued_at = '2000-01-01T00:00:00.000Z' WHERE id = ?1",
		)
			.bind(file)
			.run();
		const now = new Date();
		const sent = await sweepPendingThumbnails(env, now);
		expect(sent).toBeGreaterThanOrEqual(1);
		expect(sent).toBeLessThanOrEqual(50);
		expect((await rowOf(file)).thumbnail_queued_at).toBe(now.toISOString());
		// Sent just now: the next run, a minute later, leaves it alone.
		await sweepPendingThumbnails(env, new Date(now.getTime() + 60_000));
		expect((await rowOf(file)).thumbnail_queued_at).toBe(now.toISOString());
	});
});
