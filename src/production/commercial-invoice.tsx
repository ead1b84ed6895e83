/**
 * The commercial invoice that travels with an order across a border (what customs reads, a CN23's
 * content): who sends and who receives, the delivery terms, the IOSS number when the tax was charged
 * under it, each item's description, tariff code, origin and declared value, the totals, the reason
 * for export, and a declaration to sign. Pure: the page is a function of its content, which
 * `invoice-page.ts` reads from an order.
 */

import { countryName } from "../addresses/postal-lines.ts";
import type { ShipTo } from "../addresses/schema.ts";
import type { LandedCost } from "../customs/landed-cost.ts";
import type { DutyTerms, TariffKind } from "../customs/tables.ts";
import { sizeText } from "../framing/words.ts";
import { PageHead } from "../http/page-head.tsx";
import { type Currency, moneyText } from "../money/currencies.ts";
import { AddressLines } from "./address.tsx";
import type { PaperSize } from "./packing-slip.tsx";

/** An amount in a currency's minor units, as an order's declared values are. */
export type Money = { amount: number; currency: Currency };

/** One item of the invoice: the floor's words for it, how many, what customs reads it as and its declared value. */
export type InvoiceItem = {
	position: number;
	widthIn: number;
	heightIn: number;
	frame: { name: string } | null;
	mat: { name: string } | null;
	quantity: number;
	/** The value of one unit, as the order declares it; null on an item made before declared values. */
	declaredValue: Money | null;
	customs: { kind: TariffKind; tariff_code: string | null };
	/** The packed weight of the item's boxes, in whole pounds; null where the order's packages give none. */
	weight: { lb: number; sharedBox: boolean } | null;
};

/** Everything the invoice prints, read from one order (and the service's configuration). */
export type CommercialInvoiceContent = {
	order: { id: string; external_id: string; created_at: string; duty_terms: DutyTerms };
	/** The partner's brand as the packing slip prints it; null when the partner has none. */
	brandName: string | null;
	/** The service's facility the order ships from. */
	shipFrom: ShipTo;
	shipTo: ShipTo;
	landedCost: Pick<LandedCost, "origin" | "ioss">;
	/** The service's IOSS number; printed only when the landed cost says the tax was charged under it. */
	iossNumber: string | null;
	/** The shipping the order was charged, in the order's currency. */
	shipping: Money;
	items: InvoiceItem[];
	/** The order's boxes and their packed weight in whole pounds; null where the packages give none. */
	packages: { count: number; weightLb: number } | null;
};

/** What the terms mean for the buyer, as the invoice says them. */
export const TERMS_WORDS: Readonly<Record<DutyTerms, string>> = {
	ddp: "DDP — duties and taxes paid by the sender",
	dap: "DAP — duties and taxes payable by the receiver",
};

/** The reason for export every order of the service gives. */
export const REASON_FOR_EXPORT = "Sale of goods";

/** What customs reads each kind of piece as: printed pictures, framed or not, or a frame alone. */
const TARIFF_KIND_WORDS: Readonly<Record<TariffKind, string>> = {
	framed_print: "Framed art print (printed picture)",
	unframed_print: "Art print (printed picture), unframed",
	frame: "Picture frame",
};

/**
 * An item as customs reads it, its size, frame and mat in the floor's words (the packing slip's):
 * `Framed art print (printed picture), 16 × 20 in, Walnut Flat 3/4 in frame, Bright White mat`.
 */
export function customsDescription(item: InvoiceItem): string {
	const parts = [TARIFF_KIND_WORDS[item.customs.kind], sizeText({ width_in: item.widthIn, height_in: item.heightIn })];
	if (item.frame !== null) parts.push(`${item.frame.name} frame`);
	if (item.mat !== null) parts.push(`${item.mat.name} mat`);
	return parts.join(", ");
}

/** The invoice's number: the order's id, so the floor and customs find one from the other. */
export function invoiceNumber(orderId: string): string {
	return `CI-${orderId}`;
}

const KG_PER_LB = 0.45359237;

/** `5 lb (2.27 kg)`. */
export function weightText(lb: number): string {
	return `${lb} lb (${(lb * KG_PER_LB).toFixed(2)} kg)`;
}

/** The declared values summed per currency, in the order the items name them (one currency on a normal order). */
export function goodsTotals(items: readonly InvoiceItem[]): Money[] {
	const totals = new Map<Currency, number>();
	for (const item of items) {
		if (item.declaredValue === null) continue;
		const { currency, amount } = item.declaredValue;
		totals.set(currency, (totals.get(currency) ?? 0) + amount * item.quantity);
	}
	return [...totals].map(([currency, amount]) => ({ amount, currency }));
}

/**
 * Laid out, like the packing slip, 180 mm wide with 14 mm margins, which fits both A4 (narrower) and
 * Letter (shorter) without scaling. On a phone's screen the items' table becomes one block per item.
 */
function invoiceCss(paper: PaperSize | null): string {
	const size = paper === "letter" ? "letter portrait" : paper === "a4" ? "A4 portrait" : "auto";
	return `
@page { size: ${size}; margin: 14mm; }
* { box-sizing: border-box; }
html { color: #1a1a1a; background: #fff; }
body { margin: 0; font: 9.5pt/1.4 "Helvetica Neue", Helvetica, Arial, sans-serif; }
.invoice { max-width: 180mm; margin: 0 auto; padding: 8mm 0; overflow-wrap: anywhere; }
@media print { .invoice { padding: 0; } }
header { display: flex; justify-content: space-between; align-items: flex-start; gap: 6mm;
  border-bottom: 1.5pt solid #1a1a1a; padding-bottom: 3mm; margin-bottom: 4mm; }
h1 { font-size: 16pt; margin: 0; letter-spacing: .01em; }
.doc { margin: 0; display: grid; grid-template-columns: auto auto; gap: .5mm 3mm; }
.doc dt, .facts dt { color: #555; }
.doc dd, .facts dd { margin: 0; font-weight: 600; }
h2 { font-size: 8pt; text-transform: uppercase; letter-spacing: .08em; color: #555; margin: 0 0 1mm; }
.parties { display: grid; grid-template-columns: 1fr 1fr; gap: 6mm; margin-bottom: 4mm; }
.parties p { margin: 0; font-weight: 600; }
address { font-style: normal; }
.facts { display: grid; grid-template-columns: auto 1fr; gap: .5mm 4mm; margin: 0 0 4mm; }
table { width: 100%; border-collapse: collapse; margin-bottom: 3mm; }
th, td { text-align: left; padding: 1.5mm 1.5mm; border-bottom: .5pt solid #bbb; vertical-align: top; }
th { font-size: 7.5pt; text-transform: uppercase; letter-spacing: .05em; color: #555; border-bottom: 1pt solid #1a1a1a;
  overflow-wrap: normal; white-space: nowrap; }
.num { text-align: right; white-space: nowrap; }
.code { white-space: nowrap; }
td.weight { white-space: normal; }
tr { page-break-inside: avoid; }
.totals { margin: 0 0 4mm auto; display: grid; grid-template-columns: auto auto; gap: .5mm 5mm; width: max-content; max-width: 100%; }
.totals dt { color: #555; } .totals dd { margin: 0; text-align: right; font-weight: 600; }
.declaration { border-top: .5pt solid #bbb; padding-top: 3mm; page-break-inside: avoid; }
.declaration p { margin: 0 0 4mm; }
.signature { display: grid; grid-template-columns: 2fr 1.3fr 1fr; gap: 6mm; }
.signature div { border-top: .75pt solid #1a1a1a; padding-top: 1mm; margin-top: 10mm; color: #555; font-size: 8pt; }
/* On a phone's screen (never on paper): one column, each item a block of labelled lines. */
@media screen and (max-width: 40rem) {
  .invoice { padding: 5mm 4mm; }
  header { flex-wrap: wrap; }
  .parties { grid-template-columns: minmax(0, 1fr); }
  .doc, .facts { grid-template-columns: auto minmax(0, 1fr); }
  thead { display: none; }
  table, tbody, tr, td { display: block; width: 100%; }
  tr { border-bottom: 1pt solid #1a1a1a; padding: 1.5mm 0; }
  td, td.num, td.code, td.weight { border: 0; padding: .5mm 0; text-align: left; white-space: normal; }
  td[data-label]::before { content: attr(data-label) ": "; color: #555; }
  .signature { grid-template-columns: minmax(0, 1fr); gap: 0; }
}
`;
}

function ItemRow({ item, origin }: { item: InvoiceItem; origin: string }) {
	const { declaredValue: unit } = item;
	const weight =
		item.weight === null ? "—" : `${weightText(item.weight.lb)}${item.weight.sharedBox ? ", box shared" : ""}`;
	return (
		<tr>
			<td data-label="Item">{item.position + 1}</td>
			<td data-label="Description">{customsDescription(item)}</td>
			<td class="num" data-label="Quantity">
				{item.quantity}
			</td>
			<td class="code" data-label="Tariff code">
				{item.customs.tariff_code ?? "—"}
			</td>
			<td data-label="Origin">{origin}</td>
			<td class="num" data-label="Unit value">
				{unit === null ? "—" : moneyText(unit.amount, unit.currency)}
			</td>
			<td class="num" data-label="Line value">
				{unit === null ? "—" : moneyText(unit.amount * item.quantity, unit.currency)}
			</td>
			<td class="num weight" data-label="Packed weight">
				{weight}
			</td>
		</tr>
	);
}

/** The commercial invoice: a complete, printable HTML page, one page for a normal order on A4 or Letter. */
export function CommercialInvoice({ content, paper }: { content: CommercialInvoiceContent; paper: PaperSize | null }) {
	const { order, landedCost, shipping } = content;
	const number = invoiceNumber(order.id);
	const origin = landedCost.origin;
	const totals = goodsTotals(content.items);
	const currencies = [...new Set([...totals.map((total) => total.currency), shipping.currency])];
	return (
		<html lang="en">
			<PageHead title={`Commercial invoice ${number} · ${order.external_id}`} css={invoiceCss(paper)} />
			<body>
				<main class="invoice">
					<header>
						<h1>Commercial invoice</h1>
						<dl class="doc">
							<dt>Invoice</dt>
							<dd data-testid="invoice-number">{number}</dd>
							<dt>Date</dt>
							<dd data-testid="invoice-date">{order.created_at.slice(0, 10)}</dd>
							<dt>Order</dt>
							<dd>{order.external_id}</dd>
						</dl>
					</header>
					<div class="parties">
						<section aria-label="Sender">
							<h2>Sender (exporter)</h2>
							{content.brandName === null ? null : <p data-testid="brand-name">{content.brandName}</p>}
							<AddressLines address={content.shipFrom} />
						</section>
						<section aria-label="Recipient">
							<h2>Recipient (importer)</h2>
							<AddressLines address={content.shipTo} />
							{content.shipTo.phone === undefined ? null : <div>Phone: {content.shipTo.phone}</div>}
						</section>
					</div>
					<dl class="facts">
						<dt>Terms of delivery</dt>
						<dd data-testid="terms">{TERMS_WORDS[order.duty_terms]}</dd>
						{landedCost.ioss && content.iossNumber !== null ? (
							<>
								<dt>IOSS number</dt>
								<dd data-testid="ioss">{content.iossNumber}</dd>
							</>
						) : null}
						<dt>Reason for export</dt>
						<dd>{REASON_FOR_EXPORT}</dd>
						<dt>Country of origin</dt>
						<dd>
							{countryName(origin)} ({origin})
						</dd>
						<dt>Destination</dt>
						<dd>
							{countryName(content.shipTo.country)} ({content.shipTo.country})
						</dd>
						<dt>Currency</dt>
						<dd data-testid="currency">{currencies.join(", ")}</dd>
					</dl>
					<table>
						<thead>
							<tr>
								<th>Item</th>
								<th>Description</th>
								<th class="num">Qty</th>
								<th>Tariff code</th>
								<th>Origin</th>
								<th class="num">Unit value</th>
								<th class="num">Line value</th>
								<th class="num">Packed weight</th>
							</tr>
						</thead>
						<tbody>
							{content.items.map((item) => (
								<ItemRow item={item} origin={origin} />
							))}
						</tbody>
					</table>
					<dl class="totals" data-testid="totals">
						{totals.map((total) => (
							<>
								<dt>Goods value ({total.currency})</dt>
								<dd>{moneyText(total.amount, total.currency)}</dd>
							</>
						))}
						<dt>Shipping ({shipping.currency})</dt>
						<dd>{moneyText(shipping.amount, shipping.currency)}</dd>
						{content.packages === null ? null : (
							<>
								<dt>Packages</dt>
								<dd>{content.packages.count}</dd>
								<dt>Packed weight</dt>
								<dd>{weightText(content.packages.weightLb)}</dd>
							</>
						)}
					</dl>
					<section class="declaration" aria-label="Declaration">
						<p>
							I declare that the information on this invoice is true and correct, and that the goods described are of
							the origin stated and are exported for the reason given.
						</p>
						<div class="signature">
							<div>Signature</div>
							<div>Name</div>
							<div>Date</div>
						</div>
					</section>
				</main>
			</body>
		</html>
	);
}

/** The invoice as a complete HTML document. */
export async function renderCommercialInvoice(
	content: CommercialInvoiceContent,
	paper: PaperSize | null,
): Promise<string> {
	return `<!doctype html>${await CommercialInvoice({ content, paper }).toString()}`;
}
