import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { THUMBNAIL_UNAVAILABLE_REASONS } from "../../src/print-files/thumbnail-store.ts";
import { thumbnailReasonWords } from "../../src/production/item-words.ts";
import { api } from "../helpers.ts";
import { createOrder, orderBody, settleValidation } from "../orders/order-helpers.ts";
import { orderWithThumbnail, partnerWithThumbnail } from "../thumbnails/thumbnail-helpers.ts";
import { consoleRequest, htmlOf, type Operator, signedInOperator, textOf } from "./console-helpers.ts";

let operator: Operator;
let partnerKey: string;
let fileId: string;
let orderId: string;
let itemId: string;
let otherOrderId: string;
let otherItemId: string;

/** The width and height a PNG's header gives. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
	expect([...bytes.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Asserts a private PNG and returns its size. */
async function privatePng(response: Response): Promise<{ width: number; height: number }> {
	expect(response.status).toBe(200);
	expect(response.headers.get("Content-Type")).toBe("image/png");
	expect(response.headers.get("Cache-Control")).toMatch(/^private\b/);
	return pngSize(new Uint8Array(await response.arrayBuffer()));
}

/** The `<img>` tag of the order page marked `data-<mark>-of` the item, or "" without one. */
function imageTag(html: string, mark: "preview" | "thumbnail", itemId: string): string {
	return new RegExp(`<img [^>]*data-${mark}-of="${itemId}"[^>]*>`).exec(html)?.[0] ?? "";
}

/** The images' two paths for an order's item. */
function imagePaths(order: string, item: string): string[] {
	return [`/ops/orders/${order}/items/${item}/thumbnail.png`, `/ops/orders/${order}/items/${item}/preview.png`];
}

beforeAll(async () => {
	operator = await signedInOperator();
	const made = await partnerWithThumbnail();
	partnerKey = made.key;
	fileId = made.file;
	const order = await createOrder(partnerKey, orderBody(fileId));
	orderId = order.id;
	itemId = order.items[0]?.id ?? "";
	expect((await settleValidation(partnerKey, orderId)).status).toBe("in_production");
	const other = await createOrder(partnerKey, orderBody(fileId));
	otherOrderId = other.id;
	otherItemId = other.items[0]?.id ?? "";
});

describe("GET /ops/orders/:id/items/:item/thumbnail.png", () => {
	it("serves the item's thumbnail to a signed-in operator as a private PNG, longest side 1024 px", async () => {
		const response = await consoleRequest(imagePaths(orderId, itemId)[0] ?? "", { cookie: operator.cookie });
		expect(await privatePng(response)).toEqual({ width: 819, height: 1024 });
		expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
	});
});

describe("GET /ops/orders/:id/items/:item/preview.png", () => {
	it("serves the item's framed preview at the width asked, as a private PNG showing the thumbnail", async () => {
		const response = await consoleRequest(`${imagePaths(orderId, itemId)[1]}?width_px=400`, {
			cookie: operator.cookie,
		});
		expect(response.headers.get("X-Preview-Image")).toBe("thumbnail");
		const size = await privatePng(response);
		expect(size.width).toBe(400);
		// The outside of an 8 × 10 in print in the default mat and frame is taller than wide.
		expect(size.height).toBeGreaterThan(400);
	});

	it("is the same PNG the partner's API route draws for the item, byte for byte", async () => {
		const fromConsole = await consoleRequest(`${imagePaths(orderId, itemId)[1]}?width_px=300`, {
			cookie: operator.cookie,
		});
		const fromApi = await api(`/v1/orders/${orderId}/items/${itemId}/preview?width_px=300`, { key: partnerKey });
		expect(new Uint8Array(await fromConsole.arrayBuffer())).toEqual(new Uint8Array(await fromApi.arrayBuffer()));
	});

	it.each(["abc", "199", "2001", "1e3x", "9".repeat(400), "-5"])(
		"refuses width_px=%s with a 422 page naming the allowed range",
		async (width) => {
			const response = await consoleRequest(`${imagePaths(orderId, itemId)[1]}?width_px=${width}`, {
				cookie: operator.cookie,
			});
			expect(textOf(await htmlOf(response, 422))).toContain("width_px must be a whole number from 200 to 2000");
		},
	);
});

describe("the console's item images, refused", () => {
	it("redirect to sign-in without a session, and never send the image", async () => {
		for (const path of imagePaths(orderId, itemId)) {
			const response = await consoleRequest(path);
			expect(response.status).toBe(303);
			expect(response.headers.get("Location")).toBe("/ops/sign-in");
			expect(response.headers.get("Content-Type")).not.toBe("image/png");
		}
	});

	it("do not open with a partner's or the ops API key instead of the session", async () => {
		for (const path of imagePaths(orderId, itemId)) {
			for (const key of [partnerKey, operator.key]) {
				const response = await consoleRequest(path, { headers: { Authorization: `Bearer ${key}` } });
				expect(response.status).toBe(303);
			}
		}
	});

	it("answer an item of another order with a 404 page, not the image", async () => {
		for (const path of imagePaths(orderId, otherItemId)) {
			const html = await htmlOf(await consoleRequest(path, { cookie: operator.cookie }), 404);
			expect(textOf(html)).toContain(`Order ${orderId} has no item ${otherItemId}.`);
		}
		expect(otherOrderId).not.toBe(orderId);
	});

	it("answer an unknown order with a 404 page", async () => {
		for (const path of imagePaths("ord_nope", itemId)) {
			expect(textOf(await htmlOf(await consoleRequest(path, { cookie: operator.cookie }), 404))).toContain(
				"There is no order ord_nope.",
			);
		}
	});

	it("never serve another account's file: an item naming one (written past the API's checks) gets 404 pages", async () => {
		const stranger = await orderWithThumbnail("ready");
		const own = await orderWithThumbnail("ready");
		await env.DB.prepare("UPDATE order_items SET print_file_id = ?1 WHERE id = ?2")
			.bind(stranger.file, own.itemId)
			.run();
		const [thumbnail = "", preview = ""] = imagePaths(own.orderId, own.itemId);
		expect(textOf(await htmlOf(await consoleRequest(thumbnail, { cookie: operator.cookie }), 404))).toContain(
			`Item ${own.itemId} has no print file yet, so no thumbnail.`,
		);
		expect(textOf(await htmlOf(await consoleRequest(preview, { cookie: operator.cookie }), 404))).toContain(
			`No print file ${stranger.file}.`,
		);
	});

	it("answer a 409 page saying the thumbnail is being made while it is pending", async () => {
		const pending = await orderWithThumbnail("pending");
		for (const path of imagePaths(pending.orderId, pending.itemId)) {
			const html = await htmlOf(await consoleRequest(path, { cookie: operator.cookie }), 409);
			expect(textOf(html)).toContain("is still being made");
		}
	});

	it("answer a thumbnail that will never be made with a 404 page giving the reason; the preview draws a placeholder", async () => {
		const { orderId: order, itemId: item, file } = await orderWithThumbnail("unavailable");
		const [thumbnail = "", preview = ""] = imagePaths(order, item);
		const html = await htmlOf(await consoleRequest(thumbnail, { cookie: operator.cookie }), 404);
		expect(textOf(html)).toContain(`Print file ${file} has no thumbnail (corrupt).`);
		const response = await consoleRequest(preview, { cookie: operator.cookie });
		expect(response.headers.get("X-Preview-Image")).toBe("placeholder");
		expect(response.headers.get("X-Preview-Placeholder-Reason")).toBe("corrupt");
		await privatePng(response);
	});
});

describe("GET /ops/orders/:id, the items' images", () => {
	it("shows each item's framed preview and thumbnail from the console's routes, with width, height and alt text, under a policy allowing this origin's images", async () => {
		const response = await consoleRequest(`/ops/orders/${orderId}`, { cookie: operator.cookie });
		const html = await htmlOf(response, 200);
		expect(response.headers.get("Content-Security-Policy")).toContain("img-src 'self' data:");
		const preview = imageTag(html, "preview", itemId);
		expect(preview).toContain(`src="/ops/orders/${orderId}/items/${itemId}/preview.png?width_px=400"`);
		expect(preview).toContain('width="200"');
		expect(preview).toMatch(/height="(2[0-9][0-9]|3[0-9][0-9])"/);
		expect(preview).toMatch(
			/alt="Framed preview of Item 1 of 1 · 8 × 10 in: the finished piece drawn to scale, [^"]+"/,
		);
		const thumbnail = imageTag(html, "thumbnail", itemId);
		expect(thumbnail).toContain(`src="/ops/orders/${orderId}/items/${itemId}/thumbnail.png"`);
		// The 819 × 1024 px thumbnail, its longest side shown 160 px.
		expect(thumbnail).toContain('width="128"');
		expect(thumbnail).toContain('height="160"');
		expect(thumbnail).toContain(
			'alt="Thumbnail of the print file of Item 1 of 1 · 8 × 10 in: the whole image, uncropped."',
		);
	});

	it("says in words that the thumbnail is being made, and shows no image that would break, while it is pending", async () => {
		const pending = await orderWithThumbnail("pending");
		const html = await htmlOf(await consoleRequest(`/ops/orders/${pending.orderId}`, { cookie: operator.cookie }), 200);
		expect(imageTag(html, "preview", pending.itemId)).toBe("");
		expect(imageTag(html, "thumbnail", pending.itemId)).toBe("");
		const text = textOf(html);
		expect(text).toContain("Thumbnail being made.");
		expect(text).toContain("The preview follows the file's thumbnail, which is being made.");
	});

	it("gives the reason a thumbnail will never be made in words, and still shows the framed preview with its placeholder", async () => {
		const unavailable = await orderWithThumbnail("unavailable");
		const html = await htmlOf(
			await consoleRequest(`/ops/orders/${unavailable.orderId}`, { cookie: operator.cookie }),
			200,
		);
		expect(imageTag(html, "thumbnail", unavailable.itemId)).toBe("");
		expect(imageTag(html, "preview", unavailable.itemId)).not.toBe("");
		const text = textOf(html);
		expect(text).toContain("No thumbnail: the file's image data is damaged.");
		expect(text).toContain("a grey placeholder stands for the image (no thumbnail)");
	});

	it("has words for every reason a thumbnail can be unavailable", () => {
		for (const reason of THUMBNAIL_UNAVAILABLE_REASONS)
			expect(thumbnailReasonWords(reason)).not.toContain("reason given");
		expect(thumbnailReasonWords("something_new")).toBe('the reason given is "something_new"');
	});
});
