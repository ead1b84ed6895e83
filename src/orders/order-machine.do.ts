import { DurableObject } from "cloudflare:workers";
import { configOf } from "../config.ts";
import { newId, randomBase62 } from "../ids.ts";
import { log } from "../log.ts";
import type { PrintFileRow } from "../print-files/store.ts";
import type { Refusal } from "../problem.ts";
import type { PendingDelivery } from "../webhooks/store.ts";
import { deliverSoon } from "../webhooks/webhook-sender.do.ts";
import type { ShipmentMove } from "./history.ts";
import { type MoveStep, type ShipmentChange, StaleOrder, writeMove } from "./move-store.ts";
import { type ItemRow, type OrderRow, type StoredOrder, stateOf, withState } from "./rows.ts";
import { type Packager, packagerFor } from "./shipment-packages.ts";
import {
	deliveryCompletes,
	fulfillmentOf,
	oneShipmentPerBox,
	type ShipmentItem,
	type ShipmentRow,
	unitsToShip,
} from "./shipments.ts";
import { type Actor, applyMove, type Move, repeatsMove, sameTracking, type Tracking } from "./state-machine.ts";
import { findOrder } from "./store.ts";
import { type OrderCharges, validateOrder } from "./validate-order.ts";

/** A new order as its create wrote it, and its uploaded print files as the create checked them. */
export type CreatedOrder = { order: StoredOrder; files: PrintFileRow[] };

/**
 * What a move came to: the order after it, or why it was refused. A refusal is decided on the order
 * as read in the move's serialized section, and says what it saw there: the status, whether the move
 * only repeated what the order already is (a ship with the tracking it shipped with), and the order's
 * tracking. A caller then needs no read of its own, which another move could overtake.
 */
export type MoveOutcome =
	| { ok: true; order: StoredOrder }
	| { ok: false; kind: "not_found"; status: null; message: string }
	| MoveRefused;

export type MoveRefused = {
	ok: false;
	kind: "refused";
	status: string;
	message: string;
	repeat: boolean;
	/** A release refused because only the partner's fix of an item clears the hold. */
	partnerMustFix: boolean;
	tracking: Tracking | null;
};

/** What a shipment's move came to: the order and the shipment after it, or why it was refused. */
export type ShipmentOutcome =
	| { ok: true; order: StoredOrder; shipment: ShipmentRow }
	| { ok: false; kind: "not_found"; status: null; message: string }
	| { ok: false; kind: "shipment_not_found"; message: string }
	| { ok: false; kind: "shipment_refused"; message: string }
	| ({ kind: "invalid" } & Refusal)
	| MoveRefused;

/** A move on one shipment: a new one of some units (every unit left, without `items`), or one delivered or returned. */
export type ShipmentRequest =
	| { kind: "create"; tracking: Tracking; items?: ShipmentItem[] }
	| { kind: "deliver"; shipmentId: string }
	| { kind: "return"; shipmentId: string };

const ORDER_ID_KEY = "order_id";
/** The order version and time the pending alarm was set for; an alarm that does not match is stale. */
const ALARM_KEY = "alarm_intent";
/** `version` null: whatever the order's state (a new or restarted order). */
type AlarmIntent = { version: number | null; at: number };

/**
 * What asks an order to move on by itself: its create (with the order as the create wrote it, and
 * the print files it checked), its alarm (set for a version of the order, or for whatever it is
 * now), or the sandbox's advance.
 */
type Trigger =
	| { kind: "created"; created: CreatedOrder }
	| { kind: "alarm"; forVersion: number | null }
	| { kind: "advance" };

/** Time between the sandbox's automatic steps for test-mode orders. */
function sandboxStepMs(env: Env): number {
	return configOf(env).SANDBOX_STEP_SECONDS * 1000;
}

/**
 * One instance per order (named by the order id). Every move goes through `blockConcurrencyWhile`,
 * so moves of one order run one at a time, each reading the order fresh from D1 and writing with a
 * version check. The validation pipeline and the sandbox run from the alarm, so a crash between
 * steps resumes when the alarm is retried. An alarm remembers the order version it was set for and
 * does nothing once the order has moved on, and one validation of a version runs at a time, so a
 * sandbox `advance` racing the alarm makes one step, not two.
 */
export class OrderMachine extends DurableObject<Env> {
	/**
	 * The order version this instance is validating now, if any. Only this instance exists for the
	 * order, and a run lost with it (eviction, crash) needs no claim: the alarm's retry starts anew.
	 */
	#validatingVersion: number | null = null;

	/**
	 * Starts an order's life (or restarts a stalled one). An order the create passes, whose files are
	 * all uploads, is validated right here: the check takes moments. Should that fail, the alarm takes
	 * over as for any other order, which is validated at once from the alarm (it retries on failure);
	 * should the run die with its isolate, the cron's sweep restarts the order.
	 */
	async begin(orderId: string, created?: CreatedOrder): Promise<void> {
		if (created !== undefined && created.order.order.id === orderId && checksUploadsOnly(created.order)) {
			try {
				await this.#moveOn(orderId, { kind: "created", created });
				return;
			} catch (error) {
				log.warn("order.validation_retried", {
					order_id: orderId,
					message: `validation failed, retried: ${String(error)}`,
				});
			}
		}
		const at = Date.now();
		const intent: AlarmIntent = { version: null, at };
		// Both writes in one event commit together.
		await Promise.all([
			this.ctx.storage.put({ [ORDER_ID_KEY]: orderId, [ALARM_KEY]: intent }),
			this.ctx.storage.setAlarm(at),
		]);
	}

	/** Makes one move of the state machine for `actor`, with item changes written in the same batch. */
	move(orderId: string, move: Move, actor: Actor, itemUpdates: ItemRow[] = []): Promise<MoveOutcome> {
		return this.ctx.blockConcurrencyWhile(() => this.#move(orderId, move, actor, itemUpdates));
	}

	/** A shipment's move, serialized with every other move of the order. */
	shipment(orderId: string, request: ShipmentRequest, actor: Actor): Promise<ShipmentOutcome> {
		return this.ctx.blockConcurrencyWhile(() => this.#shipment(orderId, request, actor));
	}

	/** The sandbox's next step, now: validation, production, shipping or delivery of a test order. */
	advance(orderId: string): Promise<MoveOutcome> {
		return this.#moveOn(orderId, { kind: "advance" });
	}

	override async alarm(): Promise<void> {
		const stored = await this.ctx.storage.get<string | AlarmIntent>([ORDER_ID_KEY, ALARM_KEY]);
		const orderId = stored.get(ORDER_ID_KEY);
		const intent = stored.get(ALARM_KEY);
		if (typeof orderId !== "string") return;
		const known = typeof intent === "object" ? intent : undefined;
		// An alarm delivered late, after a newer one was set for later (a sandbox step after its delay), does nothing.
		if (known !== undefined && known.at > Date.now()) return;
		await this.#moveOn(orderId, { kind: "alarm", forVersion: known?.version ?? null });
	}

	/**
	 * The one way an order moves on by itself, where the table lets the system do so: validation (the
	 * only way into it), and the sandbox's production, shipping and delivery.
	 */
	async #moveOn(orderId: string, trigger: Trigger): Promise<MoveOutcome> {
		// The create's own call starts from the order as it wrote it: the step need not read it back. It is
		// only a head start, as the step's write still checks the version.
		const created = trigger.kind === "created" ? trigger.created : null;
		// Read, and start validating a received order, in one serialized section.
		const current = await this.ctx.blockConcurrencyWhile(async () => {
			const stored = created?.order ?? (await findOrder(this.env.DB, orderId));
			// Uploaded files are checked in moments, so the start and the verdict are written together below.
			if (stored === null || stored.order.status !== "received" || checksUploadsOnly(stored)) return stored;
			// This run goes on to validate at once, so the move sets no alarm of its own: should the run die,
			// the alarm that started it (or the cron's sweep) runs it again.
			const started = await this.#apply(stored, [{ kind: "start_validation" }], "system", [], { schedule: false });
			return started.ok ? started.order : stored;
		});
		if (current === null) return { ok: false, kind: "not_found", status: null, message: `No order ${orderId}.` };
		const { order } = current;
		// An alarm set for a version the order has left does nothing, unless the order is validating (an
		// alarm that started a validation is also its retry).
		const stale =
			trigger.kind === "alarm" &&
			trigger.forVersion !== null &&
			order.version !== trigger.forVersion &&
			order.status !== "validating";
		if (stale) return { ok: true, order: current };
		switch (order.status) {
			case "received":
				// Only an order of uploads is still received here (any other was started above, unless
				// another move got in first, which then decides what comes next).
				if (!checksUploadsOnly(current)) break;
				return this.#validateOnce(current, created?.files ?? []);
			case "validating":
				return this.#validateOnce(current, created?.files ?? []);
			case "in_production":
				if (order.mode !== "test") break;
				return this.#moveAtVersion(current, { kind: "ship", tracking: sandboxTracking() });
			case "shipped":
				if (order.mode !== "test") break;
				return this.#moveAtVersion(current, { kind: "deliver" });
			default:
				break;
		}
		if (trigger.kind === "advance") {
			return refusal(order, `The sandbox cannot advance an order that is ${order.status}.`);
		}
		return { ok: true, order: current };
	}

	/**
	 * A system move that happens only if the order is still at the version it was read at. A received
	 * order starts validation in the same write.
	 */
	#moveAtVersion(
		stored: StoredOrder,
		move: Move,
		items: ItemRow[] = [],
		charges: OrderCharges | null = null,
	): Promise<MoveOutcome> {
		const moves: Move[] = stored.order.status === "received" ? [{ kind: "start_validation" }, move] : [move];
		return this.ctx.blockConcurrencyWhile(async () => {
			const outcome = await this.#apply(stored, moves, "system", items, { schedule: true, charges });
			if (outcome.ok || outcome.kind !== "stale") return outcome;
			// Moved on meanwhile (canceled while its files were checked, say): that move decides what comes next.
			const current = await findOrder(this.env.DB, stored.order.id);
			return current === null
				? { ok: false, kind: "not_found", status: null, message: `No order ${stored.order.id}.` }
				: { ok: true, order: current };
		});
	}

	/** Validates this version of the order unless another run already is (the alarm and an advance racing). */
	async #validateOnce(stored: StoredOrder, checkedFiles: PrintFileRow[]): Promise<MoveOutcome> {
		if (this.#validatingVersion === stored.order.version) return { ok: true, order: stored };
		this.#validatingVersion = stored.order.version;
		try {
			return await this.#validate(stored, checkedFiles);
		} finally {
			this.#validatingVersion = null;
		}
	}

	/** Runs validation outside the serialized section, then records its verdict unless the order moved meanwhile. */
	async #validate(stored: StoredOrder, checkedFiles: PrintFileRow[]): Promise<MoveOutcome> {
		const result = await validateOrder(this.env, stored, new Date(), checkedFiles);
		const move: Move =
			result.verdict.kind === "pass"
				? { kind: "pass_validation" }
				: { kind: "fail_validation", holdReason: result.verdict.holdReason, holdDetails: result.verdict.holdDetails };
		return this.#moveAtVersion(stored, move, result.items, result.pricing);
	}

	/** One move on the order as it is in D1 now. */
	async #move(orderId: string, move: Move, actor: Actor, itemUpdates: ItemRow[]): Promise<MoveOutcome> {
		const stored = await findOrder(this.env.DB, orderId);
		if (stored === null) return { ok: false, kind: "not_found", status: null, message: `No order ${orderId}.` };
		const outcome = await this.#apply(stored, [move], actor, itemUpdates);
		if (outcome.ok || outcome.kind !== "stale") return outcome;
		return refusal(stored.order, "The order changed meanwhile; retry.");
	}

	/**
	 * Moves on the order as it was read, in a row and in one write; the write is refused (`stale`) if its
	 * version has moved on since. Item changes and charges go with the last move.
	 */
	async #apply(
		stored: StoredOrder,
		moves: Move[],
		actor: Actor,
		itemUpdates: ItemRow[],
		options: { schedule: boolean; charges?: OrderCharges | null } = { schedule: true },
	): Promise<MoveOutcome | { ok: false; kind: "stale" }> {
		const now = new Date();
		const steps: MoveStep[] = [];
		let after = stored.order;
		for (const [index, asked] of moves.entries()) {
			const state = stateOf(after);
			// The order's tracking is its first shipment's: a ship after partial shipments keeps it.
			const first = stored.shipments[0];
			const move: Move = asked.kind === "ship" && first !== undefined ? { ...asked, tracking: first.tracking } : asked;
			// Units that left cannot be canceled: an order with a shipment goes on until its last units ship. An
			// order the table already refuses to cancel (shipped, delivered) is refused as the table says.
			const applied = applyMove(state, move, actor, now);
			const result =
				asked.kind === "cancel" && applied.ok && stored.shipments.length > 0
					? ({ ok: false, reason: "not_allowed_from_status", message: unitsShippedMessage(stored) } as const)
					: applied;
			if (!result.ok) {
				const shippedBefore =
					asked.kind === "ship" && stored.shipments.some((shipment) => sameTracking(shipment.tracking, asked.tracking));
				return {
					...refusal(stored.order, result.message),
					repeat: repeatsMove(state, asked) || (shippedBefore && state.status !== "in_production"),
					partnerMustFix: result.reason === "needs_partner_fix",
					tracking: state.tracking,
				};
			}
			const last = index === moves.length - 1;
			after = { ...withState(after, result.state, now), ...(last ? (options.charges ?? {}) : {}) };
			const shipmentChanges = await this.#shipmentsOfMove(stored, asked, actor, now);
			steps.push({
				after,
				event: result.event,
				itemUpdates: last ? itemUpdates : [],
				shipmentChanges,
				made: { move: asked, actor },
			});
		}
		let deliveries: PendingDelivery[];
		try {
			({ deliveries } = await writeMove(this.env.DB, stored.order, steps, now));
		} catch (error) {
			if (error instanceof StaleOrder) return { ok: false, kind: "stale" };
			throw error;
		}
		// The first attempt starts right after the move commits, in its endpoint's sender, so a lone event
		// reaches its receiver without waiting for a queue batch. The queue carries retries.
		await deliverSoon(this.env, deliveries);
		const byId = new Map(itemUpdates.map((item) => [item.id, item]));
		const items = stored.items.map((item) => byId.get(item.id) ?? item);
		const shipments = withChanges(
			stored.shipments,
			steps.flatMap((step) => step.shipmentChanges ?? []),
		);
		if (options.schedule) await this.#scheduleNext(after);
		return { ok: true, order: { order: after, items, shipments } };
	}

	/**
	 * What a ship or a deliver does to the shipments: a ship is one shipment of every unit that remains;
	 * a deliver delivers every shipment still in transit.
	 */
	async #shipmentsOfMove(stored: StoredOrder, move: Move, actor: Actor, now: Date): Promise<ShipmentChange[]> {
		if (move.kind === "ship") {
			const units = unitsToShip(stored.items, stored.shipments, undefined);
			if (!units.ok) return [];
			// The sandbox ships a test order's boxes as separate shipments, the first with the move's tracking.
			const sandbox = stored.order.mode === "test" && actor === "system";
			const groups = sandbox ? oneShipmentPerBox(stored.items, units.units) : [units.units];
			const boxes = await packagerFor(this.env.DB, stored.order, stored.items);
			return groups.map((group, index) => ({
				shipment: newShipment(stored, index === 0 ? move.tracking : sandboxTracking(), group, boxes, now, index),
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

	/**
	 * One shipment's move on the order as it is in D1 now. A shipment that ships the last units, or
	 * delivers the last one in transit, is the order's ship or deliver move too; any other leaves the
	 * order's status as it is, and bumps its version.
	 */
	async #shipment(orderId: string, request: ShipmentRequest, actor: Actor): Promise<ShipmentOutcome> {
		const stored = await findOrder(this.env.DB, orderId);
		if (stored === null) return { ok: false, kind: "not_found", status: null, message: `No order ${orderId}.` };
		const now = new Date();
		const { order } = stored;
		if (request.kind === "create") {
			if (order.status !== "in_production") {
				return refusal(order, `Cannot ship units of an order that is ${order.status}.`);
			}
			const units = unitsToShip(stored.items, stored.shipments, request.items);
			if (!units.ok) return { ...units, kind: "invalid" };
			const boxes = await packagerFor(this.env.DB, stored.order, stored.items);
			const shipment = newShipment(stored, request.tracking, units.units, boxes, now);
			const change: ShipmentChange = { shipment, event: "shipment.created" };
			if (units.completes) {
				const tracking = stored.shipments[0]?.tracking ?? request.tracking;
				return this.#shipmentStep(stored, { kind: "ship", tracking }, actor, [change], shipment, now);
			}
			const partial: ShipmentMove = { kind: "ship_partial", tracking: request.tracking };
			return this.#shipmentStep(stored, partial, actor, [change], shipment, now);
		}
		const current = stored.shipments.find((shipment) => shipment.id === request.shipmentId);
		if (current === undefined) {
			return { ok: false, kind: "shipment_not_found", message: `No shipment ${request.shipmentId} on ${orderId}.` };
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
			return this.#shipmentStep(stored, move, actor, [{ shipment, event: "shipment.returned" }], shipment, now);
		}
		const shipment: ShipmentRow = { ...current, status: "delivered", delivered_at: at };
		const change: ShipmentChange = { shipment, event: "shipment.delivered" };
		const completes = order.status === "shipped" && deliveryCompletes(stored.items, stored.shipments, current.id);
		const move: Move | ShipmentMove = completes
			? { kind: "deliver" }
			: { kind: "deliver_shipment", shipmentId: current.id };
		return this.#shipmentStep(stored, move, actor, [change], shipment, now);
	}

	/** Writes a shipment's move: through the state machine for a ship or deliver, else at the order's status. */
	async #shipmentStep(
		stored: StoredOrder,
		move: Move | ShipmentMove,
		actor: Actor,
		shipmentChanges: ShipmentChange[],
		shipment: ShipmentRow,
		now: Date,
	): Promise<ShipmentOutcome> {
		const state = stateOf(stored.order);
		let after: OrderRow;
		let event: MoveStep["event"] = null;
		if (move.kind === "ship" || move.kind === "deliver") {
			const result = applyMove(state, move, actor, now);
			if (!result.ok) return refusal(stored.order, result.message);
			after = withState(stored.order, result.state, now);
			event = result.event;
		} else {
			// The status stays, and so does the time it was entered: the floor's hours in production (and
			// whether the order is late) count on from there.
			after = { ...withState(stored.order, state, now), updated_at: stored.order.updated_at };
		}
		let deliveries: PendingDelivery[];
		try {
			({ deliveries } = await writeMove(
				this.env.DB,
				stored.order,
				[{ after, event, itemUpdates: [], shipmentChanges, made: { move, actor } }],
				now,
			));
		} catch (error) {
			if (error instanceof StaleOrder) return refusal(stored.order, "The order changed meanwhile; retry.");
			throw error;
		}
		await deliverSoon(this.env, deliveries);
		await this.#scheduleNext(after);
		const shipments = withChanges(stored.shipments, shipmentChanges);
		return { ok: true, order: { order: after, items: stored.items, shipments }, shipment };
	}

	/** Validation right away; the sandbox's next step after its delay; nothing otherwise. */
	async #scheduleNext(order: { id: string; status: string; mode: string; version: number }): Promise<void> {
		const testStep = order.mode === "test" && (order.status === "in_production" || order.status === "shipped");
		if (order.status !== "validating" && !testStep) return;
		const at = Date.now() + (testStep ? sandboxStepMs(this.env) : 0);
		const intent: AlarmIntent = { version: order.version, at };
		await Promise.all([
			this.ctx.storage.put({ [ORDER_ID_KEY]: order.id, [ALARM_KEY]: intent }),
			this.ctx.storage.setAlarm(at),
		]);
	}
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
function withChanges(shipments: readonly ShipmentRow[], changes: readonly ShipmentChange[]): ShipmentRow[] {
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

/** A refusal of a move on `order` as read, not a repeat. */
function refusal(order: OrderRow, message: string): MoveRefused {
	return {
		ok: false,
		kind: "refused",
		status: order.status,
		message,
		repeat: false,
		partnerMustFix: false,
		tracking: stateOf(order).tracking,
	};
}

/** Whether every item's file is an upload (no fetch from a URL), so validating it takes moments. */
function checksUploadsOnly({ items }: StoredOrder): boolean {
	return items.every((item) => item.print_file_url === null);
}

/** A tracking number that cannot be mistaken for a real one. */
function sandboxTracking() {
	const number = `SANDBOX-${randomBase62(12).toUpperCase()}`;
	return { carrier: "Sandbox Parcel Co.", number, url: `https://sandbox.invalid/track/${number}` };
}
