/** The `claim` entry of `GET /v1/orders/{id}/actions`: the claim time rules, said beforehand. */
import { describe, expect, it } from "vitest";
import type { Availability } from "../../src/orders/order-actions.ts";
import { api } from "../helpers.ts";
import { ageShipment, damagedBody, postClaimOk, shippedOrder } from "./claim-helpers.ts";

async function claimActionOf(key: string, orderId: string): Promise<Availability> {
	const response = await api(`/v1/orders/${orderId}/actions`, { key });
	expect(response.status).toBe(200);
	return ((await response.json()) as { claim: Availability }).claim;
}

describe("GET /v1/orders/{id}/actions: claim", () => {
	it("a shipment in transit under 5 days cannot be claimed yet, and the reason says when loss may be claimed", async () => {
		const { key, order } = await shippedOrder(1);
		const action = await claimActionOf(key, order.id);
		expect(action).toMatchObject({ available: false, until: null });
		expect(action.reason).toContain("5 days");
		expect(action.reason).toContain("not delivered yet");
	});

	it("a shipment undelivered 5 days after it shipped may be claimed as lost, with no end while it is undelivered", async () => {
		const { key, order, shipment } = await shippedOrder(1);
		await ageShipment(shipment.id, 5);
		expect(await claimActionOf(key, order.id)).toEqual({ available: true, until: null, reason: null });
	});

	it("a delivered shipment may be claimed until 30 days after its delivery, and not after", async () => {
		const { key, order, shipment, opsKey } = await shippedOrder(1);
		const delivered = await api(`/v1/ops/shipments/${shipment.id}/deliver`, { method: "POST", key: opsKey });
		const { delivered_at: deliveredAt } = (await delivered.json()) as { delivered_at: string };
		const open = await claimActionOf(key, order.id);
		expect(open.available).toBe(true);
		expect(Date.parse(open.until ?? "") - Date.parse(deliveredAt)).toBe(30 * 24 * 60 * 60 * 1000);
		await ageShipment(shipment.id, 31);
		const late = await claimActionOf(key, order.id);
		expect(late.available).toBe(false);
		expect(late.reason).toContain("30 days after delivery");
	});

	it("once every shipped unit is in a claim, the action is closed and says so", async () => {
		const { key, order, shipment, opsKey, itemId, photo } = await shippedOrder(1);
		await api(`/v1/ops/shipments/${shipment.id}/deliver`, { method: "POST", key: opsKey });
		await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		expect(await claimActionOf(key, order.id)).toEqual({
			available: false,
			until: null,
			reason: "Every shipped unit is in a claim already.",
		});
	});
});
