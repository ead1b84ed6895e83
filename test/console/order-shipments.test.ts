import { describe, expect, it } from "vitest";
import { send } from "../helpers.ts";
import { createOrder, orderBody, partnerWithFile, settleValidation, TRACKING } from "../orders/order-helpers.ts";
import { consoleRequest, htmlOf, signedInOperator, textOf } from "./console-helpers.ts";

/** The inner HTML of the section headed `heading`, or null when the page has none. */
function sectionOf(html: string, heading: string): string | null {
	const start = html.indexOf(`>${heading}</h2>`);
	if (start < 0) return null;
	return html.slice(start, html.indexOf("</section>", start));
}

/** A live order in production of three framed units (one item), its id and external id. */
async function threeUnits(): Promise<{ id: string; externalId: string; itemId: string }> {
	const { key, file } = await partnerWithFile({ name: "Shipments Gallery" });
	const created = await createOrder(key, orderBody(file, {}, { quantity: 3 }));
	expect((await settleValidation(key, created.id)).status).toBe("in_production");
	return { id: created.id, externalId: created.external_id, itemId: created.items[0]?.id ?? "" };
}

describe("the console's shipments", () => {
	it("the order page lists no shipments before the first, then each label with its units, boxes and status", async () => {
		const operator = await signedInOperator();
		const order = await threeUnits();
		const before = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		expect(sectionOf(before, "Shipments")).toBeNull();

		const body = { ...TRACKING, items: [{ item_id: order.itemId, quantity: 2 }] };
		const shipped = await send("POST", `/v1/ops/orders/${order.id}/shipments`, operator.key, body);
		expect(shipped.status).toBe(201);
		const page = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		const section = sectionOf(page, "Shipments") ?? "";
		const text = textOf(section);
		expect(text).toContain("2 of 3 units shipped, 0 delivered.");
		expect(text).toContain(`UPS ${TRACKING.number}`);
		expect(text).toMatch(/2 × Item 1 of 1 · 8 × 10 in/);
		expect(text).toContain("In transit");
		expect(section).toContain(`href="${TRACKING.url}"`);
	});

	it("the queue shows how many of an order's units have shipped while it is in production", async () => {
		const operator = await signedInOperator();
		const order = await threeUnits();
		const queuePage = () =>
			consoleRequest(`/ops/orders?q=${order.id}`, { cookie: operator.cookie }).then((response) =>
				htmlOf(response, 200),
			);
		expect(textOf(await queuePage())).not.toContain("of 3 shipped");
		const body = { ...TRACKING, items: [{ item_id: order.itemId, quantity: 2 }] };
		expect((await send("POST", `/v1/ops/orders/${order.id}/shipments`, operator.key, body)).status).toBe(201);
		expect(textOf(await queuePage())).toContain("2 of 3 shipped");
		// Shipped whole, the status says it all.
		const rest = { carrier: "FedEx", number: "794644790132" };
		expect((await send("POST", `/v1/ops/orders/${order.id}/shipments`, operator.key, rest)).status).toBe(201);
		expect(textOf(await queuePage())).not.toContain("of 3 shipped");
	});
});
