/**
 * What the order's machine answers for a move: the order after it, or why it was refused, decided on
 * the order as read in the move's serialized section.
 */
import type { PrintFileRow } from "../print-files/store.ts";
import type { Refusal } from "../problem.ts";
import { type OrderRow, type StoredOrder, stateOf } from "./rows.ts";
import type { ShipmentRow } from "./shipments.ts";
import type { Tracking } from "./state-machine.ts";

/** A new order as its create wrote it, and its uploaded print files as the create checked them. */
export type CreatedOrder = { order: StoredOrder; files: PrintFileRow[] };

/**
 * What a move came to: the order after it, or why it was refused. A refusal is decided on the order
 * as read in the move's serialized section, and says what it saw there: the status, whether the move
 * only repeated what the order already is (a ship with the tracking it shipped with), and the order's
 * tracking. A caller then needs no read of its own, which another move could overtake.
 */
export type MoveOutcome = { ok: true; order: StoredOrder } | OrderNotFound | LabelReused | MoveRefused;

/** No order with the id asked for, in any database. */
export type OrderNotFound = { ok: false; kind: "not_found"; status: null; message: string };

/** A ship whose label one of the order's shipments already carries, with other units: refused, whichever route. */
export type LabelReused = { ok: false; kind: "label_reused"; message: string };

export type MoveRefused = {
	ok: false;
	kind: "refused";
	status: string;
	message: string;
	repeat: boolean;
	/** A release refused because only the partner's fix of an item clears the hold. */
	partnerMustFix: boolean;
	/** A partner's cancel or item fix refused because the floor has started the order. */
	floorStarted: boolean;
	tracking: Tracking | null;
};

/** What a shipment's move came to: the order and the shipment after it, or why it was refused. */
export type ShipmentOutcome =
	| { ok: true; order: StoredOrder; shipment: ShipmentRow }
	| OrderNotFound
	| { ok: false; kind: "shipment_not_found"; message: string }
	| { ok: false; kind: "shipment_refused"; message: string }
	| { ok: false; kind: "label_repeat"; shipment: ShipmentRow }
	| LabelReused
	| ({ kind: "invalid" } & Refusal)
	| MoveRefused;

/** A refusal of a move on `order` as read, not a repeat. */
export function refusal(order: OrderRow, message: string): MoveRefused {
	return {
		ok: false,
		kind: "refused",
		status: order.status,
		message,
		repeat: false,
		partnerMustFix: false,
		floorStarted: false,
		tracking: stateOf(order).tracking,
	};
}
