import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createPartner } from "../helpers.ts";
import { eventTypes } from "../orders/order-helpers.ts";
import {
	alertOf,
	consoleRequest,
	expectRedirect,
	htmlOf,
	type Operator,
	ORIGIN,
	orderInProduction,
	postForm,
	signedInOperator,
	statusOf,
} from "./console-helpers.ts";

const TRACKING = { carrier: "UPS", number: "1Z999AA10123456784", url: "https://www.ups.com/track?tracknum=1Z9" };

let operator: Operator;
let partner: Awaited<ReturnType<typeof createPartner>>;

beforeAll(async () => {
	operator = await signedInOperator();
	partner = await createPartner("Harbour Museum Store");
});

/** How many history rows the order has. */
async function moveCount(orderId: string): Promise<number> {
	const row = await env.DB.prepare("SELECT COUNT(*) AS count FROM order_moves WHERE order_id = ?1")
		.bind(orderId)
		.first<{ count: number }>();
	return row?.count ?? 0;
}

/** Asserts that nothing happened to an order in production: status, history and events as before. */
async function expectUnmoved(orderId: string): Promise<void> {
	expect(await statusOf(orderId)).toBe("in_production");
	expect(await moveCount(orderId)).toBe(1);
	expect(await eventTypes(orderId)).toEqual(["order.received"]);
}

describe("form tokens (CSRF)", () => {
	it("a move posted without _csrf is a 403 page and the order does not move", async () => {
		const orderId = await orderInProduction(partner);
		const response = await postForm(`/ops/orders/${orderId}/ship`, TRACKING, { cookie: operator.cookie });
		const html = await htmlOf(response, 403);
		expect(alertOf(html)).toMatch(/nothing was changed/);
		await expectUnmoved(orderId);
	});

	it("a move posted with another session's _csrf is a 403 page and the order does not move", async () => {
		const orderId = await orderInProduction(partner);
		const other = await signedInOperator();
		expect(other.csrf).not.toBe(operator.csrf);
		const response = await postForm(
			`/ops/orders/${orderId}/cancel`,
			{ _csrf: other.csrf },
			{ cookie: operator.cookie },
		);
		await htmlOf(response, 403);
		await expectUnmoved(orderId);
	});

	it("a made-up or empty _csrf is a 403 page", async () => {
		const orderId = await orderInProduction(partner);
		for (const token of ["", "x", "A".repeat(43)]) {
			await htmlOf(await postForm(`/ops/orders/${orderId}/cancel`, { _csrf: token }, { cookie: operator.cookie }), 403);
		}
		await expectUnmoved(orderId);
	});

	it("a JSON post (no form, so no token) is a 403 page, not a move", async () => {
		const orderId = await orderInProduction(partner);
		const response = await consoleRequest(`/ops/orders/${orderId}/ship`, {
			method: "POST",
			cookie: operator.cookie,
			headers: { "Content-Type": "application/json" },
			body: JSON.stringify({ ...TRACKING, _csrf: operator.csrf }),
		});
		await htmlOf(response, 403);
		await expectUnmoved(orderId);
	});

	it("a move posted from another site is a 403 page even with a valid token", async () => {
		const orderId = await orderInProduction(partner);
		const response = await postForm(
			`/ops/orders/${orderId}/ship`,
			{ ...TRACKING, _csrf: operator.csrf },
			{ cookie: operator.cookie, headers: { Origin: "https://evil.example" } },
		);
		expect(alertOf(await htmlOf(response, 403))).toMatch(/another site/);
		await expectUnmoved(orderId);
	});

	it("a move posted from the console's own origin with the token goes through", async () => {
		const orderId = await orderInProduction(partner);
		const response = await postForm(
			`/ops/orders/${orderId}/ship`,
			{ ...TRACKING, _csrf: operator.csrf },
			{ cookie: operator.cookie, headers: { Origin: ORIGIN } },
		);
		expectRedirect(response, `/ops/orders/${orderId}?done=ship`);
		expect(await statusOf(orderId)).toBe("shipped");
	});

	it("a valid token without the session cookie is sent to sign in and the order does not move", async () => {
		const orderId = await orderInProduction(partner);
		expectRedirect(
			await postForm(`/ops/orders/${orderId}/ship`, { ...TRACKING, _csrf: operator.csrf }),
			"/ops/sign-in",
		);
		await expectUnmoved(orderId);
	});

	it("every form on the order page carries the session's token", async () => {
		const orderId = await orderInProduction(partner);
		const html = await htmlOf(await consoleRequest(`/ops/orders/${orderId}`, { cookie: operator.cookie }), 200);
		const forms = [...html.matchAll(/<form method="post"[\s\S]*?<\/form>/g)].map((match) => match[0]);
		// Sign-out, Start production, the shipment of some units, ship, hold and cancel.
		expect(forms).toHaveLength(6);
		for (const form of forms) expect(form).toContain(`name="_csrf" value="${operator.csrf}"`);
	});
});
