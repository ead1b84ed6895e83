/**
 * The console's Start production: the order page's button (a form posted with the session's form
 * token), the queue search that opens the order of a scanned work ticket, and the started label.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, createPartner } from "../helpers.ts";
import { closeWindow, createOrder, orderBody, partnerWithWindow, settleValidation } from "../orders/order-helpers.ts";
import {
	alertOf,
	consoleRequest,
	expectRedirect,
	htmlOf,
	type Operator,
	orderInProduction,
	postForm,
	signedInOperator,
	statusMessageOf,
	textOf,
} from "./console-helpers.ts";

let operator: Operator;
let partner: Awaited<ReturnType<typeof createPartner>>;

beforeAll(async () => {
	operator = await signedInOperator();
	partner = await createPartner("Harbour Museum Store");
});

/** The order page as the signed-in operator sees it. */
async function orderPage(orderId: string, query = ""): Promise<string> {
	return htmlOf(await consoleRequest(`/ops/orders/${orderId}${query}`, { cookie: operator.cookie }), 200);
}

/** The started_at the partner's API shows for the order. */
async function startedAt(orderId: string): Promise<string | null> {
	const response = await api(`/v1/orders/${orderId}`, { key: partner.keys.live.key });
	return ((await response.json()) as { production_started_at: string | null }).production_started_at;
}

describe("Start production on the console's order page", () => {
	it("an order in production no one started shows the Start production form, posting to its start with the form token", async () => {
		const id = await orderInProduction(partner);
		const html = await orderPage(id);
		expect(html).toContain('data-testid="start-panel"');
		expect(html).toContain(`action="/ops/orders/${id}/start"`);
		expect(textOf(html)).toContain("Start production");
		expect(html).toMatch(/name="_csrf" value="[^"]+"/);
	});

	it("the button starts the order: 303 back to the page, which says so and no longer offers it", async () => {
		const id = await orderInProduction(partner);
		const response = await postForm(`/ops/orders/${id}/start`, { _csrf: operator.csrf }, { cookie: operator.cookie });
		expectRedirect(response, `/ops/orders/${id}?done=start`);
		const html = await orderPage(id, "?done=start");
		expect(statusMessageOf(html)).toBe("Production started: the partner can no longer change or cancel the order.");
		expect(html).not.toContain('data-testid="start-panel"');
		expect(textOf(html)).toContain("Production started");
		expect(await startedAt(id)).not.toBeNull();
	});

	it("a post without the form token is refused and starts nothing", async () => {
		const id = await orderInProduction(partner);
		const response = await postForm(`/ops/orders/${id}/start`, {}, { cookie: operator.cookie });
		expect(response.status).toBe(403);
		expect(await startedAt(id)).toBeNull();
	});

	it("a second start is a 409 on the order page saying when the floor started it", async () => {
		const id = await orderInProduction(partner);
		await postForm(`/ops/orders/${id}/start`, { _csrf: operator.csrf }, { cookie: operator.cookie });
		const again = await postForm(`/ops/orders/${id}/start`, { _csrf: operator.csrf }, { cookie: operator.cookie });
		expect(alertOf(await htmlOf(again, 409))).toContain(`The floor started this order at ${await startedAt(id)}`);
	});

	it("in the edit window the page offers no start, and a posted start is a 409 saying until when", async () => {
		const { key, file } = await partnerWithWindow(30);
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		expect(await orderPage(order.id)).not.toContain('data-testid="start-panel"');
		const refused = await postForm(
			`/ops/orders/${order.id}/start`,
			{ _csrf: operator.csrf },
			{ cookie: operator.cookie },
		);
		expect(alertOf(await htmlOf(refused, 409))).toContain(order.editable_until ?? "?");
		await closeWindow(order.id);
		expect(await orderPage(order.id)).toContain('data-testid="start-panel"');
	});
});

describe("a work ticket scanned into the queue's search", () => {
	it("opens the order it names, at its Start production panel", async () => {
		const id = await orderInProduction(partner);
		const code = `${id}/itm_4Rt8Zq`;
		const response = await consoleRequest(`/ops/orders?q=${encodeURIComponent(code)}`, { cookie: operator.cookie });
		expectRedirect(response, `/ops/orders/${id}#start`);
	});

	it("anything else typed there is a search as before", async () => {
		const response = await consoleRequest("/ops/orders?q=ord_nothing-like-a-ticket", { cookie: operator.cookie });
		expect(response.status).toBe(200);
	});
});
