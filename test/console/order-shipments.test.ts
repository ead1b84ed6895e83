import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { send } from "../helpers.ts";
import {
	createOrder,
	eventsOf,
	orderBody,
	partnerWithFile,
	readOrder,
	settleValidation,
	TRACKING,
} from "../orders/order-helpers.ts";
import {
	alertOf,
	consoleRequest,
	expectRedirect,
	htmlOf,
	type Operator,
	postForm,
	signedInOperator,
	statusMessageOf,
	textOf,
} from "./console-helpers.ts";

/** The inner HTML of the section headed `heading`, or null when the page has none. */
function sectionOf(html: string, heading: string): string | null {
	const start = html.indexOf(`>${heading}</h2>`);
	if (start < 0) return null;
	return html.slice(start, html.indexOf("</section>", start));
}

/** A live order in production of three framed units (one item), its id and external id. */
async function threeUnits(): Promise<{ id: string; externalId: string; itemId: string; key: string }> {
	const { key, file } = await partnerWithFile({ name: "Shipments Gallery" });
	const created = await createOrder(key, orderBody(file, {}, { quantity: 3 }));
	expect((await settleValidation(key, created.id)).status).toBe("in_production");
	return { id: created.id, externalId: created.external_id, itemId: created.items[0]?.id ?? "", key };
}

/** Posts the order page's shipment form: the units of the order's one item, and the label. */
function postShipment(
	operator: Operator,
	orderId: string,
	fields: Record<string, string>,
	headers: Record<string, string> = {},
): Promise<Response> {
	return postForm(
		`/ops/orders/${orderId}/shipments`,
		{ _csrf: operator.csrf, ...fields },
		{
			cookie: operator.cookie,
			headers,
		},
	);
}

/** The order's shipments as its partner reads them. */
async function shipmentsOf(key: string, orderId: string): Promise<Order["shipments"]> {
	return (await readOrder(key, orderId)).shipments;
}

describe("the console's shipments", () => {
	it("the order page lists no shipments before the first (only the form), then each label with its units, boxes and status", async () => {
		const operator = await signedInOperator();
		const order = await threeUnits();
		const before = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		expect(sectionOf(before, "Shipments")).not.toContain("data-shipment-id");

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

describe("the order page's shipment forms", () => {
	it("records a shipment of the units chosen, then the rest: the order ships with the first label", async () => {
		const operator = await signedInOperator();
		const order = await threeUnits();
		const page = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		const section = textOf(sectionOf(page, "Shipments") ?? "");
		expect(section).toContain("0 of 3 units shipped");
		expect(section).toContain("Item 1 of 1 · 8 × 10 in (3 left)");

		const first = await postShipment(operator, order.id, { [`units.${order.itemId}`]: "1", ...TRACKING });
		expectRedirect(first, `/ops/orders/${order.id}?done=shipment`);
		const after = await htmlOf(
			await consoleRequest(`/ops/orders/${order.id}?done=shipment`, { cookie: operator.cookie }),
			200,
		);
		expect(statusMessageOf(after)).toBe("Shipment recorded.");
		expect(textOf(sectionOf(after, "Shipments") ?? "")).toContain("(2 left)");
		expect(await shipmentsOf(order.key, order.id)).toHaveLength(1);

		const rest = { [`units.${order.itemId}`]: "2", carrier: "FedEx", number: "794644790132", url: "" };
		expectRedirect(await postShipment(operator, order.id, rest), `/ops/orders/${order.id}?done=shipment`);
		const shipped = await readOrder(order.key, order.id);
		expect(shipped.status).toBe("shipped");
		expect(shipped.tracking?.number).toBe(TRACKING.number);
		expect(shipped.shipments.map((shipment) => shipment.items[0]?.quantity)).toEqual([1, 2]);
		// Shipped whole: no form left, only the shipments and their buttons.
		const done = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		expect(done).not.toContain(`action="/ops/orders/${order.id}/shipments"`);
	});

	it("the same label scanned again ships nothing more and says so", async () => {
		const operator = await signedInOperator();
		const order = await threeUnits();
		const fields = { [`units.${order.itemId}`]: "1", ...TRACKING };
		expectRedirect(await postShipment(operator, order.id, fields), `/ops/orders/${order.id}?done=shipment`);
		const before = (await eventsOf(order.id)).length;
		expectRedirect(await postShipment(operator, order.id, fields), `/ops/orders/${order.id}?done=shipment_repeat`);
		expect(await shipmentsOf(order.key, order.id)).toHaveLength(1);
		expect((await eventsOf(order.id)).length).toBe(before);
	});

	it("over-shipping, zero units and a bad label come back as a 422 page naming the field, keeping what was typed; nothing ships", async () => {
		const operator = await signedInOperator();
		const order = await threeUnits();
		const unitsField = `units.${order.itemId}`;

		const over = await htmlOf(await postShipment(operator, order.id, { [unitsField]: "4", ...TRACKING }), 422);
		expect(alertOf(over)).toMatch(/has 3 units left to ship; 4 asked/);
		expect(over).toMatch(new RegExp(`id="units-${order.itemId}-error"`));
		expect(over).toContain(`value="${TRACKING.number}"`);

		const zero = await htmlOf(await postShipment(operator, order.id, { [unitsField]: "0", ...TRACKING }), 422);
		expect(alertOf(zero)).toContain("Choose at least one unit to ship.");

		const words = await htmlOf(await postShipment(operator, order.id, { [unitsField]: "two", ...TRACKING }), 422);
		expect(alertOf(words)).toContain("Units must be a whole number");

		const noUrl = { [unitsField]: "1", carrier: "Local Courier", number: "A1" };
		const label = await htmlOf(await postShipment(operator, order.id, noUrl), 422);
		expect(label).toContain('id="shipment-url-error"');

		const other = await htmlOf(await postShipment(operator, order.id, { "units.itm_nope": "1", ...TRACKING }), 422);
		expect(alertOf(other)).toContain("itm_nope is not an item of this order");
		expect(await shipmentsOf(order.key, order.id)).toEqual([]);
	});

	it("a hostile or huge form body is a 4xx page, never a 500, and ships nothing", async () => {
		const operator = await signedInOperator();
		const order = await threeUnits();
		const manyItems = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`units.itm_${index}`, "1"]));
		const many = await htmlOf(await postShipment(operator, order.id, { ...manyItems, ...TRACKING }), 422);
		expect(alertOf(many)).toContain("at most 100 items");
		const huge = await postShipment(operator, order.id, {
			[`units.${order.itemId}`]: "1",
			...TRACKING,
			number: "9".repeat(2_000_000),
		});
		expect(huge.status).toBeGreaterThanOrEqual(400);
		expect(huge.status).toBeLessThan(500);
		const script = {
			[`units.${order.itemId}`]: "1",
			carrier: "<script>alert(1)</script>",
			number: "1\n2",
			url: "javascript:alert(1)",
		};
		const hostile = await htmlOf(await postShipment(operator, order.id, script), 422);
		expect(hostile).not.toContain("<script>alert(1)</script>");
		const unknownOrder = await postShipment(operator, "ord_nope", { [`units.${order.itemId}`]: "1", ...TRACKING });
		expect(unknownOrder.status).toBe(404);
		expect(await shipmentsOf(order.key, order.id)).toEqual([]);
	});

	it("without the form token, or posted from another site, nothing ships", async () => {
		const operator = await signedInOperator();
		const order = await threeUnits();
		const fields = { [`units.${order.itemId}`]: "1", ...TRACKING };
		const noToken = await postForm(`/ops/orders/${order.id}/shipments`, fields, { cookie: operator.cookie });
		expect(noToken.status).toBe(403);
		const crossSite = await postShipment(operator, order.id, fields, { Origin: "https://evil.example" });
		expect(crossSite.status).toBe(403);
		const signedOut = await postForm(`/ops/orders/${order.id}/shipments`, { _csrf: operator.csrf, ...fields });
		expect(signedOut.status).toBe(303);
		expect(await shipmentsOf(order.key, order.id)).toEqual([]);
	});

	it("delivers or returns one shipment by its button; a second press is a 409 page saying what it is", async () => {
		const operator = await signedInOperator();
		const order = await threeUnits();
		await postShipment(operator, order.id, { [`units.${order.itemId}`]: "1", ...TRACKING });
		await postShipment(operator, order.id, {
			[`units.${order.itemId}`]: "1",
			carrier: "FedEx",
			number: "794644790132",
		});
		const [first, second] = await shipmentsOf(order.key, order.id);
		const button = (shipmentId: string, action: string) =>
			postForm(
				`/ops/orders/${order.id}/shipments/${shipmentId}/${action}`,
				{ _csrf: operator.csrf },
				{ cookie: operator.cookie },
			);
		expectRedirect(await button(first?.id ?? "", "deliver"), `/ops/orders/${order.id}?done=shipment_deliver`);
		expectRedirect(await button(second?.id ?? "", "return"), `/ops/orders/${order.id}?done=shipment_return`);
		const again = await htmlOf(await button(first?.id ?? "", "deliver"), 409);
		expect(alertOf(again)).toContain("it is delivered");
		const statuses = (await shipmentsOf(order.key, order.id)).map((shipment) => shipment.status);
		expect(statuses).toEqual(["delivered", "returned"]);
		const page = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		expect(textOf(sectionOf(page, "Shipments") ?? "")).toContain("Returned to sender");
	});

	it("a shipment of another order, or an unknown one, is a 404 page and nothing moves", async () => {
		const operator = await signedInOperator();
		const one = await threeUnits();
		const two = await threeUnits();
		await postShipment(operator, one.id, { [`units.${one.itemId}`]: "1", ...TRACKING });
		const [shipment] = await shipmentsOf(one.key, one.id);
		const wrong = await postForm(
			`/ops/orders/${two.id}/shipments/${shipment?.id ?? ""}/deliver`,
			{ _csrf: operator.csrf },
			{ cookie: operator.cookie },
		);
		expect(wrong.status).toBe(404);
		const unknown = await postForm(
			`/ops/orders/${one.id}/shipments/shp_nope/return`,
			{ _csrf: operator.csrf },
			{ cookie: operator.cookie },
		);
		expect(unknown.status).toBe(404);
		expect((await shipmentsOf(one.key, one.id)).map((row) => row.status)).toEqual(["in_transit"]);
	});
});
