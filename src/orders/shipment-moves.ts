/**
 * What a move does to an order's shipments, decided on the order as read inside its Durable Object:
 * the shipments a ship or a deliver makes or changes, and the plan for a move on one shipment (the
 * change, and which order move it is). Nothing here writes; the order's machine writes what it plans.
 */
import { newId, randomBase62 } from "../ids.ts";
import type { Refusal } from "../problem.ts";
import type { ShipmentMove } from "./history.ts";
import type { MoveStep, ShipmentChange } from "./move-store.ts";
import { type OrderRow, type StoredOrder, stateOf, withState } from "./rows.ts";
import type { Packager } from "./shipment-packages.ts";
import {
	deliveryCompletes,
	fulfillmentOf,
	labelOnOrder,
	oneShipmentPerBox,
	type ShipmentItem,
	type ShipmentRow,
	unitsToShip,
} from "./shipments.ts";
import {
	type Actor,
	applyMove,
	type Move,
	type MoveResult,
	type OrderState,
	repeatsMove,
	sameTracking,
	type Tracking,
} from "./state-machine.ts";

/** A move on one shipment: a new one of some units (every unit left, without `items`), or one delivered or returned. */
export type ShipmentRequest =
	| { kind: "create"; tracking: Tracking; items?: ShipmentItem[] }
	| { kind: "deliver"; shipmentId: string }
	| { kind: "return"; shipmentId: string };

/** The boxes of an order's units, loaded only when a shipment is made. */
export type LoadPackager = () => Promise<Packager>;

/** A shipment move as planned: the order's move it is, the shipment changes it writes, and the shipment after it. */
export type ShipmentPlan = { ok: true; move: Move | ShipmentMove; changes: ShipmentChange[]; shipment: ShipmentRow };

/** Why a shipment move cannot be planned: the order's status, an unknown or settled shipment, or units that cannot ship. */
export type ShipmentPlanRefused =
	| { ok: false; kind: "order_refused"; message: string }
	| { ok: false; kind: "shipment_not_found"; message: string }
	| { ok: false; kind: "shipment_refused"; message: string }
	| LabelSeen
	| ({ kind: "invalid" } & Refusal);

/** A new shipment's label already on the order: the same units again (nothing ships), or other units (refused). */
export type LabelSeen =
	| { ok: false; kind: "label_repeat"; shipment: ShipmentRow }
	| { ok: false; kind: "label_reused"; message: string };

/**
 * One shipment's move. A shipment that ships the last units, or delivers the last one in transit, is
 * the order's ship or deliver move too; any other leaves the order's status as it is.
 */
export async function planShipment(
	stored: StoredOrder,
	request: ShipmentRequest,
	now: Date,
	boxes: LoadPackager,
): Promise<ShipmentPlan | ShipmentPlanRefused> {
	const { order } = stored;
	if (request.kind === "create") {
		// Checked before the status: a label scanned again after the order shipped still answers the same.
		const seen = labelOnOrder(stored.items, stored.shipments, request.tracking, request.items);
		if (seen?.kind === "repeat") return { ok: false, kind: "label_repeat", shipment: seen.shipment };
		if (seen?.kind === "reused") return { ok: false, kind: "label_reused", message: seen.message };
		if (order.status !== "in_production") {
			return { ok: false, kind: "order_refused", message: `Cannot ship units of an order that is ${order.status}.` };
		}
		const units = unitsToShip(stored.items, stored.shipments, request.items);
		if (!units.ok) return { ...units, kind: "invalid" };
		const shipment = newShipment(stored, request.tracking, units.units, await boxes(), now);
		const changes: ShipmentChange[] = [{ shipment, event: "shipment.created" }];
		// The order's tracking is its first shipment's.
		const move: Move | ShipmentMove = units.completes
			? { kind: "ship", tracking: stored.shipments[0]?.tracking ?? request.tracking }
			: { kind: "ship_partial", tracking: request.tracking };
		return { ok: true, move, changes, shipment };
	}
	const current = stored.shipments.find((shipment) => shipment.id === request.shipmentId);
	if (current === undefined) {
		return { ok: false, kind: "shipment_not_found", message: `No shipment ${request.shipmentId} on ${order.id}.` };
	}
	if (current.status !== "in_transit") {
		const verb = request.kind === "deliver" ? "deliver" : "return";
		return {
			ok: false,
			kind: "shipment_refused",
			message: `Cannot ${verb} shipment ${current.id}: it is ${current.status}.`,
		};
	}
	const at = now.toISOString();
	if (request.kind === "return") {
		const shipment: ShipmentRow = { ...current, status: "returned", returned_at: at };
		const move: ShipmentMove = { kind: "return_shipment", shipmentId: current.id };
		return { ok: true, move, changes: [{ shipment, event: "shipment.returned" }], shipment };
	}
	const shipment: ShipmentRow = { ...current, status: "delivered", delivered_at: at };
	const completes = order.status === "shipped" && deliveryCompletes(stored.items, stored.shipments, current.id);
	const move: Move | ShipmentMove = completes
		? { kind: "deliver" }
		: { kind: "deliver_shipment", shipmentId: current.id };
	return { ok: true, move, changes: [{ shipment, event: "shipment.delivered" }], shipment };
}

/**
 * The write of a planned shipment's move: through the state machine for a ship or deliver, else at the
 * order's status, which stays, and so does the time it was entered: the floor's hours in production
 * (and whether the order is late) count on from there.
 */
export function shipmentStep(
	order: OrderRow,
	{ move, changes }: ShipmentPlan,
	actor: Actor,
	now: Date,
): { ok: true; step: MoveStep } | { ok: false; message: string } {
	const state = stateOf(order);
	const made = { move, actor };
	if (move.kind !== "ship" && move.kind !== "deliver") {
		const after = { ...withState(order, state, now), updated_at: order.updated_at };
		return { ok: true, step: { after, event: null, itemUpdates: [], shipmentChanges: changes, made } };
	}
	const result = applyMove(state, move, actor, now);
	if (!result.ok) return { ok: false, message: result.message };
	const after = withState(order, result.state, now);
	return { ok: true, step: { after, event: result.event, itemUpdates: [], shipmentChanges: changes, made } };
}

/**
 * The moves with the floor's start before a ship of an order in production no one has started: a piece
 * cannot ship unstarted, so its ship starts it, in the same write and on the record.
 */
export function startingFirst(order: OrderRow, moves: readonly Move[]): Move[] {
	if (order.status !== "in_production" || order.started_at !== null) return [...moves];
	return moves.flatMap((move): Move[] =>
		move.kind === "ship" ? [{ kind: "start", withShipment: true }, move] : [move],
	);
}

/**
 * The start that goes before a new shipment of an order in production no one has started (as
 * `startingFirst` for a ship), or null when there is none to make.
 */
export function startBeforeShipment(order: OrderRow, actor: Actor, now: Date): MoveStep | null {
	if (order.status !== "in_production" || order.started_at !== null) return null;
	const move: Move = { kind: "start", withShipment: true };
	const result = applyMove(stateOf(order), move, actor, now);
	if (!result.ok) return null;
	const after = withState(order, result.state, now);
	return { after, event: null, itemUpdates: [], shipmentChanges: [], made: { move, actor } };
}

/**
 * A move of the whole order, as its shipments shape it: a ship after partial shipments keeps the first
 * shipment's tracking as the order's; units that left cannot be canceled (an order with a shipment goes
 * on until its last units ship), while an order the table already refuses to cancel (shipped,
 * delivered) is refused as the table says. Whether the floor started the order is the table's to judge.
 */
export function applyWithShipments(
	stored: StoredOrder,
	state: OrderState,
	asked: Move,
	actor: Actor,
	now: Date,
): MoveResult {
	const first = stored.shipments[0];
	const move: Move = asked.kind === "ship" && first !== undefined ? { ...asked, tracking: first.tracking } : asked;
	const applied = applyMove(state, move, actor, now);
	// Units that left say more than the start that came with them.
	const cancelable = applied.ok || applied.reason === "floor_started";
	if (asked.kind === "cancel" && cancelable && stored.shipments.length > 0) {
		return { ok: false, reason: "not_allowed_from_status", message: unitsShippedMessage(stored) };
	}
	return applied;
}

/**
 * The refusal of a whole-order ship whose label one of the order's shipments already carries: the
 * units left would go under a label that shipped others. One rule for labels, whichever route records
 * the box (a shipment, the one-step ship, a bulk import's whole-order row); null when the label is new
 * or the order is not in production (a shipped order's repeat is judged as a repeat).
 */
export function shipLabelReused(stored: StoredOrder, move: Move): string | null {
	if (move.kind !== "ship" || stored.order.status !== "in_production") return null;
	const seen = labelOnOrder(stored.items, stored.shipments, move.tracking, undefined);
	return seen?.kind === "reused" ? seen.message : null;
}

/** Whether a refused move only repeats what the order already is: a ship with a tracking one of its shipments has. */
export function repeatsWithShipments(stored: StoredOrder, state: OrderState, asked: Move): boolean {
	const shippedBefore =
		asked.kind === "ship" && stored.shipments.some((shipment) => sameTracking(shipment.tracking, asked.tracking));
	return repeatsMove(state, asked) || (shippedBefore && state.status !== "in_production");
}

/**
 * What a ship or a deliver of the whole order does to the shipments: a ship is one shipment of every
 * unit that remains (the sandbox ships a test order's boxes apart, the first with the move's
 * tracking); a deliver delivers every shipment still in transit.
 */
export async function shipmentsOfMove(
	stored: StoredOrder,
	move: Move,
	actor: Actor,
	now: Date,
	boxes: LoadPackager,
): Promise<ShipmentChange[]> {
	if (move.kind === "ship") {
		const units = unitsToShip(stored.items, stored.shipments, undefined);
		if (!units.ok) return [];
		const sandbox = stored.order.mode === "test" && actor === "system";
		const groups = sandbox ? oneShipmentPerBox(stored.items, units.units) : [units.units];
		const packager = await boxes();
		return groups.map((group, index) => ({
			shipment: newShipment(stored, index === 0 ? move.tracking : sandboxTracking(), group, packager, now, index),
			event: "shipment.created",
		}));
	}
	if (move.kind === "deliver") {
		const at = now.toISOString();
		return stored.shipments
			.filter((shipment) => shipment.status === "in_transit")
			.map((shipment) => ({
				shipment: { ...shipment, status: "delivered", delivered_at: at },
				event: "shipment.delivered",
			}));
	}
	return [];
}

/** A new shipment of `units`, after the order's others (and `after` more made in the same move), boxed. */
function newShipment(
	stored: StoredOrder,
	tracking: Tracking,
	units: ShipmentItem[],
	boxes: Packager,
	now: Date,
	after = 0,
): ShipmentRow {
	return {
		id: newId("shp"),
		order_id: stored.order.id,
		position: (stored.shipments.at(-1)?.position ?? 0) + 1 + after,
		items: units,
		tracking,
		packages: boxes(units),
		status: "in_transit",
		shipped_at: now.toISOString(),
		delivered_at: null,
		returned_at: null,
	};
}

/** The order's shipments after `changes`: changed ones in their place, new ones after the rest. */
export function withChanges(shipments: readonly ShipmentRow[], changes: readonly ShipmentChange[]): ShipmentRow[] {
	const changed = new Map(changes.map((change) => [change.shipment.id, change.shipment]));
	const known = new Set(shipments.map((row) => row.id));
	return [
		...shipments.map((row) => changed.get(row.id) ?? row),
		...[...changed.values()].filter((row) => !known.has(row.id)),
	];
}

/** Why an order with shipments cannot be canceled, with its counts. */
function unitsShippedMessage({ items, shipments }: StoredOrder): string {
	const { units, shipped_units: shipped } = fulfillmentOf(items, shipments);
	return `Cannot cancel an order whose units have started to ship (${shipped} of ${units} shipped).`;
}

/** A tracking number that cannot be mistaken for a real one. */
export function sandboxTracking(): Tracking {
	const number = `SANDBOX-${randomBase62(12).toUpperCase()}`;
	return { carrier: "Sandbox Parcel Co.", number, url: `https://sandbox.invalid/track/${number}` };
}
