/**
 * The account's choice for CMYK print files, as validation applies it: `hold` holds an order whose item's
 * file the headers say is CMYK (`cmyk_file`), until the item is fixed; `convert` lets it go on; a file
 * whose colour is not known never holds. The CMYK file is a real JPEG whose frame header says four
 * components (what the inspection reads as CMYK), its size claimed in the header as the PNGs' are.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { api, createKeyWithScopes, createPartner, expectError, send } from "../helpers.ts";
import { encodeJpeg, findSegment, withComponents } from "../imaging/fixtures/jpeg.ts";
import { partnerFileServer } from "../print-files/file-hosting.ts";
import { sharpPng, uploadedFile, uploadImage } from "../print-files/upload-helpers.ts";
import {
	createOrder,
	eventBody,
	eventTypes,
	opsMove,
	orderBody,
	readOrder,
	settleValidation,
	urlOrderBody,
} from "./order-helpers.ts";

const { hostFile } = partnerFileServer("cmyk-hold");

/** A real JPEG with a four-component (CMYK) frame header claiming 2400 × 3000 px: 300 DPI at 8 × 10 in. */
function cmykJpeg(): Uint8Array {
	const bytes = withComponents(encodeJpeg(16, 16), 4);
	const frame = new DataView(bytes.buffer, bytes.byteOffset + findSegment(bytes, 0xc0).at);
	frame.setUint16(5, 3000);
	frame.setUint16(7, 2400);
	return bytes;
}

/** Uploads the CMYK JPEG as a print file of `key`'s account and mode; its id, its colour facts checked to say CMYK. */
async function cmykFile(key: string): Promise<string> {
	const id = await uploadImage(key, cmykJpeg(), "image/jpeg");
	// Reading the file finishes its inspection.
	expect(((await (await api(`/v1/print-files/${id}`, { key })).json()) as { status: string }).status).toBe("ready");
	const row = await env.DB.prepare("SELECT colour_facts FROM print_files WHERE id = ?1")
		.bind(id)
		.first<{ colour_facts: string | null }>();
	expect(JSON.parse(row?.colour_facts ?? "null")).toMatchObject({ model: "cmyk" });
	return id;
}

/** Sets the account's choice for CMYK files through the API. */
async function chooseCmykFiles(key: string, choice: "convert" | "hold"): Promise<void> {
	const response = await send("PATCH", "/v1/account/print-settings", key, { cmyk_files: choice });
	expect(response.status).toBe(200);
}

/** An order of `key` with one item of `fileId`, validated. */
async function validatedOrder(key: string, fileId: string): Promise<Order> {
	const created = await createOrder(key, orderBody(fileId));
	return settleValidation(key, created.id);
}

/** PATCH the order's first item and let validation run; the order after it. */
async function fixFirstItem(key: string, order: Order, body: unknown): Promise<Order> {
	const response = await send("PATCH", `/v1/orders/${order.id}/items/${order.items[0]?.id ?? ""}`, key, body);
	expect(response.status).toBe(200);
	expect(((await response.json()) as Order).status).toBe("validating");
	return settleValidation(key, order.id);
}

describe("validation of an item whose print file is CMYK", () => {
	it("with cmyk_files hold, holds the order for cmyk_file on the item's file, with what to do (not the cmyk_converted warning); the floor cannot release it", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		await chooseCmykFiles(key, "hold");
		const order = await validatedOrder(key, await cmykFile(key));
		expect(order.status).toBe("on_hold");
		expect(order.hold_reason).toBe("cmyk_file");
		expect(order.items[0]?.warnings).not.toContain("cmyk_converted");
		expect(order.hold_details).toEqual([
			{
				item_id: order.items[0]?.id,
				field: "print_file_id",
				code: "cmyk_file",
				message: expect.stringContaining("The print file is CMYK"),
			},
		]);
		const message = order.hold_details[0]?.message ?? "";
		expect(message).toContain("RGB file (sRGB, or Adobe RGB with its profile embedded)");
		expect(message).toContain('"convert"');
		expect(await eventBody(order.id, "order.on_hold")).toMatchObject({
			event: "order.on_hold",
			hold_reason: "cmyk_file",
			hold_details: order.hold_details,
		});
		const opsKey = await createKeyWithScopes(["ops"]);
		const release = await expectError(await opsMove(opsKey, order.id, "release"), "conflict");
		expect(release.code).toBe("hold_needs_partner_fix");
	});

	it("with cmyk_files hold, holds a test order too, and a file fetched from print_file_url on that field", async () => {
		const partner = await createPartner();
		await chooseCmykFiles(partner.keys.live.key, "hold");
		const testKey = partner.keys.test.key;
		const testOrder = await validatedOrder(testKey, await cmykFile(testKey));
		expect(testOrder.hold_reason).toBe("cmyk_file");
		const key = partner.keys.live.key;
		const created = await createOrder(key, urlOrderBody(await hostFile(cmykJpeg(), "print.jpg"), "CMYK"));
		const fetched = await settleValidation(key, created.id);
		expect(fetched.status).toBe("on_hold");
		expect(fetched.hold_details).toMatchObject([{ field: "print_file_url", code: "cmyk_file" }]);
	});

	it("with cmyk_files convert (the default), the order goes on to production, the item warned cmyk_converted", async () => {
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key, await cmykFile(key));
		expect(order.status).toBe("in_production");
		expect(order.hold_reason).toBeNull();
		expect(order.items[0]?.warnings).toContain("cmyk_converted");
	});

	it("a file whose colour is not known (none recorded, or facts that do not read) never holds", async () => {
		const key = (await createPartner()).keys.live.key;
		await chooseCmykFiles(key, "hold");
		for (const stored of [null, '{"model": "cmyk"', '{"model": "cmyk"}', "[]"]) {
			const fileId = await cmykFile(key);
			await env.DB.prepare("UPDATE print_files SET colour_facts = ?2 WHERE id = ?1").bind(fileId, stored).run();
			const order = await validatedOrder(key, fileId);
			expect(order.status, String(stored)).toBe("in_production");
		}
	});

	it("a fix with an RGB file releases the held order to production", async () => {
		const key = (await createPartner()).keys.live.key;
		await chooseCmykFiles(key, "hold");
		const order = await validatedOrder(key, await cmykFile(key));
		expect(order.hold_reason).toBe("cmyk_file");
		const rgb = await uploadedFile(key, sharpPng());
		const fixed = await fixFirstItem(key, order, { print_file_id: rgb });
		expect(fixed.status).toBe("in_production");
		expect(fixed.items[0]?.print_file_id).toBe(rgb);
		expect(await eventTypes(order.id)).toEqual([
			"order.received",
			"order.on_hold",
			"order.updated",
			"order.in_production",
		]);
	});

	it("a change of the setting moves no order: a held order waits for its fix (the same file, now converted), a validated one stays", async () => {
		const key = (await createPartner()).keys.live.key;
		const goesOn = await validatedOrder(key, await cmykFile(key));
		expect(goesOn.status).toBe("in_production");
		await chooseCmykFiles(key, "hold");
		const cmyk = await cmykFile(key);
		const held = await validatedOrder(key, cmyk);
		expect(held.hold_reason).toBe("cmyk_file");
		// Fixed with the same CMYK file while the setting still holds: held again.
		expect((await fixFirstItem(key, held, { print_file_id: cmyk })).hold_reason).toBe("cmyk_file");
		await chooseCmykFiles(key, "convert");
		expect((await readOrder(key, held.id)).status).toBe("on_hold");
		expect((await readOrder(key, goesOn.id)).status).toBe("in_production");
		const converted = await fixFirstItem(key, held, { print_file_id: cmyk });
		expect(converted.status).toBe("in_production");
		expect(converted.items[0]?.print_file_id).toBe(cmyk);
	});
});
