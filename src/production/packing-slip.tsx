import type { ShipTo } from "../addresses/schema.ts";
import type { ShipToWarning } from "../addresses/ship-to-warnings.ts";
import { sizeText } from "../framing/words.ts";
import { PageHead } from "../http/page-head.tsx";
import { AddressLines, AddressWarningList } from "./address.tsx";
import type { OrderSheet, SheetItem } from "./order-sheet.ts";

/** Paper sizes a slip can be forced to; without one the printer's own paper is used. */
export const PAPER_SIZES = ["letter", "a4"] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];

/** Whether a query's `paper` names one of the sizes. */
export function isPaperSize(value: string): value is PaperSize {
	return (PAPER_SIZES as readonly string[]).includes(value);
}

/**
 * What of an order a slip prints: the order's sheet has it all, and a brand page's sample slip makes
 * one up. Nothing about money or the floor's work: the slip is the buyer's.
 */
export type SlipContent = {
	order: Pick<OrderSheet["order"], "external_id" | "created_at" | "gift_message" | "ship_to_warnings">;
	brand: OrderSheet["brand"];
	shipTo: OrderSheet["shipTo"];
	returnAddress: OrderSheet["returnAddress"];
	items: Pick<SheetItem, "position" | "widthIn" | "heightIn" | "frame" | "mat" | "quantity">[];
};

/** What a slip prints: the order's content and, when the partner has one, their logo as a data: URL. */
export type PackingSlipProps = {
	sheet: SlipContent;
	logoDataUrl: string | null;
	paper: PaperSize | null;
	/** A line for whoever looks at the slip on screen (a sample's "this is a sample"), never printed. */
	screenNotice?: string;
};

/**
 * The content is laid out for the narrower and shorter of the two papers (A4 is narrower, Letter
 * shorter): 180 mm wide with 14 mm margins fits both, so one slip prints on either without scaling.
 */
function slipCss(paper: PaperSize | null): string {
	const size = paper === "letter" ? "letter portrait" : paper === "a4" ? "A4 portrait" : "auto";
	return `
@page { size: ${size}; margin: 14mm; }
* { box-sizing: border-box; }
html { color: #1a1a1a; background: #fff; }
body { margin: 0; font: 10.5pt/1.45 "Helvetica Neue", Helvetica, Arial, sans-serif; }
.slip { max-width: 180mm; margin: 0 auto; padding: 8mm 0; }
@media print { .slip { padding: 0; } }
header { display: flex; justify-content: space-between; align-items: flex-start; gap: 8mm;
  border-bottom: 1.5pt solid #1a1a1a; padding-bottom: 5mm; margin-bottom: 6mm; }
.brand { display: flex; gap: 5mm; align-items: flex-start; }
.brand img { max-width: 40mm; max-height: 22mm; object-fit: contain; }
.brand h1 { font-size: 16pt; margin: 0 0 1.5mm; letter-spacing: .01em; }
.sender { font-size: 9pt; color: #444; }
.doc { text-align: right; white-space: nowrap; }
.doc h2 { font-size: 13pt; margin: 0 0 1.5mm; font-weight: 600; }
.doc dl { margin: 0; font-size: 9.5pt; display: grid; grid-template-columns: auto auto; gap: .5mm 3mm; }
.doc dt { color: #555; } .doc dd { margin: 0; font-weight: 600; }
h3 { font-size: 8.5pt; text-transform: uppercase; letter-spacing: .08em; color: #555; margin: 0 0 1.5mm; }
.ship-to { margin-bottom: 6mm; font-size: 11pt; }
address { font-style: normal; }
table { width: 100%; border-collapse: collapse; margin-bottom: 6mm; page-break-inside: auto; }
th, td { text-align: left; padding: 2mm 2.5mm; border-bottom: .5pt solid #bbb; vertical-align: top; }
th { font-size: 8.5pt; text-transform: uppercase; letter-spacing: .06em; color: #555; border-bottom: 1pt solid #1a1a1a; }
td.qty, th.qty { text-align: right; }
tr { page-break-inside: avoid; }
.note { border: .75pt solid #999; border-radius: 2mm; padding: 3.5mm 4.5mm; margin-bottom: 5mm; page-break-inside: avoid; }
.note p { margin: 0; white-space: pre-line; }
.gift p { font-size: 12pt; font-style: italic; }
footer { margin-top: 6mm; font-size: 9.5pt; color: #333; border-top: .5pt solid #bbb; padding-top: 3mm; }
footer a { color: inherit; }
.screen-only { border: 2pt solid #a40; color: #7a2e00; background: #fff4e5; padding: 3mm 4mm; margin-bottom: 5mm; }
.screen-only h3 { color: inherit; }
.screen-only ul { margin: 0; padding-left: 5mm; }
@media print { .screen-only { display: none; } }
/* On a phone's screen (never on paper): the header wraps and long ids break, nothing runs off the side. */
@media screen and (max-width: 40rem) {
  .slip { padding: 5mm 4mm; }
  header { flex-wrap: wrap; }
  .doc { text-align: left; white-space: normal; min-width: 0; }
  .doc dl { grid-template-columns: auto minmax(0, 1fr); }
  .doc dd, .ship-to, .sender { overflow-wrap: anywhere; }
  th, td { padding: 2mm 1.5mm; }
}
`;
}

/**
 * The address warnings for the packer who opens the slip: on screen only, never on the printed slip,
 * which is the buyer's (they are the floor's and the partner's business, not the buyer's).
 */
function AddressWarningsNotice({ warnings }: { warnings: readonly ShipToWarning[] }) {
	if (warnings.length === 0) return null;
	return (
		<section data-testid="address-warnings" class="screen-only" aria-label="Address warnings">
			<h3>Check the address before shipping (not printed)</h3>
			<AddressWarningList warnings={warnings} />
		</section>
	);
}

function ShipToBlock({ shipTo }: { shipTo: ShipTo }) {
	return (
		<section class="ship-to" aria-label="Ship to">
			<h3>Ship to</h3>
			<AddressLines address={shipTo} />
		</section>
	);
}

/**
 * The packing slip: a complete, printable HTML page. It carries the partner's brand when the
 * partner has a profile and no brand at all otherwise; nothing on it names the fulfilment service.
 */
export function PackingSlip({ sheet, logoDataUrl, paper, screenNotice }: PackingSlipProps) {
	const { order, brand, items } = sheet;
	const title = `${brand === null ? "" : `${brand.brand_name} · `}Packing slip ${order.external_id}`;
	const support = brand === null ? [] : [brand.support_email, brand.support_url].filter((value) => value !== null);
	return (
		<html lang="en">
			<PageHead title={title} css={slipCss(paper)} />
			<body>
				<main class="slip">
					{screenNotice === undefined ? null : (
						<p class="screen-only" role="note">
							{screenNotice}
						</p>
					)}
					<AddressWarningsNotice warnings={order.ship_to_warnings} />
					<header>
						<div class="brand">
							{logoDataUrl === null || brand === null ? null : <img src={logoDataUrl} alt={brand.brand_name} />}
							<div>
								{brand === null ? null : <h1>{brand.brand_name}</h1>}
								{sheet.returnAddress === null ? null : (
									<div class="sender">
										<AddressLines address={sheet.returnAddress} />
									</div>
								)}
							</div>
						</div>
						<div class="doc">
							<h2>Packing slip</h2>
							<dl>
								<dt>Order</dt>
								<dd>{order.external_id}</dd>
								<dt>Date</dt>
								<dd>{order.created_at.slice(0, 10)}</dd>
							</dl>
						</div>
					</header>
					<ShipToBlock shipTo={sheet.shipTo} />
					<table>
						<thead>
							<tr>
								<th>Item</th>
								<th>Print size</th>
								<th>Frame</th>
								<th>Mat</th>
								<th class="qty">Qty</th>
							</tr>
						</thead>
						<tbody>
							{items.map((item) => (
								<tr>
									<td>{item.position + 1}</td>
									<td>{sizeText({ width_in: item.widthIn, height_in: item.heightIn })}</td>
									<td>{item.frame?.name ?? "Unframed"}</td>
									<td>{item.mat?.name ?? "No mat"}</td>
									<td class="qty">{item.quantity}</td>
								</tr>
							))}
						</tbody>
					</table>
					{order.gift_message === null ? null : (
						<section class="note gift" aria-label="Gift message">
							<h3>A message for you</h3>
							<p>{order.gift_message}</p>
						</section>
					)}
					{brand?.packing_slip_message == null ? null : (
						<section class="note" aria-label="Message">
							<p>{brand.packing_slip_message}</p>
						</section>
					)}
					{support.length === 0 ? null : (
						<footer>
							Questions about your order?{" "}
							{brand?.support_email == null ? null : (
								<a href={`mailto:${brand.support_email}`}>{brand.support_email}</a>
							)}
							{brand?.support_email != null && brand.support_url !== null ? " · " : null}
							{brand?.support_url == null ? null : <a href={brand.support_url}>{brand.support_url}</a>}
						</footer>
					)}
				</main>
			</body>
		</html>
	);
}
