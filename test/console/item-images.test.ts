/**
 * An item's thumbnail and framed preview in the console, behind the session: the PNGs themselves, and
 * every way they are refused (no session, a partner's key, another order's item, a thumbnail still
 * being made or never to be, a bad width), each as a console page and never a 500.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers.ts";
import { createOrder, orderBody, settleValidation } from "../orders/order-helpers.ts";
import { partnerWithThumbnail } from "../previews/preview-helpers.ts";
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

	it("answer a 409 page saying the thumbnail is being made while it is pending", async () => {
		const { key, file } = await partnerWithThumbnail();
		const pending = await createOrder(key, orderBody(file));
		const pendingItem = pending.items[0]?.id ?? "";
		await env.DB.prepare("UPDATE print_files SET thumbnail_status = NULL WHERE id = ?1").bind(file).run();
		for (const path of imagePaths(pending.id, pendingItem)) {
			const html = await htmlOf(await consoleRequest(path, { cookie: operator.cookie }), 409);
			expect(textOf(html)).toContain("is still being made");
		}
	});

	it("answer a thumbnail that will never be made with a 404 page giving the reason; the preview draws a placeholder", async () => {
		const { key, file } = await partnerWithThumbnail();
		const order = await createOrder(key, orderBody(file));
		const item = order.items[0]?.id ?? "";
		await env.DB.prepare(
			"UPDATE print_files SET thumbnail_status = 'unavailable', thumbnail_reason = 'unsupported_variant' WHERE id = ?1",
		)
			.bind(file)
			.run();
		const [thumbnail = "", preview = ""] = imagePaths(order.id, item);
		const html = await htmlOf(await consoleRequest(thumbnail, { cookie: operator.cookie }), 404);
		expect(textOf(html)).toContain(`Print file ${file} has no thumbnail (unsupported_variant).`);
		const response = await consoleRequest(preview, { cookie: operator.cookie });
		expect(response.headers.get("X-Preview-Image")).toBe("placeholder");
		expect(response.headers.get("X-Preview-Placeholder-Reason")).toBe("unsupported_variant");
		await privatePng(response);
	});
});
