import { describe, expect, it } from "vitest";
import { api } from "../helpers.ts";
import { createOrder, orderBody, partnerWithFile, settleValidation, TRACKING } from "../orders/order-helpers.ts";

type EventPage = { data: Array<{ id: string; type: string }>; next_cursor: string | null };

async function page(key: string, query: string): Promise<EventPage> {
	const response = await api(`/v1/events?${query}`, { key });
	expect(response.status).toBe(200);
	return (await response.json()) as EventPage;
}

describe("GET /v1/events: events written in one batch are listed in the order they were written", () => {
	it("a ship's shipment.created and order.shipped are always listed newest first as order.shipped, then shipment.created, page by page too", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const orders: string[] = [];
		for (let index = 0; index < 8; index++) {
			const created = await createOrder(made.key, orderBody(made.file));
			await settleValidation(made.key, created.id);
			const shipped = await api(`/v1/ops/orders/${created.id}/shipments`, {
				method: "POST",
				key: made.opsKey,
				body: JSON.stringify(TRACKING),
			});
			expect(shipped.status).toBe(201);
			orders.push(created.id);
		}
		for (const orderId of orders) {
			const types = (await page(made.key, `order_id=${orderId}`)).data.map((event) => event.type);
			expect(types.slice(0, 2), orderId).toEqual(["order.shipped", "shipment.created"]);
			// One event a page: the cursor between the two keeps the same order.
			const first = await page(made.key, `order_id=${orderId}&limit=1`);
			expect(first.data.map((event) => event.type)).toEqual(["order.shipped"]);
			const second = await page(made.key, `order_id=${orderId}&limit=1&cursor=${first.next_cursor ?? ""}`);
			expect(second.data.map((event) => event.type)).toEqual(["shipment.created"]);
		}
		const all = (await page(made.key, "limit=100")).data.map((event) => event.type);
		expect(all.filter((type) => type === "order.shipped" || type === "shipment.created")).toEqual(
			orders.flatMap(() => ["order.shipped", "shipment.created"]),
		);
	});
});
