/**
 * Work tickets: what the framer needs to make one item, one printed page each. A to-scale drawing
 * of the finished piece (moulding in the frame's colour, each mat in its colour with its bevel
 * opening, the print area), every length in inches and fractions; the cut list (print and paper,
 * each mat's outer size, opening and borders, the reveal, glazing and backing, the four rails with
 * their long points, hardware); the framed preview with the file's image beside the drawing; and a QR
 * code of the order and item for pack-out. No prices.
 *
 * This file is the document and each ticket's header; the drawing is in `ticket-drawing.tsx`, the
 * preview is made in `ticket-preview.ts`, the cut list in `ticket-cut-table.tsx`, and the catalog's
 * names and colours in `ticket-look.ts`.
 */

import { raw } from "hono/html";
import type { ShipToWarning } from "../addresses/ship-to-warnings.ts";
import type { Catalog } from "../catalog/schema.ts";
import { cutList } from "../framing/cut-list.ts";
import { sizeText } from "../framing/words.ts";
import { PageHead } from "../http/page-head.tsx";
import { log } from "../log.ts";
import { AddressWarningList } from "./address.tsx";
import { warningWords } from "./item-words.ts";
import type { OrderSheet, SheetItem } from "./order-sheet.ts";
import { boxesText, type ItemBoxes, packageText } from "./ticket-boxes.ts";
import { ticketCode } from "./ticket-code.ts";
import { CutTable } from "./ticket-cut-table.tsx";
import { Drawing, Legend } from "./ticket-drawing.tsx";
import { type Look, lookOf } from "./ticket-look.ts";
import type { TicketPreview } from "./ticket-preview.ts";
import { qrCodeSvg } from "./ticket-qr.ts";

/**
 * One item's ticket: its order's sheet, the item, the boxes its units go in (null when unknown), and
 * its framed preview (left out: none to print, as for an item that cannot be built).
 */
export type TicketItem = { sheet: OrderSheet; item: SheetItem; boxes: ItemBoxes | null; preview?: TicketPreview };

/** The printed page's styles: one ticket a page, the drawing beside the cut list. */
const CSS = `
@page { size: letter portrait; margin: 12mm; }
* { box-sizing: border-box; }
html { color: #111; background: #fff; }
body { margin: 0; font: 10pt/1.4 "Helvetica Neue", Helvetica, Arial, sans-serif; }
.ticket { max-width: 186mm; margin: 0 auto; padding: 6mm 0; break-after: page; page-break-after: always; }
.ticket:last-of-type { break-after: auto; page-break-after: auto; }
header { display: flex; justify-content: space-between; gap: 6mm; border-bottom: 1.5pt solid #111; padding-bottom: 3mm; margin-bottom: 4mm; }
header h1 { font-size: 15pt; margin: 0 0 1mm; }
header p { margin: 0; }
.code { text-align: center; font: 7pt/1.2 ui-monospace, Menlo, monospace; }
.code svg { width: 26mm; height: 26mm; display: block; margin: 0 auto 1mm; }
.test { display: inline-block; border: 1.5pt solid #b00; color: #b00; font-weight: 700; padding: 0 2mm; margin-left: 2mm; }
.make { font-size: 13pt; font-weight: 700; }
.pack { margin-top: 1mm; padding: 1mm 2mm; border: 1pt solid #111; display: inline-block; }
.pack .size { font-weight: 400; }
.body { display: grid; grid-template-columns: 1fr 1fr; gap: 5mm; align-items: start; }
.drawing svg { width: 100%; height: auto; max-height: 110mm; }
.preview { display: flex; gap: 3mm; align-items: flex-start; margin-top: 3mm; break-inside: avoid; }
.preview img { display: block; width: auto; height: auto; max-width: 45mm; max-height: 55mm; border: .5pt solid #999; }
.preview p { margin: 0; font-size: 8pt; }
.legend { display: flex; flex-wrap: wrap; gap: 1mm 4mm; font-size: 8pt; margin-top: 1mm; }
.swatch { display: inline-block; width: 3mm; height: 3mm; border: .5pt solid #333; vertical-align: middle; margin-right: 1mm; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 1.2mm 1.5mm; border-bottom: .5pt solid #bbb; vertical-align: top; }
th { font-size: 8pt; text-transform: uppercase; letter-spacing: .05em; color: #444; width: 30%; }
h2 { font-size: 9pt; text-transform: uppercase; letter-spacing: .07em; margin: 4mm 0 1.5mm; color: #333; }
ul { margin: 0; padding-left: 4mm; }
.warn { color: #a40; font-weight: 600; }
.measure { white-space: nowrap; }
.warn-box { border: 2pt solid #a40; color: #a40; padding: 2mm 3mm; margin: 0 0 4mm; break-inside: avoid; }
.warn-box p { margin: 0 0 1mm; font-weight: 700; text-transform: uppercase; letter-spacing: .05em; }
.warn-box strong { font-weight: 700; }
.empty { padding: 20mm 0; text-align: center; }
nav { margin: 4mm auto; max-width: 186mm; }
@media print { nav { display: none; } .ticket { padding: 0; } }
/* On a phone's screen (never on paper): one column, long ids wrap, nothing runs off the side. */
@media screen and (max-width: 40rem) {
  body { font-size: 11pt; }
  .ticket, nav { padding: 4mm 4mm 6mm; }
  header { flex-wrap: wrap; }
  header h1, header p, .code { overflow-wrap: anywhere; }
  .body { grid-template-columns: minmax(0, 1fr); }
  th { width: 6.5rem; }
  td { overflow-wrap: anywhere; }
  .preview { flex-wrap: wrap; }
}
`;

/** The QR code of the order and item, as inline SVG (`ticket-qr.ts`). */
function Code({ orderId, itemId }: { orderId: string; itemId: string }) {
	const code = ticketCode(orderId, itemId);
	const svg = qrCodeSvg(code);
	return (
		<div class="code">
			<div dangerouslySetInnerHTML={{ __html: svg }} />
			{orderId}
			<br />
			{itemId}
		</div>
	);
}

/**
 * An item that cannot be built: what was asked, in words (an unknown part named as sent), and why
 * it cannot be made. No drawing and no cut list: any size on them would be made up.
 */
function CannotBuild({ item }: { item: SheetItem }) {
	const reasons =
		item.cannotBuild.length > 0 ? item.cannotBuild : ["Its dimensions cannot be worked out from its size and mat."];
	return (
		<div class="cannot-build">
			<p class="warn">
				This item cannot be built until it is fixed ({sizeText({ width_in: item.widthIn, height_in: item.heightIn })}
				).
			</p>
			<ul class="warn">
				{reasons.map((reason) => (
					<li>{reason}</li>
				))}
			</ul>
			<h2>As ordered</h2>
			<table>
				<tbody>
					{item.framing.map((line) => (
						<tr>
							<th scope="row">{line.label}</th>
							<td>{line.text}</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	);
}

/** The item's warnings in words, boxed across the page under the header: on screen and on paper. */
function TicketWarnings({ codes }: { codes: readonly string[] }) {
	if (codes.length === 0) return null;
	return (
		<div class="warn-box" role="note">
			<p>Check before framing:</p>
			<ul>
				{codes.map((code) => {
					const words = warningWords(code);
					return (
						<li>
							<strong>{words.title}.</strong> {words.advice}
						</li>
					);
				})}
			</ul>
		</div>
	);
}

/** The order's address warnings, boxed like the item's: the box must not go to an address a carrier may refuse. */
function AddressWarnings({ warnings }: { warnings: readonly ShipToWarning[] }) {
	if (warnings.length === 0) return null;
	return (
		<div class="warn-box" role="note" data-testid="address-warnings">
			<p>Check the address before the box is sent:</p>
			<AddressWarningList warnings={warnings} />
		</div>
	);
}

/** Which box the item's units go in, and the box's size and billable weight when the model gives them. */
function PackLine({ boxes }: { boxes: ItemBoxes }) {
	const [box] = boxes.packages;
	const each = boxes.numbers.length > 1 ? " each" : "";
	return (
		<p class="pack" data-testid="pack">
			<strong>{boxesText(boxes)}</strong>
			{box === undefined ? null : (
				<span class="size">
					{" "}
					· {packageText(box)}
					{each}
				</span>
			)}
		</p>
	);
}

/** The item's framed preview beside the drawing, with what it is; or, without one, why, in words. */
function TicketPreviewFigure({ item, preview }: { item: SheetItem; preview: TicketPreview }) {
	if (preview.kind === "words") {
		return (
			<div class="preview" data-testid="preview">
				<p class="warn">{preview.text}</p>
			</div>
		);
	}
	return (
		<div class="preview" data-testid="preview">
			<img
				src={preview.dataUrl}
				width={preview.width}
				height={preview.height}
				alt={`Framed preview of ${item.name}: the finished piece with the print file's image, drawn to scale`}
			/>
			<p>
				Framed preview, to scale: check the image and its crop against the print.
				{preview.note === null ? null : (
					<>
						<br />
						<span class="warn">{preview.note}</span>
					</>
				)}
			</p>
		</div>
	);
}

function Ticket({ entry, look }: { entry: TicketItem; look: Look }) {
	const { sheet, item } = entry;
	const { order } = sheet;
	const cut = cutList(
		{ width_in: item.widthIn, height_in: item.heightIn },
		item.spec,
		item.spec.frame === null ? null : look.frameWidth(item.spec.frame),
	);
	return (
		<section class="ticket" data-item-id={item.id}>
			<header>
				<div>
					<h1>
						Work ticket · {order.external_id}
						{order.mode === "test" ? <span class="test">TEST</span> : null}
					</h1>
					<p>
						<strong>{item.name}</strong> · {sheet.account.name} · order {order.status.replaceAll("_", " ")}
					</p>
					<p class="make">Make {item.quantity}</p>
					{entry.boxes === null ? null : <PackLine boxes={entry.boxes} />}
					{order.reprint_of === null ? null : (
						<p class="make">
							REPRINT of {order.reprint_of} (claim {order.claim_id})
						</p>
					)}
					{item.file === null ? null : (
						<p>
							File <code>{item.file.id}</code>
							{item.file.format === null ? null : ` · ${item.file.format.toUpperCase()}`}
							{item.file.width_px === null || item.file.height_px === null
								? null
								: ` · ${item.file.width_px} × ${item.file.height_px} px`}
							{item.effectiveDpi === null ? null : ` · ${item.effectiveDpi} DPI`}
							{item.file.expired_at === null ? null : ` · expired ${item.file.expired_at.slice(0, 10)}, bytes deleted`}
						</p>
					)}
				</div>
				<Code orderId={order.id} itemId={item.id} />
			</header>
			<TicketWarnings codes={item.warnings} />
			<AddressWarnings warnings={order.ship_to_warnings} />
			{cut === null || item.cannotBuild.length > 0 ? (
				<CannotBuild item={item} />
			) : (
				<div class="body">
					<div class="drawing">
						<Drawing cut={cut} look={look} />
						<Legend cut={cut} look={look} />
						{entry.preview === undefined ? null : <TicketPreviewFigure item={item} preview={entry.preview} />}
					</div>
					<div>
						<h2>Cut list</h2>
						<CutTable cut={cut} look={look} />
					</div>
				</div>
			)}
		</section>
	);
}

/** In place of a ticket that failed to draw: which item, and that the floor must not make it from this page. */
function UndrawnTicket({ entry }: { entry: TicketItem }) {
	return (
		<section class="ticket" data-item-id={entry.item.id}>
			<h1>Work ticket · {entry.sheet.order.external_id}</h1>
			<p class="warn">
				This ticket could not be drawn ({entry.item.name}, item {entry.item.id} of order {entry.sheet.order.id}). Do not
				make it from this page: open the order in the console.
			</p>
		</section>
	);
}

/**
 * One ticket as HTML. A ticket that fails to draw is replaced by a notice (and logged), so one bad
 * item never takes down a batch of everyone's tickets.
 */
async function ticketHtml(entry: TicketItem, look: Look): Promise<string> {
	try {
		return await (<Ticket entry={entry} look={look} />).toString();
	} catch (error) {
		log.error("work_ticket.undrawn", {
			order_id: entry.sheet.order.id,
			item_id: entry.item.id,
			message: error instanceof Error ? error.message : String(error),
		});
		return await (<UndrawnTicket entry={entry} />).toString();
	}
}

/** A document of tickets, a page per item; `next` links the next batch (on screen only); `unread` names orders left out. */
export async function renderWorkTickets(
	entries: readonly TicketItem[],
	catalog: Catalog,
	options: { title: string; next: string | null; unread?: readonly { id: string; externalId: string }[] },
): Promise<string> {
	const look = lookOf(catalog);
	const tickets = await Promise.all(entries.map((entry) => ticketHtml(entry, look)));
	const page = await (
		<html lang="en">
			<PageHead title={options.title} css={CSS} />
			<body>
				{(options.unread ?? []).map((order) => (
					<p class="warn">
						Order {order.externalId} ({order.id}) could not be read: its tickets are not in this batch. Open it in the
						console.
					</p>
				))}
				{entries.length === 0 ? <p class="empty">No items to make.</p> : null}
				{tickets.map((ticket) => raw(ticket))}
				{options.next === null ? null : (
					<nav>
						<a href={options.next}>Next tickets</a>
					</nav>
				)}
			</body>
		</html>
	).toString();
	return `<!doctype html>${page}`;
}

/** Every item of these sheets, in order and item order, with the boxes its units go in and its framed preview. */
export function ticketItems(
	sheets: readonly OrderSheet[],
	boxes: ReadonlyMap<string, ItemBoxes>,
	previews: ReadonlyMap<string, TicketPreview> = new Map(),
): TicketItem[] {
	return sheets.flatMap((sheet) =>
		sheet.items.map((item) => {
			const preview = previews.get(item.id);
			return { sheet, item, boxes: boxes.get(item.id) ?? null, ...(preview === undefined ? {} : { preview }) };
		}),
	);
}
