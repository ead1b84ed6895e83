/**
 * An order's story for its partner: each move of its history in words with its time, and each
 * shipment with its carrier and a link to follow its tracking. Never a raw status code or ISO time.
 */
import { formatTime } from "../http/format.ts";
import type { OrderMoveRow } from "../orders/history.ts";
import type { ShipmentRow } from "../orders/shipments.ts";
import { HOLD_REASONS, type HoldReason } from "../orders/state-machine.ts";
import { holdReasonLabel, statusLabel } from "../orders/words.ts";
import type { SheetItem } from "../production/order-sheet.ts";

/** Whether a move's note is a hold reason (validation's holds keep their reason there). */
function isHoldReason(note: string | null): note is HoldReason {
	return note !== null && (HOLD_REASONS as readonly string[]).includes(note);
}

const CHANGED_FIELD_WORDS: Readonly<Record<string, string>> = {
	ship_to: "the recipient",
	shipping_method: "the shipping method",
	metadata: "the metadata",
	items: "the items",
};

/** What a move of the history did, as the partner reads it. */
export function moveWords(row: OrderMoveRow): string {
	switch (row.move) {
		case "create":
			return "Order received";
		case "start_validation":
			return "Checking the files and the items";
		case "pass_validation":
			return "Checked and sent to production";
		case "fail_validation":
			return `Put on hold: ${isHoldReason(row.note) ? holdReasonLabel(row.note) : "an item needs a fix"}`;
		case "hold":
			return "Put on hold by the production floor";
		case "file_changed":
			return "Put on hold: a print file changed after it was checked";
		case "release":
			return "Released from hold; checking again";
		case "fix_items":
			return "Item fixed; checking again";
		case "start":
			return "The production floor started making it";
		case "ship":
			return "Shipped";
		case "ship_partial":
			return "Some pieces shipped";
		case "deliver":
			return "Delivered";
		case "deliver_shipment":
			return "A shipment was delivered";
		case "return_shipment":
			return "A shipment came back to the sender";
		case "cancel":
			return "Canceled";
		case "update": {
			const fields = (row.note ?? "").split(", ").map((field) => CHANGED_FIELD_WORDS[field] ?? field);
			return `Changed: ${fields.join(", ")}`;
		}
	}
}

/** The history, oldest first: what happened, when, and the status it left the order in. */
export function TimelinePanel({ history }: { history: readonly OrderMoveRow[] }) {
	return (
		<section class="panel" aria-labelledby="timeline-heading">
			<h2 id="timeline-heading">Timeline</h2>
			<ol class="timeline">
				{history.map((row) => (
					<li>
						<time datetime={row.created_at}>{formatTime(row.created_at)}</time>
						<div>
							<strong>{moveWords(row)}</strong>
							<div class="muted">Now {statusLabel(row.to_status).toLowerCase()}</div>
						</div>
					</li>
				))}
			</ol>
		</section>
	);
}

const SHIPMENT_WORDS: Readonly<Record<ShipmentRow["status"], string>> = {
	in_transit: "In transit",
	delivered: "Delivered",
	returned: "Returned to the sender",
};

/** Each shipment: its carrier, its tracking number as a link to the carrier's page, what it carries and where it stands. */
export function ShipmentsPanel({
	shipments,
	items,
}: {
	shipments: readonly ShipmentRow[];
	items: readonly SheetItem[];
}) {
	if (shipments.length === 0) return null;
	return (
		<section class="panel" aria-labelledby="shipments-heading">
			<h2 id="shipments-heading">Shipments</h2>
			<ul class="shipments">
				{shipments.map((shipment) => (
					<li data-shipment-id={shipment.id}>
						<div>
							{shipment.tracking.carrier}{" "}
							<a class="mono" href={shipment.tracking.url} rel="noreferrer">
								{shipment.tracking.number}
							</a>
						</div>
						<div class="muted">
							{shipment.items
								.map(
									(unit) =>
										`${unit.quantity} × ${items.find((item) => item.id === unit.item_id)?.name ?? unit.item_id}`,
								)
								.join(", ")}
						</div>
						<div>
							{SHIPMENT_WORDS[shipment.status]} · shipped{" "}
							<time datetime={shipment.shipped_at}>{formatTime(shipment.shipped_at)}</time>
							{shipment.delivered_at === null ? null : (
								<>
									{", delivered "}
									<time datetime={shipment.delivered_at}>{formatTime(shipment.delivered_at)}</time>
								</>
							)}
						</div>
					</li>
				))}
			</ul>
		</section>
	);
}
