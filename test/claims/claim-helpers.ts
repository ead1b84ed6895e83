import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { Claim } from "../../src/claims/schema.ts";
import type { ErrorCode, ErrorType } from "../../src/error-catalog.ts";
import type { ErrorEnvelope } from "../../src/http/errors.ts";
import type { Order } from "../../src/orders/response.ts";
import { api, send } from "../helpers.ts";
import { createOrder, orderBody, partnerWithFile, settleValidation, TRACKING } from "../orders/order-helpers.ts";
import { smallPng, uploadedFile } from "../print-files/upload-helpers.ts";

type Shipment = Order["shipments"][number];

/** A live order of `quantity` framed units, all shipped in one shipment, with the partner's key, an ops key and a photo. */
export async function shippedOrder(quantity = 2) {
	const made = await partnerWithFile({ opsKey: true });
	const created = await createOrder(made.key, orderBody(made.file, {}, { quantity }));
	const order = await settleValidation(made.key, created.id);
	expect(order.status).toBe("in_production");
	const response = await send("POST", `/v1/ops/orders/${order.id}/shipments`, made.opsKey, { ...TRACKING });
	if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${await response.text()}`);
	const shipment = (await response.json()) as Shipment;
	const photo = await uploadedFile(made.key, smallPng(48, 36));
	return { ...made, order, shipment, itemId: order.items[0]?.id ?? "", photo };
}

/** As shippedOrder, its shipment delivered. */
export async function deliveredOrder(quantity = 2) {
	const shipped = await shippedOrder(quantity);
	const delivered = await api(`/v1/ops/shipments/${shipped.shipment.id}/deliver`, {
		method: "POST",
		key: shipped.opsKey,
	});
	expect(delivered.status).toBe(200);
	return shipped;
}

/** Moves a shipment's shipping and delivery times `days` into the past, as if the clock had moved on. */
export async function ageShipment(shipmentId: string, days: number): Promise<void> {
	const shift = `-${days * 24 * 60} minutes`;
	await env.DB.prepare(
		`UPDATE shipments SET shipped_at = strftime('%Y-%m-%dT%H:%M:%fZ', shipped_at, ?2),
		   delivered_at = CASE WHEN delivered_at IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', delivered_at, ?2) END
		 WHERE id = ?1`,
	)
		.bind(shipmentId, shift)
		.run();
}

/** POST /v1/orders/{id}/claims. */
export function postClaim(key: string, orderId: string, body: unknown): Promise<Response> {
	return send("POST", `/v1/orders/${orderId}/claims`, key, body);
}

/** A claim that must be created: the 201's body. */
export async function postClaimOk(key: string, orderId: string, body: unknown): Promise<Claim> {
	const response = await postClaim(key, orderId, body);
	if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${await response.text()}`);
	return (await response.json()) as Claim;
}

/** A damaged_in_transit claim body for `quantity` units of `itemId` with `photos`. */
export function damagedBody(itemId: string, quantity: number, photos: string[]) {
	return {
		reason: "damaged_in_transit",
		items: [{ item_id: itemId, quantity }],
		description: "The glass arrived cracked across the top left corner.",
		photo_file_ids: photos,
	};
}

/** Asserts that `response` is the error envelope with this status, type and code; returns the error. */
export async function expectCode(
	response: Response,
	status: number,
	type: ErrorType,
	code: ErrorCode,
): Promise<ErrorEnvelope["error"]> {
	const text = await response.text();
	expect(response.status, text).toBe(status);
	const { error } = JSON.parse(text) as ErrorEnvelope;
	expect(error.type).toBe(type);
	expect(error.code).toBe(code);
	expect(error.request_id).toBe(response.headers.get("X-Request-Id"));
	return error;
}
