import { z } from "@hono/zod-openapi";
import { findInEveryDatabase } from "../databases.ts";
import { type Refusal, refusal, refusalOf } from "../problem.ts";
import { singleLineText, webUrl } from "../text-rules.ts";
import { KNOWN_CARRIER_NAMES, resolveTracking } from "./carrier-tracking.ts";
import { floorRefusal } from "./edit-window.ts";
import { moveRefusal, moveResult, type OrderMoved, orderMachine } from "./machine.ts";
import type { ShipmentOutcome } from "./move-outcome.ts";
import type { StoredOrder } from "./rows.ts";
import type { ShipmentRequest } from "./shipment-moves.ts";
import { orderIdOfShipment } from "./shipment-store.ts";
import type { ShipmentRow } from "./shipments.ts";
import type { Move, Tracking } from "./state-machine.ts";
import { findOrder } from "./store.ts";

// Operator text reaches partners (webhooks, hold_details, tracking pages), so it follows the partner
// text rules: the same helpers, one line each, no control characters.

/** `{message}` of an operator hold: shown to the partner in hold_details and the order.on_hold webhook. */
export const HoldBody = z
	.strictObject({
		message: singleLineText(1000).openapi({
			example: "The print file shows banding in the sky; please upload a new export.",
		}),
	})
	.openapi("OperatorHoldRequest");

/** `{reason}` of an operator's cancel: one line, recorded in the order's history beside the move. */
export const CancelBody = z
	.strictObject({
		reason: singleLineText(1000).openapi({ example: "The buyer asked to cancel by phone." }),
	})
	.openapi("OperatorCancelRequest");

/** The shipping label's fields: carrier, number and the carrier's tracking page. */
const LABEL_FIELDS = {
	carrier: singleLineText(100).openapi({ example: "UPS" }),
	number: singleLineText(100).openapi({ example: "1Z999AA10123456784" }),
	url: webUrl("must be an http or https URL")
		.optional()
		.openapi({
			example: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
			description: `The carrier's tracking page (http or https). May be left out for ${KNOWN_CARRIER_NAMES}: it is then built from the number (for UPS, https://www.ups.com/track?tracknum=<number>). Any other carrier needs it.`,
		}),
};

/** A label without a page is refused on `url` unless the page follows from the carrier and number. */
function refineTracking(body: { carrier: string; number: string; url?: string | undefined }, context: z.RefinementCtx) {
	const resolved = resolveTracking(body);
	if (!resolved.ok) context.addIssue({ code: "custom", path: ["url"], message: resolved.message });
}

/**
 * The shipping label's tracking: carrier, number and the carrier's tracking page. The page may be
 * left out for a carrier whose page follows from the number (`resolveTracking` builds it).
 */
export const ShipBody = z.strictObject(LABEL_FIELDS).superRefine(refineTracking).openapi("ShipRequest");

/** `{carrier, number, url?, items?}` of a shipment of some units: the ship body, and which units it carries. */
export const ShipmentBody = z
	.strictObject({
		...LABEL_FIELDS,
		items: z
			.array(
				z.strictObject({
					item_id: z.string().min(1).max(100).openapi({ example: "itm_5Tg8" }),
					quantity: z.number().int().min(1).max(1000).openapi({ example: 1 }),
				}),
			)
			.min(1)
			.max(100)
			.optional()
			.openapi({
				description:
					"The units this label carries, by item. Left out: every unit not yet shipped. A unit ships once: naming more than remain is a 422 on `items[i].quantity`.",
				example: [{ item_id: "itm_5Tg8", quantity: 1 }],
			}),
	})
	.superRefine(refineTracking)
	.openapi("CreateShipmentRequest");

/** The tracking a valid ship body records: its URL, or the one built from the carrier and number. */
export function shipTracking(body: { carrier: string; number: string; url?: string | undefined }): Tracking {
	const resolved = resolveTracking(body);
	// ShipBody refused a body without a URL that cannot be built: only a caller that skipped it gets here.
	if (!resolved.ok) throw new Error(`shipTracking of a body ShipBody did not pass: url ${resolved.message}.`);
	return resolved.tracking;
}

/**
 * One operator move through the order's Durable Object: the single path of the ops API and the
 * console. Refused as `order_not_found` for an unknown order, `order_in_edit_window` for a start or a
 * ship before the account's edit window has passed, and as the machine refuses a move the status does
 * not allow (a second start among them).
 */
export async function moveAsOperator(env: Env, orderId: string, move: Move): Promise<OrderMoved> {
	const found = await findInEveryDatabase(env, (database) => findOrder(database, orderId, env.PRINT_FILES));
	if (found === null) return refusal("order_not_found", "id", `No order ${orderId}.`);
	const inWindow = move.kind === "ship" || move.kind === "start" ? editWindowRefusal(found) : null;
	if (inWindow !== null) return inWindow;
	return moveResult(await orderMachine(env, orderId).move(orderId, move, "operator"));
}

/**
 * A new shipment of an order's units through its Durable Object, or why not: an unknown order, the
 * edit window, an order not in production, or (on the `items` entry at fault) units that do not
 * remain. A label the order already has is `repeated` (the shipment as it is, nothing shipped) when it
 * names the same units, and refused as `shipment_label_reused` when it names others.
 */
export async function shipUnitsAsOperator(
	env: Env,
	orderId: string,
	body: z.infer<typeof ShipmentBody>,
): Promise<{ ok: true; shipment: ShipmentRow; repeated: boolean } | Refusal> {
	const found = await findInEveryDatabase(env, (database) => findOrder(database, orderId, env.PRINT_FILES));
	if (found === null) return refusal("order_not_found", "id", `No order ${orderId}.`);
	const inWindow = editWindowRefusal(found);
	if (inWindow !== null) return inWindow;
	const request: ShipmentRequest = { kind: "create", tracking: shipTracking(body), items: body.items };
	const outcome = await orderMachine(env, orderId).shipment(orderId, request, "operator");
	if (!outcome.ok && outcome.kind === "label_repeat") return { ok: true, shipment: outcome.shipment, repeated: true };
	const made = shipmentResult(outcome);
	return made.ok ? { ...made, repeated: false } : made;
}

/**
 * The refusal (`order_in_edit_window`) of floor work before the account's edit window has passed, or
 * null. Its window's end is fixed at creation and the clock only moves on, so a check before the
 * machine's serialized move cannot be overtaken.
 */
export function editWindowRefusal({ order }: StoredOrder): Refusal | null {
	const message = floorRefusal(order, new Date());
	return message === null ? null : refusalOf("order_in_edit_window", message);
}

/**
 * A shipment delivered or returned, by its id alone (ops keys see every account's), or why not:
 * `shipment_not_found` for an unknown one, or for one not of `onOrder` when the caller names the order
 * (the console's forms do).
 */
export async function moveShipmentAsOperator(
	env: Env,
	shipmentId: string,
	kind: "deliver" | "return",
	onOrder?: string,
): Promise<{ ok: true; shipment: ShipmentRow } | Refusal> {
	const orderId = await findInEveryDatabase(env, (database) => orderIdOfShipment(database, shipmentId));
	if (orderId === null || (onOrder !== undefined && orderId !== onOrder)) {
		const where = onOrder === undefined ? "" : ` on ${onOrder}`;
		return refusal("shipment_not_found", "id", `No shipment ${shipmentId}${where}.`);
	}
	return shipmentResult(await orderMachine(env, orderId).shipment(orderId, { kind, shipmentId }, "operator"));
}

/** The shipment a shipment's move produced, or the refusal under its catalog code. */
function shipmentResult(outcome: ShipmentOutcome): { ok: true; shipment: ShipmentRow } | Refusal {
	if (outcome.ok) return { ok: true, shipment: outcome.shipment };
	switch (outcome.kind) {
		case "invalid": {
			// The units' rules name the body's entry at fault (items[1].quantity); the body's items otherwise.
			const field = outcome.field ?? "items";
			return refusal(outcome.code ?? "invalid_field", field, `${field} ${outcome.message}.`);
		}
		case "shipment_not_found":
			return refusal("shipment_not_found", "id", outcome.message);
		case "shipment_refused":
			return refusalOf("shipment_move_refused", outcome.message);
		case "label_repeat":
			return { ok: true, shipment: outcome.shipment };
		default:
			return moveRefusal(outcome);
	}
}
