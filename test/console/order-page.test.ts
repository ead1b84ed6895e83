import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { app } from "../../src/app.ts";
import { bytesText } from "../../src/console/order-page.tsx";
import { SESSION_COOKIE_HEADER_NAME } from "../../src/console/session.ts";
import type { Order } from "../../src/orders/response.ts";
import { PAGE_SECURITY_HEADERS } from "../../src/production/slip-page.ts";
import { createPartner, send } from "../helpers.ts";
import { createOrder, orderBody, readyFile, settleValidation } from "../orders/order-helpers.ts";
import {
	alertOf,
	consoleRequest,
	htmlOf,
	insertOrderIn,
	type Operator,
	ORIGIN,
	postForm,
	SERVICE_NAMES,
	signedInOperator,
	textOf,
} from "./console-helpers.ts";

const PARTNER_NAME = "Harbour Museum Store";

/** Each `<dt>` of the HTML with its `<dd>`'s text. */
function factsOf(html: string): Map<string, string> {
	return new Map(
		[...html.matchAll(/<dt>([\s\S]*?)<\/dt>\s*<dd[^>]*>([\s\S]*?)<\/dd>/g)].map((match) => [
			textOf(match[1] ?? "").trim(),
			textOf(match[2] ?? "").trim(),
		]),
	);
}

/** `$1,234.56`, independently of the page's formatter. */
function dollars(cents: number): string {
	return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
let operator: Operator;
let partner: Awaited<ReturnType<typeof createPartner>>;
let orderId: string;
let externalId: string;
let printFileId: string;

/** The inner HTML of the section headed `heading`. */
function sectionOf(html: string, heading: string): string {
	const start = html.indexOf(`>${heading}</h2>`);
	if (start < 0) throw new Error(`no section ${heading}`);
	const end = html.indexOf("</section>", start);
	return html.slice(start, end);
}

beforeAll(async () => {
	operator = await signedInOperator();
	partner = await createPartner(PARTNER_NAME);
	const key = partner.keys.live.key;
	// 2400 × 3000 px printed at 8 × 10 in: 300 DPI.
	printFileId = await readyFile(key, 2400, 3000);
	const body = orderBody(printFileId, {}, { quantity: 2 });
	externalId = body.external_id;
	const created = await createOrder(key, body);
	orderId = created.id;
	expect((await settleValidation(key, orderId)).status).toBe("in_production");
});

describe("GET /ops/orders/:id", () => {
	it("shows the external id, the status, the partner and the ship-to address", async () => {
		const html = await htmlOf(await consoleRequest(`/ops/orders/${orderId}`, { cookie: operator.cookie }), 200);
		expect(html).toMatch(new RegExp(`<h1>[^<]*${externalId}</h1>`));
		expect(html).toContain('<span class="status status-in_production" data-testid="order-status">In production</span>');
		const partnerSection = sectionOf(html, "Partner");
		expect(partnerSection).toContain(PARTNER_NAME);
		expect(partnerSection).toContain(partner.account.id);
		expect(partnerSection).toContain("<dd>live</dd>");
		const shipTo = textOf(sectionOf(html, "Ship to"));
		expect(shipTo).toContain("Ada Lovelace");
		expect(shipTo).toContain("12 Harbour Street");
		expect(shipTo).toContain("Portland, ME 04101");
		expect(shipTo).toContain("United States");
	});

	it("lists each item by its place and size (its id beside), with frame, mat, quantity, print file (a download link), format, byte size, pixel size and effective DPI", async () => {
		const html = await htmlOf(await consoleRequest(`/ops/orders/${orderId}`, { cookie: operator.cookie }), 200);
		const items = sectionOf(html, "Items");
		const [, itemId = "", row = ""] = /<tr data-item-id="(itm_[^"]+)">([\s\S]*?)<\/tr>/.exec(items) ?? [];
		const cells = [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((match) => textOf(match[1] ?? ""));
		expect(cells).toEqual([
			`Item 1 of 1 · 8 × 10 in${itemId}`,
			expect.any(String),
			expect.any(String),
			"2",
			`${printFileId}PNG · 498 B · 2400 × 3000 px`,
			"300",
		]);
		expect(row).toContain(`<a href="/ops/print-files/${printFileId}/download?item_id=${itemId}" download="">`);
		expect(cells[1]).not.toBe("Unframed");
		expect(cells[2]).not.toBe("No mat");
	});

	it("shows each item's framing in the framer's words, its dimensions in fractions and its price", async () => {
		const html = await htmlOf(await consoleRequest(`/ops/orders/${orderId}`, { cookie: operator.cookie }), 200);
		const spec = factsOf(/<tr class="item-spec"[^>]*>([\s\S]*?)<\/tr>/.exec(sectionOf(html, "Items"))?.[1] ?? "");
		expect(spec.get("Print")).toBe("8 × 10 in on Archival matte, image fills the print (cropped to it)");
		expect(spec.get("Mat")).toBe(
			"Bright White, borders 2 1/8 in all round from the opening (ordered: 2 in, to the print's edge)",
		);
		expect(spec.get("Frame")).toBe("Walnut Flat 3/4 in");
		expect(spec.get("Glazing")).toBe("Acrylic");
		expect(spec.get("Mat opening")).toBe("7 3/4 × 9 3/4 in");
		expect(spec.get("Mat outer size")).toBe("12 × 14 in");
		expect(spec.get("Outside size")).toBe("13 1/2 × 15 1/2 in");
		expect(spec.get("United inches")).toBe("26");
		const order = (await (
			await send("GET", `/v1/orders/${orderId}`, partner.keys.live.key, undefined)
		).json()) as Order;
		const unit = order.items[0]?.unit_price?.total ?? 0;
		expect(spec.get("Each")).toBe(dollars(unit));
		expect(spec.get("Line")).toBe(dollars(unit * 2));
	});

	it("shows the shipping method and what the order costs: items, shipping, total, book version", async () => {
		const html = await htmlOf(await consoleRequest(`/ops/orders/${orderId}`, { cookie: operator.cookie }), 200);
		const costs = factsOf(sectionOf(html, "Shipping and costs"));
		const order = (await (
			await send("GET", `/v1/orders/${orderId}`, partner.keys.live.key, undefined)
		).json()) as Order;
		expect(order.costs).not.toBeNull();
		expect(costs.get("Shipping method")).toBe("standard");
		expect(costs.get("Items")).toBe(dollars(order.costs?.items ?? 0));
		expect(costs.get("Shipping")).toBe(dollars(order.costs?.shipping ?? 0));
		expect(costs.get("Total")).toBe(`${dollars(order.costs?.total ?? 0)} USD`);
		expect(costs.get("Price book")).toBe("version 1");
	});

	it("shows the gift message, line breaks kept, when the order has one", async () => {
		const key = partner.keys.live.key;
		const file = await readyFile(key, 2400, 3000);
		const order = await createOrder(key, orderBody(file, { gift_message: "Happy birthday, Grace!\nLove, Ada" }));
		const html = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		expect(sectionOf(html, "Gift message")).toContain('<p class="gift">Happy birthday, Grace!\nLove, Ada</p>');
		const without = await htmlOf(await consoleRequest(`/ops/orders/${orderId}`, { cookie: operator.cookie }), 200);
		expect(without).not.toContain("Gift message");
	});

	it("shows the history of moves with their times, actors and statuses", async () => {
		const html = await htmlOf(await consoleRequest(`/ops/orders/${orderId}`, { cookie: operator.cookie }), 200);
		const history = sectionOf(html, "History");
		const rows = [...history.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
			.slice(1)
			.map((match) =>
				[...(match[1] ?? "").matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => textOf(cell[1] ?? "")),
			);
		expect(rows.map((cells) => cells.slice(1, 4))).toEqual([
			["create", "partner", "— → received"],
			["start validation", "system", "received → validating"],
			["pass validation", "system", "validating → in_production"],
		]);
		for (const cells of rows) expect(cells[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
		expect(history).toMatch(/<time datetime="\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z">/);
	});

	it("an order in production offers the ship, hold and cancel forms, each with the session's form token", async () => {
		const html = await htmlOf(await consoleRequest(`/ops/orders/${orderId}`, { cookie: operator.cookie }), 200);
		const csrfField = `<input type="hidden" name="_csrf" value="${operator.csrf}"/>`;
		for (const move of ["ship", "hold", "cancel"]) {
			const form = new RegExp(
				`<form method="post" action="/ops/orders/${orderId}/${move}(?:#confirm-cancel)?"[^>]*>([\\s\\S]*?)</form>`,
			).exec(html)?.[1];
			expect(form, move).toBeDefined();
			expect(form).toContain(csrfField);
		}
		expect(html).toContain(
			'<label for="ship-carrier">Carrier</label><input id="ship-carrier" name="carrier" type="text" value=""/>',
		);
		expect(html).toContain(
			'<label for="ship-number">Tracking number</label><input id="ship-number" name="number" type="text" value=""/>',
		);
		expect(html).toContain(
			'<label for="ship-url">Tracking URL (optional for UPS, USPS, FedEx, DHL)</label><input id="ship-url" name="url" type="url" value=""/>',
		);
		expect(html).toContain('<button type="submit">Mark shipped</button>');
		expect(html).toContain(
			'<label for="hold-message">Hold message</label><input id="hold-message" name="message" type="text" value="" maxlength="1000"/>',
		);
		expect(html).toContain('<button type="submit">Put on hold</button>');
		expect(html).toContain("Cancel order…</button>");
		expect(html).not.toContain("Release hold");
		expect(html).not.toContain("Mark delivered");
		expect(html).not.toContain(`action="/ops/orders/${orderId}/release"`);
		expect(html).not.toContain(`action="/ops/orders/${orderId}/deliver"`);
	});

	it("links to the order's packing slip", async () => {
		const html = await htmlOf(await consoleRequest(`/ops/orders/${orderId}`, { cookie: operator.cookie }), 200);
		expect(html).toContain(`<a href="/ops/orders/${orderId}/packing-slip">Packing slip</a>`);
	});

	it("without a brand profile the label's return address says there is none, and nothing names the service", async () => {
		const html = await htmlOf(await consoleRequest(`/ops/orders/${orderId}`, { cookie: operator.cookie }), 200);
		expect(textOf(sectionOf(html, "Shipping label return address"))).toContain(
			"No return address on file: the partner has no brand profile",
		);
		expect(html).not.toMatch(SERVICE_NAMES);
	});

	it("with a brand profile the label's return address is the partner's", async () => {
		const branded = await createPartner("Lumen Gallery");
		const returnAddress = {
			name: "Lumen Prints",
			address1: "4 Quay Road",
			city: "Bristol",
			zip: "BS1 4DJ",
			country: "GB",
		};
		const put = await send("PUT", "/v1/branding", branded.keys.live.key, {
			brand_name: "Lumen Prints",
			return_address: returnAddress,
		});
		expect(put.status).toBe(200);
		const order = await insertOrderIn({ accountId: branded.account.id, mode: "live" }, "in_production");
		const html = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		const section = textOf(sectionOf(html, "Shipping label return address"));
		expect(section).toContain("4 Quay Road");
		expect(section).toContain("United Kingdom");
		expect(section).not.toContain("No return address");
	});

	it("an order held for a frame not in the catalog names the item by place and size, says the partner must change the frame, and offers cancel but no release", async () => {
		const key = partner.keys.live.key;
		const held = await createOrder(key, orderBody(printFileId, {}, { frame: "no-such-frame" }));
		expect((await settleValidation(key, held.id)).status).toBe("on_hold");
		const html = await htmlOf(await consoleRequest(`/ops/orders/${held.id}`, { cookie: operator.cookie }), 200);
		expect(html).toContain('<span class="status status-on_hold" data-testid="order-status">On hold</span>');
		const hold = textOf(sectionOf(html, "Hold"));
		expect(hold).toContain("Reason: Frame not in the catalog frame_not_found");
		expect(hold).toContain(
			`Item 1 of 1 · 8 × 10 in ${held.items[0]?.id} · frame: No frame "no-such-frame" in the catalog.`,
		);
		expect(hold).toContain(
			"The floor cannot fix this: a release would only hold it again. The partner must change the item to a frame in the catalog, by fixing the item through the API.",
		);
		expect(html).not.toContain("Release hold");
		expect(html).not.toContain(`action="/ops/orders/${held.id}/release"`);
		expect(textOf(sectionOf(html, "Moves"))).toContain(
			'No release: the floor cannot fix this hold. See "What has to happen" above.',
		);
		expect(html).toContain("Cancel order…</button>");
		expect(html).not.toContain("Mark shipped");
		expect(html).not.toContain("Put on hold");
	});

	it("an order the floor held offers its release, and says releasing validates it again", async () => {
		const held = await insertOrderIn({ accountId: partner.account.id, mode: "live" }, "in_production");
		await postForm(
			`/ops/orders/${held.id}/hold`,
			{ _csrf: operator.csrf, message: "Wrong paper loaded." },
			{ cookie: operator.cookie },
		);
		const html = await htmlOf(await consoleRequest(`/ops/orders/${held.id}`, { cookie: operator.cookie }), 200);
		expect(textOf(sectionOf(html, "Hold"))).toContain("Order · order: Wrong paper loaded.");
		expect(textOf(sectionOf(html, "Hold"))).toContain("Release it once the problem is sorted out");
		expect(html).toContain('<button type="submit">Release hold</button>');
		expect(html).not.toContain('data-testid="no-release"');
	});

	it("an item from a partner URL shows the URL in place of a print file", async () => {
		const owner = await createPartner("URL Gallery");
		const order = await insertOrderIn({ accountId: owner.account.id, mode: "live" }, "in_production");
		const html = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		expect(sectionOf(html, "Items")).toContain("https://files.partner.example/console/print.png");
	});

	it("an unknown order is a 404 HTML page, with the console's header", async () => {
		const html = await htmlOf(await consoleRequest("/ops/orders/ord_doesnotexist", { cookie: operator.cookie }), 404);
		expect(alertOf(html)).toMatch(/no order ord_doesnotexist/);
		expect(html).toContain('action="/ops/sign-out"');
	});
});

describe("GET /ops/orders/:id/packing-slip", () => {
	it("serves the printable slip to a signed-in operator, with the page security headers", async () => {
		const response = await consoleRequest(`/ops/orders/${orderId}/packing-slip`, { cookie: operator.cookie });
		const html = await htmlOf(response, 200);
		expect(html).toContain("<h2>Packing slip</h2>");
		expect(html).toContain(externalId);
		expect(html).toContain("@page { size: auto;");
		expect(html).not.toMatch(SERVICE_NAMES);
		for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) expect(response.headers.get(name)).toBe(value);
	});

	it("never shows a price: no currency amount anywhere on the slip", async () => {
		const html = await htmlOf(
			await consoleRequest(`/ops/orders/${orderId}/packing-slip`, { cookie: operator.cookie }),
			200,
		);
		const text = textOf(html);
		expect(text).toContain("Walnut");
		expect(text).not.toMatch(/[$€£¥]\s?\d|\d\s?(USD|EUR|GBP)\b|\bUSD\b|\bcents?\b|price|cost|total/i);
		// Not even the amounts alone: neither the unit price nor the order's total appears as digits.
		const order = (await (
			await send("GET", `/v1/orders/${orderId}`, partner.keys.live.key, undefined)
		).json()) as Order;
		for (const cents of [order.items[0]?.unit_price?.total ?? 0, order.costs?.total ?? 0]) {
			expect(text).not.toContain(dollars(cents).slice(1));
		}
	});

	it("prints on a forced paper size when asked", async () => {
		const a4 = await htmlOf(
			await consoleRequest(`/ops/orders/${orderId}/packing-slip?paper=a4`, { cookie: operator.cookie }),
			200,
		);
		expect(a4).toContain("@page { size: A4 portrait;");
		const letter = await htmlOf(
			await consoleRequest(`/ops/orders/${orderId}/packing-slip?paper=letter`, { cookie: operator.cookie }),
			200,
		);
		expect(letter).toContain("@page { size: letter portrait;");
	});

	it("an unknown paper size is a 422 HTML page", async () => {
		const html = await htmlOf(
			await consoleRequest(`/ops/orders/${orderId}/packing-slip?paper=legal`, { cookie: operator.cookie }),
			422,
		);
		expect(alertOf(html)).toMatch(/paper size "legal"/);
	});

	it("the slip of an unknown order is a 404 HTML page", async () => {
		await htmlOf(await consoleRequest("/ops/orders/ord_doesnotexist/packing-slip", { cookie: operator.cookie }), 404);
	});
});

describe("console errors", () => {
	it("an unknown /ops path is a 404 HTML page, signed in or not, for GET and POST", async () => {
		const signedIn = await htmlOf(await consoleRequest("/ops/nowhere", { cookie: operator.cookie }), 404);
		expect(alertOf(signedIn)).toMatch(/no page at \/ops\/nowhere/);
		expect(signedIn).toContain('action="/ops/sign-out"');
		const signedOut = await htmlOf(await consoleRequest("/ops/orders/x/y/z"), 404);
		expect(signedOut).not.toContain('action="/ops/sign-out"');
		await htmlOf(
			await consoleRequest(`/ops/orders/${orderId}/teleport`, { method: "POST", cookie: operator.cookie }),
			404,
		);
	});

	it("an unexpected failure is a 500 HTML page with the request id and no details", async () => {
		const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
		const brokenDb = {
			prepare() {
				throw new Error("D1 is down: secret internals");
			},
		};
		const response = await app.request(
			`${ORIGIN}/ops/orders`,
			{ headers: { Cookie: `${SESSION_COOKIE_HEADER_NAME}=${operator.cookie}` } },
			{ ...env, DB: brokenDb },
		);
		const html = await htmlOf(response, 500);
		expect(alertOf(html)).toMatch(/Something failed on our side/);
		expect(html).not.toContain("secret internals");
		expect(html).toContain(response.headers.get("X-Request-Id") ?? "missing");
		expect(quiet).toHaveBeenCalled();
		quiet.mockRestore();
	});

	it("the API keeps its JSON errors: /v1 paths are untouched by the console", async () => {
		const response = await consoleRequest("/v1/nowhere");
		expect(response.status).toBe(404);
		expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
	});
});

describe("white label", () => {
	it("no console page names the service, and every one is HTML", async () => {
		const cookie = operator.cookie;
		const partnerKey = partner.keys.live.key;
		const pages: [Response, number][] = [
			[await consoleRequest("/ops/sign-in"), 200],
			[await postForm("/ops/sign-in", { key: partnerKey }), 403],
			[await postForm("/ops/sign-in", { key: "nope" }), 401],
			[await consoleRequest("/ops/orders", { cookie }), 200],
			[await consoleRequest("/ops/orders?status=lost", { cookie }), 422],
			[await consoleRequest(`/ops/orders/${orderId}`, { cookie }), 200],
			[await consoleRequest(`/ops/orders/${orderId}/packing-slip`, { cookie }), 200],
			[await postForm(`/ops/orders/${orderId}/deliver`, { _csrf: operator.csrf }, { cookie }), 409],
			[await postForm(`/ops/orders/${orderId}/ship`, { _csrf: operator.csrf }, { cookie }), 422],
			[await postForm(`/ops/orders/${orderId}/ship`, {}, { cookie }), 403],
			[await consoleRequest("/ops/orders/ord_doesnotexist", { cookie }), 404],
			[await consoleRequest("/ops/nowhere"), 404],
		];
		for (const [response, status] of pages) {
			const html = await htmlOf(response, status);
			expect(html).not.toMatch(SERVICE_NAMES);
			expect(html).not.toContain("<script");
		}
	});
});

describe("bytesText", () => {
	it("writes byte sizes in decimal units to one decimal", () => {
		expect([bytesText(498), bytesText(24_512), bytesText(312_400_000), bytesText(2_500_000_000)]).toEqual([
			"498 B",
			"24.5 KB",
			"312.4 MB",
			"2.5 GB",
		]);
	});
});
