import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { postalLines } from "../../src/addresses/postal-lines.ts";
import type { DutyTerms } from "../../src/customs/tables.ts";
import { type Currency, moneyText } from "../../src/money/currencies.ts";
import type { Order } from "../../src/orders/response.ts";
import { invoiceNumber, TERMS_WORDS } from "../../src/production/commercial-invoice.tsx";
import { putProfile } from "../branding/branding-helpers.ts";
import { alertOf, consoleRequest, htmlOf, signedInOperator } from "../console/console-helpers.ts";
import { api, createKeyWithScopes, expectError } from "../helpers.ts";
import { createOrder, externalId, partnerWithFile, readOrder, SHIP_TO } from "../orders/order-helpers.ts";

/** Text as the page's HTML writes it. */
function escapeHtml(text: string): string {
	return text
		.replaceAll("&", "&amp;")
		.replaceAll("<", "&lt;")
		.replaceAll(">", "&gt;")
		.replaceAll('"', "&quot;")
		.replaceAll("'", "&#39;");
}

/** The part of the page between the first `start` and the next `end`, or "" when there is none. */
function section(html: string, start: string, end: string): string {
	const from = html.indexOf(start);
	if (from < 0) return "";
	const to = html.indexOf(end, from + start.length);
	return to < 0 ? "" : html.slice(from, to + end.length);
}

/** A ship-to in each country the tests send to. */
const SHIP_TOS = {
	US: SHIP_TO,
	DE: { name: "Käthe Kollwitz", address1: "Torstraße 5", city: "Berlin", zip: "10119", country: "DE" },
	FR: { name: "Berthe Morisot", address1: "12 rue de Rivoli", city: "Paris", zip: "75001", country: "FR" },
	GB: { name: "Gwen John", address1: "9 Northern Way", city: "Leeds", zip: "LS1 4AP", country: "GB" },
	CA: { name: "Emily Carr", address1: "100 Queen St W", city: "Toronto", state: "ON", zip: "M5H 2N2", country: "CA" },
	AU: {
		name: "Margaret Preston",
		address1: "1 Macquarie St",
		city: "Sydney",
		state: "NSW",
		zip: "2000",
		country: "AU",
	},
	JP: { name: "Uemura Shoen", address1: "1-1 Chiyoda", city: "Chiyoda-ku, Tokyo", zip: "100-0001", country: "JP" },
} as const;
type Country = keyof typeof SHIP_TOS;

/** How each test account is billed and what its order declares. */
type Case = {
	country: Exclude<Country, "US">;
	currency: Currency;
	terms: DutyTerms;
	/** The framed item's declared value of one unit, in minor units of the account's currency; none: its price. */
	declared: number | null;
};

const CASES: readonly Case[] = [
	{ country: "DE", currency: "EUR", terms: "ddp", declared: 4500 },
	{ country: "FR", currency: "EUR", terms: "dap", declared: null },
	{ country: "GB", currency: "GBP", terms: "ddp", declared: 3900 },
	{ country: "CA", currency: "USD", terms: "dap", declared: null },
	{ country: "AU", currency: "AUD", terms: "ddp", declared: 12_000 },
	{ country: "JP", currency: "JPY", terms: "ddp", declared: 9800 },
];

/** Bills the account in `currency` with `terms` by default, as its billing row says. */
async function billAccount(accountId: string, currency: Currency, terms: DutyTerms): Promise<void> {
	await env.DB.prepare(
		"INSERT OR REPLACE INTO account_billing (account_id, currency, duty_terms, tax_country, tax_id, updated_at) VALUES (?1, ?2, ?3, NULL, NULL, ?4)",
	)
		.bind(accountId, currency, terms, new Date().toISOString())
		.run();
}

/** A branded partner billed as `billing`, with an order to `country`: a framed item (two of it) and an unframed one. */
async function orderTo(
	country: Country,
	billing: Omit<Case, "country"> = { currency: "USD", terms: "dap", declared: null },
) {
	const { partner, key, file, opsKey } = await partnerWithFile({ name: `${country} Gallery`, opsKey: true });
	await billAccount(partner.account.id, billing.currency, billing.terms);
	await putProfile(key, { brand_name: `Lumen ${country}` });
	const declared =
		billing.declared === null ? {} : { declared_value: { amount: billing.declared, currency: billing.currency } };
	const created = await createOrder(key, {
		external_id: externalId(`CI-${country}`),
		ship_to: SHIP_TOS[country],
		items: [
			{
				print_file_id: file,
				width_in: 8,
				height_in: 10,
				frame: "walnut-flat-075",
				mat: "bright-white",
				quantity: 2,
				...declared,
			},
			{ print_file_id: file, width_in: 8, height_in: 10 },
		],
	});
	return { partner, key, opsKey, order: await readOrder(key, created.id) };
}

function invoiceResponse(key: string, orderId: string, query = ""): Promise<Response> {
	return api(`/v1/ops/orders/${orderId}/commercial-invoice${query}`, { key });
}

async function invoiceHtml(key: string, orderId: string, query = ""): Promise<string> {
	const response = await invoiceResponse(key, orderId, query);
	expect(response.status, await response.clone().text()).toBe(200);
	expect(response.headers.get("Content-Type")).toMatch(/^text\/html; ?charset=utf-8/i);
	expect(response.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
	return response.text();
}

/** Every value the invoice prints, against the order as GET /v1/orders/{id} answers it. */
function expectInvoiceOf(html: string, order: Order, brandName: string): void {
	const costs = order.costs;
	if (costs === null) throw new Error("the order is not priced");
	const landed = costs.landed_cost;
	const terms = order.duty_terms;
	if (landed === null || terms === null) throw new Error("the order has no landed cost or terms");
	expect(html).toContain("<h1>Commercial invoice</h1>");
	expect(html).toContain(`<dd data-testid="invoice-number">${invoiceNumber(order.id)}</dd>`);
	expect(html).toContain(`<dd data-testid="invoice-date">${order.created_at.slice(0, 10)}</dd>`);
	expect(html).toContain(`<dd>${escapeHtml(order.external_id)}</dd>`);
	expect(section(html, '<section aria-label="Sender">', "</section>")).toContain(escapeHtml(brandName));
	const recipient = section(html, '<section aria-label="Recipient">', "</section>");
	for (const line of postalLines(order.ship_to)) expect(recipient).toContain(escapeHtml(line));
	expect(html).toContain(`<dd data-testid="terms">${TERMS_WORDS[terms]}</dd>`);
	if (landed.ioss) expect(html).toMatch(/<dd data-testid="ioss">IM\d{10}<\/dd>/);
	else expect(html).not.toContain("IOSS");
	const rows = section(html, "<tbody>", "</tbody>").split("</tr>");
	const totals = new Map<Currency, number>();
	for (const [index, item] of order.items.entries()) {
		const row = rows[index] ?? "";
		if (item.declared_value === null) throw new Error(`item ${index} has no declared value`);
		const { amount, currency } = item.declared_value;
		expect(row).toContain(`data-label="Quantity">${item.quantity}</td>`);
		expect(row).toContain(`class="code" data-label="Tariff code">${item.customs.tariff_code}</td>`);
		expect(row).toContain(`data-label="Origin">${landed.origin}</td>`);
		expect(row).toContain(`data-label="Unit value">${moneyText(amount, currency)}</td>`);
		expect(row).toContain(`data-label="Line value">${moneyText(amount * item.quantity, currency)}</td>`);
		expect(row).toContain(item.customs.kind === "framed_print" ? "Framed art print" : "unframed");
		totals.set(currency, (totals.get(currency) ?? 0) + amount * item.quantity);
	}
	const shown = section(html, 'data-testid="totals"', "</dl>");
	for (const [currency, amount] of totals) {
		expect(shown).toContain(`<dt>Goods value (${currency})</dt><dd>${moneyText(amount, currency)}</dd>`);
	}
	expect(shown).toContain(`<dt>Shipping (${costs.currency})</dt><dd>${moneyText(costs.shipping, costs.currency)}</dd>`);
	expect(html).toContain("<dd>Sale of goods</dd>");
}

describe("GET /v1/ops/orders/{id}/commercial-invoice", () => {
	it.each(CASES)("an order to $country ($currency, $terms) prints every value as the order has it", async (billing) => {
		const { opsKey, order } = await orderTo(billing.country, billing);
		expect(order.costs?.landed_cost?.coverage).toBe("estimated");
		expect(order.duty_terms).toBe(billing.terms);
		if (billing.declared !== null) {
			expect(order.items[0]?.declared_value).toEqual({
				amount: billing.declared,
				currency: billing.currency,
				source: "partner",
			});
		}
		expectInvoiceOf(await invoiceHtml(opsKey, order.id), order, `Lumen ${billing.country}`);
	});

	it("prints the IOSS number for a duty-paid consignment to the EU within 150 euros, and not when duty is unpaid", async () => {
		const paid = await orderTo("DE", { currency: "EUR", terms: "ddp", declared: 2000 });
		expect(paid.order.costs?.landed_cost?.ioss).toBe(true);
		expect(await invoiceHtml(paid.opsKey, paid.order.id)).toMatch(
			/<dt>IOSS number<\/dt><dd data-testid="ioss">IM\d{10}<\/dd>/,
		);
		const unpaid = await orderTo("DE", { currency: "EUR", terms: "dap", declared: 2000 });
		expect(unpaid.order.costs?.landed_cost?.ioss).toBe(false);
		expect(await invoiceHtml(unpaid.opsKey, unpaid.order.id)).not.toContain("IOSS");
	});

	it("a domestic order has none: 404 no_commercial_invoice, and the ops view gives no link", async () => {
		const { opsKey, order } = await orderTo("US");
		expect(order.costs?.landed_cost?.coverage).toBe("domestic");
		const error = await expectError(await invoiceResponse(opsKey, order.id), "not_found");
		expect(error.code).toBe("no_commercial_invoice");
		expect(error.message).toContain(order.id);
		const view = (await (await api(`/v1/ops/orders/${order.id}`, { key: opsKey })).json()) as {
			commercial_invoice_url: string | null;
		};
		expect(view.commercial_invoice_url).toBeNull();
	});

	it("the ops view of an order abroad links its invoice", async () => {
		const { opsKey, order } = await orderTo("GB");
		const view = (await (await api(`/v1/ops/orders/${order.id}`, { key: opsKey })).json()) as {
			commercial_invoice_url: string | null;
		};
		expect(view.commercial_invoice_url).toBe(`/v1/ops/orders/${order.id}/commercial-invoice`);
	});

	it("escapes markup in the brand and the ship-to, and lets very long words wrap", async () => {
		const hostile = `<script>alert(1)</script><b onmouseover="x">${"Ü".repeat(80)}`;
		const { key, file, opsKey } = await partnerWithFile({ name: "Hostile Gallery", opsKey: true });
		await putProfile(key, { brand_name: hostile.slice(0, 80) });
		const order = await createOrder(key, {
			external_id: externalId("CI-X"),
			ship_to: { ...SHIP_TOS.FR, name: hostile.slice(0, 100), address1: `${"Boulevard".repeat(20)} 1` },
			items: [{ print_file_id: file, width_in: 8, height_in: 10 }],
		});
		const html = await invoiceHtml(opsKey, order.id);
		expect(html).not.toContain("<script>");
		expect(html).not.toContain("<b ");
		expect(html).toContain(escapeHtml(hostile.slice(0, 80)));
		expect(html).toContain(escapeHtml(hostile.slice(0, 100)));
		expect(html).toContain("overflow-wrap: anywhere");
	});

	it("prints only the order's own account's brand, never another partner's", async () => {
		const first = await orderTo("DE", { currency: "EUR", terms: "dap", declared: null });
		const second = await orderTo("FR", { currency: "EUR", terms: "dap", declared: null });
		const html = await invoiceHtml(first.opsKey, second.order.id);
		expect(html).toContain("Lumen FR");
		expect(html).not.toContain("Lumen DE");
	});

	it("?paper= forces Letter or A4; another paper is a 422 on paper", async () => {
		const { opsKey, order } = await orderTo("CA");
		expect(await invoiceHtml(opsKey, order.id, "?paper=a4")).toContain("@page { size: A4 portrait;");
		expect(await invoiceHtml(opsKey, order.id, "?paper=letter")).toContain("@page { size: letter portrait;");
		await expectError(await invoiceResponse(opsKey, order.id, "?paper=legal"), "validation_error", "paper");
	});

	it("a partner key is a 403, even for the partner's own order; an unknown order is a 404 on id", async () => {
		const { partner, key, order } = await orderTo("AU");
		await expectError(await invoiceResponse(key, order.id), "forbidden");
		await expectError(await invoiceResponse(partner.keys.test.key, order.id), "forbidden");
		await expectError(await invoiceResponse(await createKeyWithScopes(["ops"]), "ord_doesnotexist"), "not_found", "id");
	});
});

describe("GET /v1/ops/orders/{id}/commercial-invoice: configuration", () => {
	it("without the facility's address it is a 409 invoice_settings_unset naming the setting", async () => {
		const { opsKey, order } = await orderTo("GB", { currency: "GBP", terms: "ddp", declared: null });
		const { app } = await import("../../src/app.ts");
		const unset = { ...env, SHIP_FROM_ADDRESS: "" };
		const request = new Request(`https://api.test/v1/ops/orders/${order.id}/commercial-invoice`, {
			headers: { Authorization: `Bearer ${opsKey}` },
		});
		const error = await expectError(await app.request(request, undefined, unset), "conflict");
		expect(error.code).toBe("invoice_settings_unset");
		expect(error.message).toContain("SHIP_FROM_ADDRESS");
	});
});

describe("GET /ops/orders/:id/commercial-invoice (the console)", () => {
	it("the order page links the invoice of an order abroad, which opens as the same page", async () => {
		const operator = await signedInOperator();
		const { order } = await orderTo("JP", { currency: "JPY", terms: "ddp", declared: 9800 });
		const page = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		expect(page).toContain(`<a href="/ops/orders/${order.id}/commercial-invoice">Commercial invoice</a>`);
		const response = await consoleRequest(`/ops/orders/${order.id}/commercial-invoice`, { cookie: operator.cookie });
		expectInvoiceOf(await htmlOf(response, 200), order, "Lumen JP");
		expect(response.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
	});

	it("a domestic order's page has no link, and its invoice is a 404 page saying why", async () => {
		const operator = await signedInOperator();
		const { order } = await orderTo("US");
		const page = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		expect(page).not.toContain("commercial-invoice");
		const refused = await htmlOf(
			await consoleRequest(`/ops/orders/${order.id}/commercial-invoice`, { cookie: operator.cookie }),
			404,
		);
		expect(alertOf(refused)).toMatch(/crosses no border/);
	});

	it("needs a signed-in operator", async () => {
		const { order } = await orderTo("AU", { currency: "AUD", terms: "dap", declared: null });
		const response = await consoleRequest(`/ops/orders/${order.id}/commercial-invoice`);
		expect(response.status).toBe(303);
	});
});
