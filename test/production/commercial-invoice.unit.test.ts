import { describe, expect, it } from "vitest";
import { postalLines } from "../../src/addresses/postal-lines.ts";
import {
	type CommercialInvoiceContent,
	goodsTotals,
	type InvoiceItem,
	invoiceNumber,
	renderCommercialInvoice,
} from "../../src/production/commercial-invoice.tsx";

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

const FACILITY = {
	name: "Dispatch, Harbour Works",
	address1: "200 Industrial Way",
	city: "Newark",
	state: "NJ",
	zip: "07114",
	country: "US",
};

const FRAMED: InvoiceItem = {
	position: 0,
	widthIn: 16,
	heightIn: 20,
	frame: { name: "Walnut Flat 3/4 in" },
	mat: { name: "Bright White" },
	quantity: 2,
	declaredValue: { amount: 8950, currency: "EUR" },
	customs: { kind: "framed_print", tariff_code: "4911.91.00" },
	weight: { lb: 10, sharedBox: false },
};

const FLAT: InvoiceItem = {
	position: 1,
	widthIn: 8,
	heightIn: 10,
	frame: null,
	mat: null,
	quantity: 1,
	declaredValue: { amount: 1500, currency: "EUR" },
	customs: { kind: "unframed_print", tariff_code: "4911.91.00" },
	weight: { lb: 1, sharedBox: false },
};

function content(overrides: Partial<CommercialInvoiceContent> = {}): CommercialInvoiceContent {
	return {
		order: { id: "ord_7Hq2", external_id: "HMS-2001", created_at: "2026-11-28T09:15:00.000Z", duty_terms: "ddp" },
		brandName: "Lumen & Oak Editions",
		shipFrom: FACILITY,
		shipTo: {
			name: "Käthe Kollwitz",
			address1: "Torstraße 5",
			city: "Berlin",
			zip: "10119",
			country: "DE",
			phone: "+49 30 1234567",
		},
		landedCost: { origin: "US", ioss: true },
		iossNumber: "IM3720000001",
		shipping: { amount: 2400, currency: "EUR" },
		items: [FRAMED, FLAT],
		packages: { count: 3, weightLb: 11 },
		...overrides,
	};
}

describe("renderCommercialInvoice", () => {
	it("is a complete page titled Commercial invoice, numbered from the order's id and dated the order's day", async () => {
		const html = await renderCommercialInvoice(content(), null);
		expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
		expect(html).toContain("<h1>Commercial invoice</h1>");
		expect(invoiceNumber("ord_7Hq2")).toBe("CI-ord_7Hq2");
		expect(html).toContain('<dd data-testid="invoice-number">CI-ord_7Hq2</dd>');
		expect(html).toContain('<dd data-testid="invoice-date">2026-11-28</dd>');
		expect(html).toContain("<dd>HMS-2001</dd>");
		expect(html).toContain("<title>Commercial invoice CI-ord_7Hq2 · HMS-2001</title>");
	});

	it("sends from the facility under the partner's brand, to the ship-to in its country's postal lines", async () => {
		const html = await renderCommercialInvoice(content(), null);
		const sender = section(html, '<section aria-label="Sender">', "</section>");
		expect(sender).toContain("Lumen &amp; Oak Editions");
		for (const line of postalLines(FACILITY)) expect(sender).toContain(escapeHtml(line));
		const recipient = section(html, '<section aria-label="Recipient">', "</section>");
		for (const line of ["Käthe Kollwitz", "Torstraße 5", "10119 Berlin", "Germany"]) expect(recipient).toContain(line);
		expect(recipient).toContain("Phone: +49 30 1234567");
	});

	it("leaves the brand out for a partner without one", async () => {
		const html = await renderCommercialInvoice(content({ brandName: null }), null);
		expect(html).not.toContain('data-testid="brand-name"');
	});

	it("states the terms in words: DDP paid by the sender, DAP payable by the receiver", async () => {
		expect(await renderCommercialInvoice(content(), null)).toContain(
			'<dd data-testid="terms">DDP — duties and taxes paid by the sender</dd>',
		);
		const dap = content({
			order: { ...content().order, duty_terms: "dap" },
			landedCost: { origin: "US", ioss: false },
		});
		expect(await renderCommercialInvoice(dap, null)).toContain(
			'<dd data-testid="terms">DAP — duties and taxes payable by the receiver</dd>',
		);
	});

	it("prints the IOSS number only when the landed cost was charged under it", async () => {
		expect(await renderCommercialInvoice(content(), null)).toContain('<dd data-testid="ioss">IM3720000001</dd>');
		const without = await renderCommercialInvoice(content({ landedCost: { origin: "US", ioss: false } }), null);
		expect(without).not.toContain("IOSS");
		expect(without).not.toContain("IM3720000001");
	});

	it("lists each item: description in the floor's words, quantity, tariff code, origin, unit and line value, weight", async () => {
		const rows = section(await renderCommercialInvoice(content(), null), "<tbody>", "</tbody>").split("</tr>");
		expect(rows[0]).toContain(
			"Framed art print (printed picture), 16 × 20 in, Walnut Flat 3/4 in frame, Bright White mat",
		);
		expect(rows[0]).toContain('data-label="Quantity">2</td>');
		expect(rows[0]).toContain('class="code" data-label="Tariff code">4911.91.00</td>');
		expect(rows[0]).toContain('data-label="Origin">US</td>');
		expect(rows[0]).toContain('data-label="Unit value">€89.50</td>');
		expect(rows[0]).toContain('data-label="Line value">€179.00</td>');
		expect(rows[0]).toContain('class="num weight" data-label="Packed weight">10 lb (4.54 kg)</td>');
		expect(rows[1]).toContain("Art print (printed picture), unframed, 8 × 10 in<");
		expect(rows[1]).toContain('data-label="Line value">€15.00</td>');
	});

	it("totals the goods in the declared currency, then the shipping, the packages and their weight", async () => {
		const totals = section(await renderCommercialInvoice(content(), null), 'data-testid="totals"', "</dl>");
		expect(totals).toContain("<dt>Goods value (EUR)</dt><dd>€194.00</dd>");
		expect(totals).toContain("<dt>Shipping (EUR)</dt><dd>€24.00</dd>");
		expect(totals).toContain("<dt>Packages</dt><dd>3</dd>");
		expect(totals).toContain("<dt>Packed weight</dt><dd>11 lb (4.99 kg)</dd>");
	});

	it("writes yen without a minor unit and totals each currency apart when items declare two", async () => {
		const yen: InvoiceItem = { ...FLAT, declaredValue: { amount: 15000, currency: "JPY" }, quantity: 3 };
		const mixed = content({ items: [FRAMED, yen], shipping: { amount: 3900, currency: "JPY" }, packages: null });
		expect(goodsTotals(mixed.items)).toEqual([
			{ amount: 17900, currency: "EUR" },
			{ amount: 45000, currency: "JPY" },
		]);
		const html = await renderCommercialInvoice(mixed, null);
		expect(html).toContain('data-label="Line value">¥45,000</td>');
		expect(html).toContain("<dt>Goods value (JPY)</dt><dd>¥45,000</dd>");
		expect(html).toContain("<dt>Shipping (JPY)</dt><dd>¥3,900</dd>");
		expect(html).toContain('<dd data-testid="currency">EUR, JPY</dd>');
		expect(html).not.toContain("<dt>Packages</dt>");
	});

	it("gives the reason for export, the origin and destination countries, and a declaration with room to sign", async () => {
		const html = await renderCommercialInvoice(content(), null);
		expect(html).toContain("<dt>Reason for export</dt><dd>Sale of goods</dd>");
		expect(html).toContain("<dd>United States (US)</dd>");
		expect(html).toContain("<dd>Germany (DE)</dd>");
		const declaration = section(html, '<section class="declaration"', "</section>");
		expect(declaration).toContain("I declare that the information on this invoice is true and correct");
		for (const space of ["Signature", "Name", "Date"]) expect(declaration).toContain(`<div>${space}</div>`);
	});

	it("escapes markup in names and lets long words wrap", async () => {
		const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)>${"W".repeat(90)}`;
		const html = await renderCommercialInvoice(
			content({
				brandName: hostile,
				shipTo: { ...content().shipTo, name: hostile },
				items: [{ ...FRAMED, frame: { name: hostile } }],
			}),
			null,
		);
		expect(html).not.toContain("<script>");
		expect(html).not.toContain("<img");
		expect(html.split(escapeHtml(hostile)).length - 1).toBeGreaterThanOrEqual(3);
		expect(html).toContain("overflow-wrap: anywhere");
	});

	it("sizes the page for Letter or A4 when asked, else leaves it to the printer", async () => {
		expect(await renderCommercialInvoice(content(), "a4")).toContain("@page { size: A4 portrait;");
		expect(await renderCommercialInvoice(content(), "letter")).toContain("@page { size: letter portrait;");
		expect(await renderCommercialInvoice(content(), null)).toContain("@page { size: auto;");
	});
});
