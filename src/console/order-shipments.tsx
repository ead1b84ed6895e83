/**
 * The order page's shipments: each label, the units it carries, its boxes and where it stands, with a
 * button to mark one in transit delivered or returned; and, while units remain in production, the
 * form that records a shipment of the units chosen.
 */

import { formatTime } from "../http/format.ts";
import { fulfillmentOf, type ShipmentRow, unitsRemaining } from "../orders/shipments.ts";
import type { OrderStatus } from "../orders/state-machine.ts";
import type { SheetItem } from "../production/order-sheet.ts";
import { CsrfField, Dash } from "./layout.tsx";
import { LabelFields } from "./order-moves.tsx";
import { type InvalidShipmentForm, UNITS_FIELD_PREFIX } from "./shipment-forms.ts";

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

/** The buttons of a shipment in transit: delivered, or returned to the sender. */
function ShipmentButtons({
	orderId,
	shipment,
	csrfToken,
}: {
	orderId: string;
	shipment: ShipmentRow;
	csrfToken: string;
}) {
	if (shipment.status !== "in_transit") return <Dash />;
	const action = (move: "deliver" | "return") => `/ops/orders/${orderId}/shipments/${shipment.id}/${move}`;
	return (
		<div class="shipment-buttons">
			<form method="post" action={action("deliver")}>
				<CsrfField token={csrfToken} />
				<button type="submit">Delivered</button>
			</form>
			<form method="post" action={action("return")}>
				<CsrfField token={csrfToken} />
				<button type="submit">Returned</button>
			</form>
		</div>
	);
}

/** The form of a shipment of some units: how many of each item with units left, and the label. */
function NewShipmentForm({
	orderId,
	items,
	left,
	csrfToken,
	invalid,
}: {
	orderId: string;
	items: readonly SheetItem[];
	left: ReadonlyMap<string, number>;
	csrfToken: string;
	invalid: InvalidShipmentForm | null;
}) {
	const choices = items.filter((item) => (left.get(item.id) ?? 0) > 0);
	return (
		<form method="post" action={`/ops/orders/${orderId}/shipments`} class="new-shipment">
			<h3>Ship some units</h3>
			<p class="muted">One label: choose the units in its boxes. The last units ship the order.</p>
			<CsrfField token={csrfToken} />
			<fieldset>
				<legend>Units in this shipment</legend>
				{choices.map((item) => {
					const name = `${UNITS_FIELD_PREFIX}${item.id}`;
					const remaining = left.get(item.id) ?? 0;
					const error = invalid?.fieldErrors[name];
					const id = `units-${item.id}`;
					return (
						<div class="unit-choice">
							<label for={id}>
								{item.name} <span class="muted">({remaining} left)</span>
							</label>
							<input
								id={id}
								name={name}
								type="number"
								inputmode="numeric"
								min={0}
								max={remaining}
								step={1}
								value={invalid?.values[name] ?? "0"}
								{...(error === undefined ? {} : { "aria-invalid": "true", "aria-describedby": `${id}-error` })}
							/>
							{error === undefined ? null : (
								<p class="field-error" id={`${id}-error`}>
									{error}
								</p>
							)}
						</div>
					);
				})}
			</fieldset>
			<LabelFields idPrefix="shipment" form={invalid} />
			<button type="submit">Record shipment</button>
		</form>
	);
}

/** Why the last shipment form did not go through: the machine's refusal, or the form's problems. */
function ShipmentAlert({ refusal, invalid }: { refusal: string | null; invalid: InvalidShipmentForm | null }) {
	if (refusal !== null) return <div role="alert">The shipment was not recorded: {refusal}</div>;
	if (invalid === null) return null;
	return <div role="alert">The shipment was not recorded: {Object.values(invalid.fieldErrors).join(" ")}</div>;
}

/** What the shipments section shows of the last shipment form: refused, or back with errors. */
export type ShipmentFormOutcome = { refusal: string | null; invalid: InvalidShipmentForm | null };

/**
 * The shipments section of the order page, with how many units have shipped; shown once there is a
 * shipment, or while the order is in production (for the form).
 */
export function ShipmentsPanel({
	orderId,
	status,
	shipments,
	items,
	csrfToken,
	outcome,
}: {
	orderId: string;
	status: OrderStatus;
	shipments: readonly ShipmentRow[];
	items: readonly SheetItem[];
	csrfToken: string;
	outcome: ShipmentFormOutcome;
}) {
	const left = unitsRemaining(items, shipments);
	const canShip = status === "in_production" && [...left.values()].some((units) => units > 0);
	if (shipments.length === 0 && !canShip) return null;
	const counts = fulfillmentOf(items, shipments);
	return (
		<section aria-labelledby="shipments-heading" class="panel">
			<h2 id="shipments-heading">Shipments</h2>
			<ShipmentAlert {...outcome} />
			<p data-testid="fulfillment">
				{counts.shipped_units} of {counts.units} units shipped, {counts.delivered_units} delivered.
			</p>
			{shipments.length === 0 ? null : (
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
								<th scope="col">Record</th>
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
									<td data-label="Record">
										<ShipmentButtons orderId={orderId} shipment={shipment} csrfToken={csrfToken} />
									</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			)}
			{canShip ? (
				<NewShipmentForm orderId={orderId} items={items} left={left} csrfToken={csrfToken} invalid={outcome.invalid} />
			) : null}
		</section>
	);
}
