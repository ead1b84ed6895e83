/**
 * The sandbox's sample events: a signed body of any event type, sent on demand to the account's test
 * endpoints that subscribe to it, so a partner sees each event's shape reach its code before an order
 * makes it happen. A sample is built by the same functions and checked by the same schemas as a real
 * event's body, about an order that does not exist, and marked: its id starts `evt_sample_`, its order
 * `ord_sample_`, and the body carries `"sample": true`. Nothing is recorded in the event log.
 */
import type { Owner } from "../accounts/owner.ts";
import { type ClaimEventType, claimEventBody } from "../claims/events.ts";
import { randomBase62 } from "../ids.ts";
import {
	type OrderEvent,
	type OrderEventSubject,
	type OrderEventType,
	orderEventBody,
	type ShipmentEventType,
} from "../orders/events.ts";

/** The webhook body of a sample event of `type`, as JSON text, with its id. */
export function sampleEventBody(type: OrderEventType | ShipmentEventType | ClaimEventType, owner: Owner, now: Date) {
	const id = `evt_sample_${randomBase62(12)}`;
	const orderId = `ord_sample_${randomBase62(8)}`;
	const order = sampleOrder(type, orderId, now);
	const text = isClaimEvent(type)
		? claimEventBody(
				{ type, ...owner, order, claim: sampleClaim(type, orderId, now), delivery: { url: null }, createdAt: now },
				id,
			)
		: orderEventBody(
				{ type, ...owner, order, ...aboutTheMove(type, orderId, now), delivery: { url: null }, createdAt: now },
				id,
			);
	return { id, body: JSON.stringify({ ...(JSON.parse(text) as object), sample: true }) };
}

function isClaimEvent(type: string): type is ClaimEventType {
	return type.startsWith("claim.");
}

/** A sample order as the event of `type` leaves it. */
function sampleOrder(type: string, orderId: string, now: Date): OrderEventSubject {
	const at = now.toISOString();
	const base: OrderEventSubject = {
		id: orderId,
		external_id: "SAMPLE-1001",
		status: "in_production",
		version: 3,
		tracking: null,
		shipped_at: null,
		hold_reason: null,
		hold_details: [],
		delivered_at: null,
		canceled_at: null,
		metadata: { sample: "true" },
	};
	const tracking = sampleTracking();
	switch (type) {
		case "order.received":
			return { ...base, status: "received", version: 1 };
		case "order.on_hold":
			return {
				...base,
				status: "on_hold",
				hold_reason: "file_resolution_too_low",
				hold_details: [
					{
						item_id: "itm_sample",
						field: "print_file_id",
						code: "file_resolution_too_low",
						message: "The file prints at 96 DPI at 16 × 20 in; at least 150 DPI is needed.",
					},
				],
			};
		case "order.shipped":
		case "shipment.created":
		case "shipment.returned":
			return { ...base, status: "shipped", version: 4, tracking, shipped_at: at };
		case "order.delivered":
		case "shipment.delivered":
		case "claim.created":
		case "claim.approved":
		case "claim.rejected":
			return { ...base, status: "delivered", version: 5, tracking, shipped_at: at, delivered_at: at };
		case "order.canceled":
			return { ...base, status: "canceled", version: 4, canceled_at: at };
		default:
			return base;
	}
}

function sampleTracking() {
	return { carrier: "Sandbox Parcel Co.", number: "SBX-SAMPLE", url: "https://sandbox.invalid/track/SBX-SAMPLE" };
}

/** What a shipment or update event carries besides its order. */
function aboutTheMove(
	type: OrderEventType | ShipmentEventType,
	orderId: string,
	now: Date,
): Pick<OrderEvent, "shipment" | "update"> {
	const at = now.toISOString();
	if (type.startsWith("shipment.")) {
		const status: "in_transit" | "delivered" | "returned" =
			type === "shipment.delivered" ? "delivered" : type === "shipment.returned" ? "returned" : "in_transit";
		return {
			shipment: {
				id: "shp_sample",
				order_id: orderId,
				items: [{ item_id: "itm_sample", quantity: 1 }],
				carrier: "Sandbox Parcel Co.",
				tracking: sampleTracking(),
				packages: [{ length_in: 27.5, width_in: 24, depth_in: 4, billable_weight_lb: 19 }],
				status,
				shipped_at: at,
				delivered_at: status === "delivered" ? at : null,
				returned_at: status === "returned" ? at : null,
			},
		};
	}
	if (type === "order.updated") {
		return {
			update: {
				changes: [{ field: "shipping_method", from: "standard", to: "express" }],
				// A US delivery: no border, so the landed cost is domestic and adds nothing.
				costs: {
					currency: "USD",
					items: 14889,
					shipping: 3890,
					taxes_and_duties: 0,
					total: 18779,
					price_book_version: 1,
					quote_id: null,
					charge: "order",
					exchange_rate: { sheet_version: 1, per_usd_micros: 1_000_000 },
					landed_cost: {
						coverage: "domestic",
						terms: "dap",
						table_version: 2,
						origin: "US",
						destination_currency: "USD",
						goods_value: 0,
						shipping_value: 0,
						lines: [],
						charged_to_partner: 0,
						buyer_pays_at_door: { amount: 0, currency: "USD", amount_in_currency: 0 },
						ioss: false,
						tariff_codes: null,
					},
					partner_tax: { treatment: "none", name: null, rate_bp: 0, country: null, tax_id: null },
				},
			},
		};
	}
	return {};
}

/** A sample claim as the event of `type` leaves it. */
function sampleClaim(type: ClaimEventType, orderId: string, now: Date) {
	const at = now.toISOString();
	const resolution =
		type === "claim.approved"
			? {
					remedy: "reprint" as const,
					reprint_order_id: "ord_sample_reprint",
					credit_cents: null,
					message: null,
					resolved_at: at,
				}
			: type === "claim.rejected"
				? {
						remedy: null,
						reprint_order_id: null,
						credit_cents: null,
						message: "The photos show no damage.",
						resolved_at: at,
					}
				: null;
	return {
		id: "clm_sample",
		order_id: orderId,
		status:
			type === "claim.approved"
				? ("approved" as const)
				: type === "claim.rejected"
					? ("rejected" as const)
					: ("submitted" as const),
		reason: "damaged_in_transit" as const,
		items: [{ item_id: "itm_sample", quantity: 1 }],
		description: "The glass arrived cracked. (A sample claim.)",
		photos: [],
		created_at: at,
		resolution,
	};
}
