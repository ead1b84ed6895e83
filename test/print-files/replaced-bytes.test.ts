/**
 * The bytes that are checked are the bytes that are printed: a file's object in R2 replaced after
 * its inspection (as a presigned URL used twice once allowed) is noticed by every later use.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LOGO_MAX_BYTES } from "../../src/branding/schema.ts";
import type { Order } from "../../src/orders/response.ts";
import { findOrder } from "../../src/orders/store.ts";
import { validateOrder } from "../../src/orders/validate-order.ts";
import { findPrintFileById } from "../../src/print-files/store.ts";
import { putProfile } from "../branding/branding-helpers.ts";
import { api, createKeyWithScopes, createPartner, expectError, send } from "../helpers.ts";
import { encodePng } from "../imaging/fixtures/png.ts";
import {
	createOrder,
	eventBody,
	orderBody,
	partnerWithFile,
	readOrder,
	readyFile,
	settleValidation,
} from "../orders/order-helpers.ts";
import { pngClaiming, uploadImage } from "./upload-helpers.ts";

/** Puts other bytes under the file's R2 key, behind the service's back (what a second presigned PUT did). */
async function replaceBytes(fileId: string, bytes: Uint8Array): Promise<void> {
	const file = await findPrintFileById(env.DB, fileId);
	if (file === null) throw new Error(`no print file ${fileId}`);
	await env.PRINT_FILES.put(file.r2_key, bytes);
}

/** A 4000 × 4000 px PNG header: enough pixels for any size, were it believed. */
const BIG_PNG = () => pngClaiming(4000, 4000);

// partnerWithFile's file is 2400 × 3000 px: 300 DPI at 8 × 10 in, too few for 40 × 40 in.

describe("print files replaced in R2 after their inspection", () => {
	it("pins the inspected object: the file records R2's etag of the bytes it judged", async () => {
		const { file } = await partnerWithFile();
		const row = await findPrintFileById(env.DB, file);
		const head = await env.PRINT_FILES.head(row?.r2_key ?? "");
		expect(row?.r2_etag).toBe(head?.etag);
		expect(row?.size_bytes).toBe(head?.size);
	});

	it("a file whose bytes were replaced is invalid (file_changed) when next read", async () => {
		const { key, file } = await partnerWithFile();
		await replaceBytes(file, BIG_PNG());
		const response = await api(`/v1/print-files/${file}`, { key });
		expect(response.status).toBe(200);
		expect(await response.json()).toMatchObject({ status: "invalid", invalid_reason: "file_changed" });
	});

	it("a file whose bytes were removed from R2 is invalid (file_changed) too", async () => {
		const { key, file } = await partnerWithFile();
		const row = await findPrintFileById(env.DB, file);
		await env.PRINT_FILES.delete(row?.r2_key ?? "");
		expect(await (await api(`/v1/print-files/${file}`, { key })).json()).toMatchObject({
			status: "invalid",
			invalid_reason: "file_changed",
		});
	});

	it("creating an order with a replaced file is a 422 on print_file_id, not an order at the old pixel size", async () => {
		const { key, file } = await partnerWithFile();
		await replaceBytes(file, BIG_PNG());
		const response = await send("POST", "/v1/orders", key, orderBody(file));
		const error = await expectError(response, "validation_error", "items[0].print_file_id");
		expect(error.message).toMatch(/file_changed/);
	});

	it("validation of an order whose file was replaced after creation puts it on hold (file_unreadable)", async () => {
		const { key, file } = await partnerWithFile();
		const created = await createOrder(key, orderBody(file));
		await replaceBytes(file, BIG_PNG());
		const stored = await findOrder(env.DB, created.id, env.PRINT_FILES);
		if (stored === null) throw new Error("order not stored");
		const { verdict } = await validateOrder(env, stored);
		expect(verdict).toMatchObject({ kind: "fail", holdReason: "file_unreadable" });
		if (verdict.kind !== "fail") throw new Error("expected a failed verdict");
		expect(verdict.holdDetails[0]?.message).toMatch(/replaced after it was checked/);
		expect((await findPrintFileById(env.DB, file))?.invalid_reason).toBe("file_changed");
	});

	it("the floor's view of an order in production puts it on hold when a file's bytes changed", async () => {
		const { key, file } = await partnerWithFile();
		const opsKey = await createKeyWithScopes(["ops"]);
		const created = await createOrder(key, orderBody(file, { callback_url: "https://hooks.partner.example/ok/x" }));
		expect((await settleValidation(key, created.id)).status).toBe("in_production");
		await replaceBytes(file, BIG_PNG());

		const view = await api(`/v1/ops/orders/${created.id}`, { key: opsKey });
		expect(view.status).toBe(200);
		const order: Order = await readOrder(key, created.id);
		expect(order.status).toBe("on_hold");
		expect(order.hold_reason).toBe("file_unreadable");
		expect(order.hold_details[0]).toMatchObject({ item_id: order.items[0]?.id, field: "print_file_id" });
		expect(await eventBody(created.id, "order.on_hold")).toMatchObject({ hold_reason: "file_unreadable" });
		// The floor cannot ship it until the partner fixes the item.
		const ship = await send("POST", `/v1/ops/orders/${created.id}/ship`, opsKey, {
			carrier: "UPS",
			number: "1Z999AA10123456784",
			url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
		});
		await expectError(ship, "conflict");
	});

	it("a packing slip leaves out a logo whose bytes were replaced, and never reads more than the logo cap", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const opsKey = await createKeyWithScopes(["ops"]);
		const file = await readyFile(key, 2400, 3000);
		const logo = await uploadImage(key, encodePng(40, 20), "image/png");
		await putProfile(key, { brand_name: "Lumen Prints", logo_print_file_id: logo });
		const order = await createOrder(key, orderBody(file));
		const before = await (await api(`/v1/ops/orders/${order.id}/packing-slip`, { key: opsKey })).text();
		expect(before).toContain("data:image/png;base64,");

		// 16 MB behind the logo's key: the slip must not inline it.
		const huge = new Uint8Array(4 * LOGO_MAX_BYTES);
		huge.set(encodePng(40, 20));
		await replaceBytes(logo, huge);
		const slip = await api(`/v1/ops/orders/${order.id}/packing-slip`, { key: opsKey });
		expect(slip.status).toBe(200);
		const html = await slip.text();
		expect(html).not.toContain("data:image/png;base64,");
		expect(html.length).toBeLessThan(64 * 1024);
		expect((await findPrintFileById(env.DB, logo))?.invalid_reason).toBe("file_changed");
	});
});
