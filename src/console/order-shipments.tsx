/** The order page's shipments: each label, the units it carries, its boxes and where it stands. */
import { fulfillmentOf, type ShipmentRow } from "../orders/shipments.ts";
import type { SheetItem } from "../production/order-sheet.ts";
import { formatTime } from "./format.ts";
import { Dash } from "./layout.tsx";

/** How a shipment stands, in the floor's words. */
const SHIPMENT_STATUS_WORDS: Readonly<Record<ShipmentRow["status"], string>> = {
	in_transit: "In transit",
	delivered: "Delivered",
	returned: "Returned to sender",
};

/** The units a shipment carries, by the floor's item names: `2 × Item 1 of 2 · 8 × 10 in`. */
function unitsInWords(shipment: ShipmentRow, items: readonly SheetItem[]): string[] {
	return shipment.items.map((unit) => {
		const name = items.find((item) => item.id === unit.item_id)?.name ?? unit.item_id;
		return `${unit.quantity} × ${name}`;
	});
}

/** When the shipment arrived or came back; a dash while in transit. */
function endedAt(shipment: ShipmentRow) {
	const at = shipment.delivered_at ?? shipment.returned_at;
	return at === null ? <Dash /> : <time datetime={at}>{formatTime(at, true)}</time>;
}

/** The shipments section of the order page, with how many units have shipped; nothing before the first. */
export function ShipmentsPanel({
	shipments,
	items,
}: {
	shipments: readonly ShipmentRow[];
	items: readonly SheetItem[];
}) {
	if (shipments.length === 0) return null;
	const counts = fulfillmentOf(items, shipments);
	return (
		<section aria-labelledby="shipments-heading" class="panel">
			<h2 id="shipments-heading">Shipments</h2>
			<p data-testid="fulfillment">
				{counts.shipped_units} of {counts.units} units shipped, {counts.delivered_units} delivered.
			</p>
			<div class="table-wrap">
				<table class="cards">
					<thead>
						<tr>
							<th scope="col">Label</th>
							<th scope="col">Units</th>
							<th scope="col">Boxes</th>
							<th scope="col">Status</th>
							<th scope="col">Shipped</th>
							<th scope="col">Delivered or returned</th>
						</tr>
					</thead>
					<tbody>
						{shipments.map((shipment) => (
							<tr data-shipment-id={shipment.id}>
								<td data-label="Label">
									<div>
										{shipment.tracking.carrier}{" "}
										<a class="mono" href={shipment.tracking.url} rel="noreferrer">
											{shipment.tracking.number}
										</a>
									</div>
								</td>
								<td data-label="Units">
									<div>
										{unitsInWords(shipment, items).map((line) => (
											<div>{line}</div>
										))}
									</div>
								</td>
								<td data-label="Boxes" class="num">
									{shipment.packages.length}
								</td>
								<td data-label="Status">{SHIPMENT_STATUS_WORDS[shipment.status]}</td>
								<td data-label="Shipped">
									<time datetime={shipment.shipped_at}>{formatTime(shipment.shipped_at, true)}</time>
								</td>
								<td data-label="Delivered or returned">{endedAt(shipment)}</td>
							</tr>
						))}
					</tbody>
				</table>
			</div>
		</section>
	);
}
