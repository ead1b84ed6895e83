/**
 * Framed previews through the API: POST /v1/previews for a piece not yet ordered and an order item's
 * preview, drawn with the file's real thumbnail in the catalog's colours, cached in R2, refused
 * cleanly for other accounts and modes, pending thumbnails and bad input.
 */
import { env } from "cloudflare:workers";
import UPNG from "upng-js";
import { describe, expect, it } from "vitest";
import { RAIL_SHADES, rgbOf, shade } from "../../src/framed-previews/render.ts";
import { findPrintFileById } from "../../src/print-files/store.ts";
import { thumbnailKey } from "../../src/print-files/thumbnail-store.ts";
import { api, createKeyWithScopes, createPartner, expectError, send } from "../helpers.ts";
import { createOrder, orderBody } from "../orders/order-helpers.ts";
import { requestUpload } from "../print-files/upload-helpers.ts";
import { partnerWithThumbnail } from "../thumbnails/thumbnail-helpers.ts";

/** 8 × 10 in in a 3/4 in walnut moulding with a bright white mat of 2 in: 13.5 × 15.5 in, so 540 px is 40 px/in. */
const PIECE = { width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white", width_px: 540 };

function postPreview(key: string, body: unknown): Promise<Response> {
	return send("POST", "/v1/previews", key, body);
}

/** The response's PNG, decoded, with a pixel reader. */
async function pngOf(response: Response) {
	const image = UPNG.decode(await response.arrayBuffer());
	const rgba = new Uint8Array(UPNG.toRGBA8(image)[0] ?? new ArrayBuffer(0));
	return {
		width: image.width,
		height: image.height,
		ctype: image.ctype,
		at: (x: number, y: number) => Array.from(rgba.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3)),
	};
}

async function previewObjects(): Promise<string[]> {
	return (await env.PRINT_FILES.list({ prefix: "previews/" })).objects.map((object) => object.key);
}

describe("POST /v1/previews", () => {
	it("draws the piece with the file's thumbnail to scale in the catalog's colours, as an 8-bit RGB PNG", async () => {
		const { key, file } = await partnerWithThumbnail();
		const response = await postPreview(key, { print_file_id: file, ...PIECE });
		expect(response.status).toBe(200);
		expect(response.headers.get("content-type")).toBe("image/png");
		expect(response.headers.get("x-preview-image")).toBe("thumbnail");
		const png = await pngOf(response);
		expect([png.width, png.height, png.ctype]).toEqual([540, 620, 2]);
		// The walnut rail (#5C4033 in the catalog) is 30 px, the bright white mat from there to the opening at 115.
		expect(png.at(10, 310)).toEqual([...shade(rgbOf("#5C4033"), RAIL_SHADES.left)]);
		expect(png.at(40, 310)).toEqual([255, 255, 255]);
		// The image in the opening: the fixture's gradient, not the mat's white or the placeholder.
		expect(png.at(270, 310)).not.toEqual([255, 255, 255]);
	});

	it("answers a second identical request from the R2 cache, without reading the thumbnail again", async () => {
		const { key, file } = await partnerWithThumbnail();
		const first = await postPreview(key, { print_file_id: file, ...PIECE, width_px: 300 });
		const firstBytes = new Uint8Array(await first.arrayBuffer());
		const row = await findPrintFileById(env.DB, file);
		const cachedKeys = (await previewObjects()).filter((name) => name.includes(row?.r2_key ?? "?"));
		expect(cachedKeys).toHaveLength(1);
		// With the thumbnail gone, only the cache can still give the image.
		await env.PRINT_FILES.delete(thumbnailKey({ r2_key: row?.r2_key ?? "" }, row?.thumbnail_etag ?? ""));
		const second = await postPreview(key, { print_file_id: file, ...PIECE, width_px: 300 });
		expect(second.headers.get("x-preview-image")).toBe("thumbnail");
		expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
		expect(new Uint8Array(await second.arrayBuffer())).toEqual(firstBytes);
		// Another width is another preview.
		const wider = await postPreview(key, { print_file_id: file, ...PIECE, width_px: 301 });
		expect((await pngOf(wider)).width).toBe(301);
	});

	it("two identical first requests at once both get the same PNG, and one object is cached", async () => {
		const { key, file } = await partnerWithThumbnail();
		const body = { print_file_id: file, ...PIECE, width_px: 250 };
		const answers = await Promise.all([postPreview(key, body), postPreview(key, body)]);
		expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
		const [first, second] = await Promise.all(
			answers.map(async (answer) => new Uint8Array(await answer.arrayBuffer())),
		);
		expect(second).toEqual(first);
		const row = await findPrintFileById(env.DB, file);
		expect((await previewObjects()).filter((name) => name.includes(row?.r2_key ?? "?"))).toHaveLength(1);
	});

	it("is a 409 thumbnail_pending while the file's thumbnail is yet to be made", async () => {
		// A file not uploaded yet: its thumbnail is pending, and no queue can make it meanwhile.
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const ticket = await requestUpload(key);
		const response = await postPreview(key, { print_file_id: ticket.id, ...PIECE });
		expect((await expectError(response, "conflict", "print_file_id")).code).toBe("thumbnail_pending");
	});

	it("draws the frame with a neutral placeholder, saying why, for a file that will have no thumbnail", async () => {
		const { key, file } = await partnerWithThumbnail({ made: false });
		await env.DB.prepare(
			"UPDATE print_files SET thumbnail_status = 'unavailable', thumbnail_reason = 'unsupported_variant' WHERE id = ?1",
		)
			.bind(file)
			.run();
		const response = await postPreview(key, { print_file_id: file, ...PIECE });
		expect(response.status).toBe(200);
		expect(response.headers.get("x-preview-image")).toBe("placeholder");
		expect(response.headers.get("x-preview-placeholder-reason")).toBe("unsupported_variant");
		expect((await pngOf(response)).at(270, 310)).toEqual([...rgbOf("#D9D9D6")]);
	});

	it("is a 404 for another account's file and for the same account's file under a key of the other mode", async () => {
		const { partner, file } = await partnerWithThumbnail();
		const stranger = await createPartner("Elsewhere");
		for (const key of [stranger.keys.live.key, partner.keys.test.key]) {
			const error = await expectError(
				await postPreview(key, { print_file_id: file, ...PIECE }),
				"not_found",
				"print_file_id",
			);
			expect(error.code).toBe("print_file_not_found");
		}
	});

	it("refuses unknown slugs and impossible combinations with a 422 naming the field", async () => {
		const { key, file } = await partnerWithThumbnail();
		const cases: [Record<string, unknown>, string, string | undefined][] = [
			[{ frame: "no-such-frame" }, "frame", "frame_not_found"],
			[{ inner_mat: "no-such-mat" }, "inner_mat", "mat_not_found"],
			[{ frame: undefined }, "mat", undefined],
			[{ mat_border_in: 3, mat_bottom_border_in: 2 }, "mat_bottom_border_in", undefined],
			[{ width_in: 8.5 }, "width_in", "size_not_offered"],
			[{ width_in: 400 }, "width_in", "size_not_offered"],
			[{ width_px: 199 }, "width_px", undefined],
			[{ width_px: 2001 }, "width_px", undefined],
			[{ width_px: 600.5 }, "width_px", undefined],
			[{ fit: "stretch" }, "fit", undefined],
		];
		for (const [change, field, code] of cases) {
			const response = await postPreview(key, { print_file_id: file, ...PIECE, ...change });
			const error = await expectError(response, "validation_error", field);
			if (code !== undefined) expect(error.code).toBe(code);
		}
	});

	it("answers hostile and huge bodies with a 4xx, never a 500", async () => {
		const { key, file } = await partnerWithThumbnail();
		const bodies: BodyInit[] = [
			"{not json",
			"[]",
			JSON.stringify({ print_file_id: file, ...PIECE, __proto__: { admin: true }, extra: 1 }),
			JSON.stringify({ print_file_id: "x".repeat(10_000), ...PIECE }),
			JSON.stringify({ print_file_id: file, ...PIECE, width_in: "8" }),
			JSON.stringify({ print_file_id: file, ...PIECE, padding: "p".repeat(2 * 1024 * 1024) }),
		];
		for (const body of bodies) {
			const response = await api("/v1/previews", {
				method: "POST",
				key,
				body,
				headers: { "content-type": "application/json" },
			});
			expect(response.status, String(body).slice(0, 60)).toBeGreaterThanOrEqual(400);
			expect(response.status).toBeLessThan(500);
		}
	});

	it("needs the orders:read scope", async () => {
		const { file } = await partnerWithThumbnail();
		const filesOnly = await createKeyWithScopes(["files:write"]);
		await expectError(await postPreview(filesOnly, { print_file_id: file, ...PIECE }), "forbidden");
	});
});

describe("GET /v1/orders/{id}/items/{item_id}/preview", () => {
	it("draws an order's item as ordered, width_px wide (1200 by default)", async () => {
		const { key, file } = await partnerWithThumbnail();
		const order = await createOrder(key, orderBody(file, {}, { frame: "walnut-flat-075", mat: "bright-white" }));
		const item = order.items[0]?.id ?? "";
		const sized = await api(`/v1/orders/${order.id}/items/${item}/preview?width_px=540`, { key });
		expect(sized.status).toBe(200);
		const png = await pngOf(sized);
		expect([png.width, png.height]).toEqual([540, 620]);
		expect(png.at(10, 310)).toEqual([...shade(rgbOf("#5C4033"), RAIL_SHADES.left)]);
		const byDefault = await pngOf(await api(`/v1/orders/${order.id}/items/${item}/preview`, { key }));
		expect(byDefault.width).toBe(1200);
	});

	it("is a 404 for another account's or mode's order and for an item not in the order; a bad width is a 422", async () => {
		const { partner, key, file } = await partnerWithThumbnail();
		const order = await createOrder(key, orderBody(file));
		const item = order.items[0]?.id ?? "";
		const path = `/v1/orders/${order.id}/items/${item}/preview`;
		const stranger = await createPartner("Elsewhere");
		for (const other of [stranger.keys.live.key, partner.keys.test.key]) {
			expect((await expectError(await api(path, { key: other }), "not_found", "id")).code).toBe("order_not_found");
		}
		const missing = await api(`/v1/orders/${order.id}/items/itm_nope/preview`, { key });
		expect((await expectError(missing, "not_found", "item_id")).code).toBe("order_item_not_found");
		for (const width of ["abc", "199", "2001", "", "1e9"]) {
			await expectError(await api(`${path}?width_px=${width}`, { key }), "validation_error", "width_px");
		}
	});
});
