import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { OrderMoveRow } from "../../src/orders/history.ts";
import { api, createPartner } from "../helpers.ts";
import { TRACKING } from "../orders/order-helpers.ts";
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
	statusOf,
	textOf,
} from "./console-helpers.ts";

let operator: Operator;
let partner: Awaited<ReturnType<typeof createPartner>>;

beforeAll(async () => {
	operator = await signedInOperator();
	partner = await createPartner("Harbour Museum Store");
});

/** Posts a move's form as the signed-in operator, with their form token. */
function postMove(orderId: string, move: string, fields: Record<string, string> = {}): Promise<Response> {
	return postForm(`/ops/orders/${orderId}/${move}`, { ...fields, _csrf: operator.csrf }, { cookie: operator.cookie });
}

/** A move that must go through: 303 back to the order page, which then says it was done. */
async function moveOk(orderId: string, move: string, fields: Record<string, string> = {}): Promise<string> {
	const response = await postMove(orderId, move, fields);
	expectRedirect(response, `/ops/orders/${orderId}?done=${move}`);
	return htmlOf(await consoleRequest(`/ops/orders/${orderId}?done=${move}`, { cookie: operator.cookie }), 200);
}

/** The partner's events of an order, through the partner's own API (what their integration sees). */
async function partnerEvents(orderId: string): Promise<{ type: string; body: Record<string, unknown> }[]> {
	const response = await api(`/v1/events?order_id=${orderId}`, { key: partner.keys.live.key });
	expect(response.status).toBe(200);
	return ((await response.json()) as { data: { type: string; body: Record<string, unknown> }[] }).data;
}

/** The order's last history row. */
async function lastMove(orderId: string): Promise<OrderMoveRow | null> {
	return env.DB.prepare("SELECT * FROM order_moves WHERE order_id = ?1 ORDER BY version DESC LIMIT 1")
		.bind(orderId)
		.first<OrderMoveRow>();
}

/** The status badge's text on an order page. */
function shownStatus(html: string): string | undefined {
	// The badge says the status in words; its class carries the code.
	return /class="status status-([a-z_]+)" data-testid="order-status">/.exec(html)?.[1];
}

describe("POST /ops/orders/:id/ship", () => {
	it("ships the order with its tracking, records order.shipped for the partner, and says so on the order page", async () => {
		const orderId = await orderInProduction(partner);
		const html = await moveOk(orderId, "ship", TRACKING);
		expect(statusMessageOf(html)).toBe("Order shipped.");
		expect(shownStatus(html)).toBe("shipped");
		const tracking = textOf(html.slice(html.indexOf(">Tracking</h2>")));
		expect(tracking).toContain("UPS");
		expect(tracking).toContain(TRACKING.number);
		expect(html).toContain(`<a href="${TRACKING.url.replaceAll("&", "&amp;")}" rel="noreferrer">`);

		expect(await statusOf(orderId)).toBe("shipped");
		const shipped = (await partnerEvents(orderId)).filter((event) => event.type === "order.shipped");
		expect(shipped).toHaveLength(1);
		expect(shipped[0]?.body.tracking).toEqual(TRACKING);
		expect(await lastMove(orderId)).toMatchObject({
			move: "ship",
			actor: "operator",
			from_status: "in_production",
			to_status: "shipped",
			note: `UPS ${TRACKING.number}`,
		});
		// A shipped order offers delivery only.
		expect(html).toContain('<button type="submit">Mark delivered</button>');
		expect(html).not.toContain("Mark shipped");
	});

	it("an empty carrier and a tracking URL that is not a URL are a 422 page with the errors by the fields and the typed values kept", async () => {
		const orderId = await orderInProduction(partner);
		const response = await postMove(orderId, "ship", { carrier: "  ", number: "1Z-KEEP-ME", url: "not a url" });
		const html = await htmlOf(response, 422);
		const alert = alertOf(html) ?? "";
		expect(alert).toContain("The order was not shipped");
		expect(alert).toContain("Carrier must not be empty.");
		expect(alert).toContain("Tracking URL must be an http or https URL.");
		expect(html).toContain(
			'<input id="ship-carrier" name="carrier" type="text" value="  " aria-invalid="true" aria-describedby="ship-carrier-error"/>',
		);
		expect(html).toContain('<p class="field-error" id="ship-carrier-error">Carrier must not be empty.</p>');
		expect(html).toContain('<input id="ship-number" name="number" type="text" value="1Z-KEEP-ME"/>');
		expect(html).toContain('<input id="ship-url" name="url" type="url" value="not a url" aria-invalid="true"');
		expect(shownStatus(html)).toBe("in_production");
		expect(await statusOf(orderId)).toBe("in_production");
		expect((await partnerEvents(orderId)).map((event) => event.type)).not.toContain("order.shipped");
	});

	it("a control character or a line break in the carrier, number or URL is a 422 page with the error by that field, and nothing ships", async () => {
		const orderId = await orderInProduction(partner);
		const tainted = [
			["carrier", "UPS\u001b[31m"],
			["number", "1Z\u0000999"],
			["url", "https://www.ups.com/track?n=1Z\r\n999"],
		] as const;
		for (const [field, value] of tainted) {
			const html = await htmlOf(await postMove(orderId, "ship", { ...TRACKING, [field]: value }), 422);
			expect(html).toContain(`aria-describedby="ship-${field}-error"`);
			expect(html).toMatch(new RegExp(`<p class="field-error" id="ship-${field}-error">[^<]*control characters`));
		}
		expect(await statusOf(orderId)).toBe("in_production");
		expect((await partnerEvents(orderId)).map((event) => event.type)).not.toContain("order.shipped");
	});

	it("a form missing its fields altogether is a 422 page, not a crash", async () => {
		const orderId = await orderInProduction(partner);
		const html = await htmlOf(await postMove(orderId, "ship"), 422);
		expect(alertOf(html)).toContain("Tracking number must not be empty.");
		expect(await statusOf(orderId)).toBe("in_production");
	});

	it("typed values are escaped when shown again", async () => {
		const orderId = await orderInProduction(partner);
		const html = await htmlOf(await postMove(orderId, "ship", { carrier: '"><b>x', number: "", url: "" }), 422);
		expect(html).toContain('value="&quot;&gt;&lt;b&gt;x"');
		expect(html).not.toContain('"><b>x');
	});

	it("shipping an unknown order is a 404 HTML page", async () => {
		const html = await htmlOf(await postMove("ord_doesnotexist", "ship", TRACKING), 404);
		expect(alertOf(html)).toMatch(/ord_doesnotexist/);
	});
});

describe("POST /ops/orders/:id/hold", () => {
	it("puts the order on hold with the operator's message, shown in the hold section and the history", async () => {
		const orderId = await orderInProduction(partner);
		const html = await moveOk(orderId, "hold", { message: "Frame corner damaged; waiting for a new moulding." });
		expect(statusMessageOf(html)).toBe("Order put on hold.");
		expect(shownStatus(html)).toBe("on_hold");
		const hold = textOf(html.slice(html.indexOf(">Hold</h2>"), html.indexOf(">Items</h2>")));
		expect(hold).toContain("operator_hold");
		expect(hold).toContain("Frame corner damaged; waiting for a new moulding.");
		expect(await lastMove(orderId)).toMatchObject({
			move: "hold",
			actor: "operator",
			to_status: "on_hold",
			note: "Frame corner damaged; waiting for a new moulding.",
		});
		expect((await partnerEvents(orderId)).map((event) => event.type)).toContain("order.on_hold");
	});

	it("a hold message with a line break or a NUL is a 422 page with the error by the field, and the order stays in production", async () => {
		const orderId = await orderInProduction(partner);
		for (const message of ["Frame damaged.\r\nCall the partner.", "Frame\u0000damaged"]) {
			const html = await htmlOf(await postMove(orderId, "hold", { message }), 422);
			expect(alertOf(html)).toContain("Hold message must not contain control characters.");
			expect(html).toContain('aria-describedby="hold-message-error"');
		}
		expect(await statusOf(orderId)).toBe("in_production");
		expect((await partnerEvents(orderId)).map((event) => event.type)).not.toContain("order.on_hold");
	});

	it("an empty hold message is a 422 page naming the field, and the order stays in production", async () => {
		const orderId = await orderInProduction(partner);
		const html = await htmlOf(await postMove(orderId, "hold", { message: "   " }), 422);
		expect(alertOf(html)).toContain("Hold message must not be empty.");
		expect(html).toContain('aria-describedby="hold-message-error"');
		expect(await statusOf(orderId)).toBe("in_production");
	});
});

describe("POST /ops/orders/:id/release", () => {
	it("releases a held order: it goes back to validation, recorded as the operator's move", async () => {
		const orderId = await orderInProduction(partner);
		await moveOk(orderId, "hold", { message: "Check the colour profile." });
		expectRedirect(await postMove(orderId, "release"), `/ops/orders/${orderId}?done=release`);
		expect(await lastMove(orderId)).toMatchObject({
			move: "release",
			actor: "operator",
			from_status: "on_hold",
			to_status: "validating",
		});
		const html = await htmlOf(
			await consoleRequest(`/ops/orders/${orderId}?done=release`, { cookie: operator.cookie }),
			200,
		);
		expect(statusMessageOf(html)).toBe("Hold released: the order is being validated again.");
	});
});

describe("POST /ops/orders/:id/deliver", () => {
	it("marks a shipped order delivered and records order.delivered", async () => {
		const orderId = await orderInProduction(partner);
		await moveOk(orderId, "ship", TRACKING);
		const html = await moveOk(orderId, "deliver");
		expect(statusMessageOf(html)).toBe("Order marked delivered.");
		expect(shownStatus(html)).toBe("delivered");
		expect(textOf(html)).toMatch(/Delivered\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
		expect((await partnerEvents(orderId)).map((event) => event.type)).toContain("order.delivered");
		expect(html).toContain("No operator move is possible from delivered.");
	});
});

describe("POST /ops/orders/:id/cancel", () => {
	const REASON = "The buyer asked to cancel by phone (ticket 4411)";

	it("cancels an order in production once confirmed, records its reason in the history, and order.canceled", async () => {
		const orderId = await orderInProduction(partner);
		const html = await moveOk(orderId, "cancel", { reason: REASON, confirm: "yes" });
		expect(statusMessageOf(html)).toBe("Order canceled.");
		expect(shownStatus(html)).toBe("canceled");
		expect(await lastMove(orderId)).toMatchObject({
			move: "cancel",
			actor: "operator",
			to_status: "canceled",
			note: REASON,
		});
		expect((await partnerEvents(orderId)).map((event) => event.type)).toContain("order.canceled");
		// The history on the order page shows the reason.
		expect(textOf(html.slice(html.indexOf('id="history-heading"')))).toContain(REASON);
	});

	it("cancel asks to confirm first: the first post changes nothing and shows the reason with a confirm button and a way back", async () => {
		const orderId = await orderInProduction(partner);
		const html = await htmlOf(await postMove(orderId, "cancel", { reason: REASON }), 200);
		expect(await statusOf(orderId)).toBe("in_production");
		expect(await lastMove(orderId)).not.toMatchObject({ move: "cancel" });
		const confirm = html.slice(html.indexOf('data-testid="confirm-cancel"'));
		expect(confirm).toContain(`action="/ops/orders/${orderId}/cancel"`);
		expect(confirm).toContain('name="confirm" value="yes"');
		expect(confirm).toContain(`name="reason" value="${REASON}"`);
		expect(textOf(confirm)).toContain("Yes, cancel the order");
		expect(confirm).toContain(`href="/ops/orders/${orderId}"`);
	});

	it("cancel without a reason is refused beside the field, confirmed or not, and nothing changes", async () => {
		const orderId = await orderInProduction(partner);
		const asked: Record<string, string>[] = [{}, { reason: "   " }, { reason: " ", confirm: "yes" }];
		for (const fields of asked) {
			const html = await htmlOf(await postMove(orderId, "cancel", fields), 422);
			expect(html).toContain('id="cancel-reason-error"');
			expect(alertOf(html)).toContain("Reason must not be empty.");
		}
		expect(await statusOf(orderId)).toBe("in_production");
	});

	it("a cancel reason follows the operator text rules: control characters and line breaks are refused", async () => {
		const orderId = await orderInProduction(partner);
		for (const reason of ["Buyer\u0000 asked", "Buyer\u001b[2J asked", "Buyer\nasked"]) {
			const html = await htmlOf(await postMove(orderId, "cancel", { reason, confirm: "yes" }), 422);
			expect(alertOf(html)).toContain("Reason must not contain control characters.");
		}
		expect(await statusOf(orderId)).toBe("in_production");
	});
});

describe("refused moves", () => {
	it("delivering an order still in production is a 409 on the order page, which says why and changes nothing", async () => {
		const orderId = await orderInProduction(partner);
		const html = await htmlOf(await postMove(orderId, "deliver"), 409);
		expect(alertOf(html)).toMatch(/Cannot mark delivered an order that is in_production/);
		expect(shownStatus(html)).toBe("in_production");
		expect(html).toContain("Mark shipped</button>");
		expect(await statusOf(orderId)).toBe("in_production");
	});

	it("cancelling a shipped order is a 409 on the order page", async () => {
		const orderId = await orderInProduction(partner);
		await moveOk(orderId, "ship", TRACKING);
		const html = await htmlOf(await postMove(orderId, "cancel", { reason: "Lost", confirm: "yes" }), 409);
		expect(alertOf(html)).toMatch(/Cannot cancel an order that is shipped/);
		expect(await statusOf(orderId)).toBe("shipped");
	});

	it("shipping twice is a 409 the second time, with one order.shipped event", async () => {
		const orderId = await orderInProduction(partner);
		await moveOk(orderId, "ship", TRACKING);
		await htmlOf(await postMove(orderId, "ship", TRACKING), 409);
		expect((await partnerEvents(orderId)).filter((event) => event.type === "order.shipped")).toHaveLength(1);
	});

	it("a done= value that is not a move shows no message", async () => {
		const orderId = await orderInProduction(partner);
		const html = await htmlOf(
			await consoleRequest(`/ops/orders/${orderId}?done=explode`, { cookie: operator.cookie }),
			200,
		);
		expect(statusMessageOf(html)).toBeNull();
	});
});
