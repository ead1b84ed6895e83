import { DurableObject } from "cloudflare:workers";
import { databaseOf, findInEveryDatabase } from "../databases.ts";
import { log } from "../log.ts";
import type { PrintFileRow } from "../print-files/store.ts";
import type { PendingDelivery } from "../webhooks/store.ts";
import { deliverSoon } from "../webhooks/webhook-sender.do.ts";
import { nextAlarmAt } from "./alarm-plan.ts";
import type { ShipmentMove } from "./history.ts";
import { chargeIfReleased } from "./ledger-moves.ts";
import { type CreatedOrder, type MoveOutcome, refusal, type ShipmentOutcome } from "./move-outcome.ts";
import { type MoveStep, type ShipmentChange, StaleOrder, writeMove } from "./move-store.ts";
import { applyUpdate, type UpdateOutcome, type UpdateRequest } from "./order-update.ts";
import { type ItemRow, type OrderRow, type StoredOrder, stateOf, withState } from "./rows.ts";
import {
	applyWithShipments,
	planShipment,
	repeatsWithShipments,
	type ShipmentRequest,
	sandboxTracking,
	shipLabelReused,
	shipmentsOfMove,
	withChanges,
} from "./shipment-moves.ts";
import { packagerFor } from "./shipment-packages.ts";
import type { ShipmentRow } from "./shipments.ts";
import { type Actor, applyMove, type Move } from "./state-machine.ts";
import { findOrder } from "./store.ts";
import { type OrderCharges, validateOrder } from "./validate-order.ts";

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

	/**
	 * A partner's change of the order (order-update.ts), serialized with every move of the order. The
	 * change moves the order's version on, so its next step (validation under way, the sandbox's next
	 * move) is set again for the version it is now at: an alarm set for the old one would do nothing.
	 */
	update(request: UpdateRequest): Promise<UpdateOutcome> {
		return this.ctx.blockConcurrencyWhile(async () => {
			const outcome = await applyUpdate(this.env, request, new Date());
			if (outcome.ok) await this.#scheduleNext(outcome.order.order);
			return outcome;
		});
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
			const stored =
				created?.order ?? (await findInEveryDatabase(this.env, (database) => findOrder(database, orderId)));
			// Uploaded files are checked in moments, so the start and the verdict are written together below.
			if (stored === null || stored.order.status !== "received" || checksUploadsOnly(stored)) return stored;
			// This run goes on to validate at once, so the move sets no alarm of its own: should the run die,
			// the alarm that started it (or the cron's sweep) runs it again.
			const started = await this.#apply(stored, [{ kind: "start_validation" }], "system", [], { schedule: false });
			return started.ok ? started.order : stored;
		});
		if (current === null) return { ok: false, kind: "not_found", status: null, message: `No order ${orderId}.` };
		const { order } = current;
		// The alarm at the end of the edit window charges the order (whatever version it was set for).
		if (trigger.kind === "alarm") await chargeIfReleased(databaseOf(this.env, order.account_id), order, new Date());
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
			// Moved on meanwhile (canceled while its files were checked, or changed by the partner): the order's
			// next step is set for what it is now, since the winner may have set none (a change sets its own).
			const current = await findOrder(databaseOf(this.env, stored.order.account_id), stored.order.id);
			if (current === null)
				return { ok: false, kind: "not_found", status: null, message: `No order ${stored.order.id}.` };
			await this.#scheduleNext(current.order);
			return { ok: true, order: current };
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
		const stored = await findInEveryDatabase(this.env, (database) => findOrder(database, orderId));
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
		for (const asked of moves) {
			const reused = shipLabelReused(stored, asked);
			if (reused !== null) return { ok: false, kind: "label_reused", message: reused };
		}
		const steps: MoveStep[] = [];
		let after = stored.order;
		for (const [index, asked] of moves.entries()) {
			const state = stateOf(after);
			const result = applyWithShipments(stored, state, asked, actor, now);
			if (!result.ok) {
				return {
					...refusal(stored.order, result.message),
					repeat: repeatsWithShipments(stored, state, asked),
					partnerMustFix: result.reason === "needs_partner_fix",
					tracking: state.tracking,
				};
			}
			const last = index === moves.length - 1;
			after = { ...withState(after, result.state, now), ...(last ? (options.charges ?? {}) : {}) };
			const shipmentChanges = await shipmentsOfMove(stored, asked, actor, now, () =>
				packagerFor(databaseOf(this.env, stored.order.account_id), stored.order, stored.items),
			);
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
			({ deliveries } = await writeMove(databaseOf(this.env, stored.order.account_id), stored.order, steps, now));
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

	/** One shipment's move on the order as it is in D1 now, as `planShipment` decides it. */
	async #shipment(orderId: string, request: ShipmentRequest, actor: Actor): Promise<ShipmentOutcome> {
		const stored = await findInEveryDatabase(this.env, (database) => findOrder(database, orderId));
		if (stored === null) return { ok: false, kind: "not_found", status: null, message: `No order ${orderId}.` };
		const now = new Date();
		const plan = await planShipment(stored, request, now, () =>
			packagerFor(databaseOf(this.env, stored.order.account_id), stored.order, stored.items),
		);
		if (!plan.ok) return plan.kind === "order_refused" ? refusal(stored.order, plan.message) : plan;
		return this.#shipmentStep(stored, plan.move, actor, plan.changes, plan.shipment, now);
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
				databaseOf(this.env, stored.order.account_id),
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

	/** Sets the next alarm the order waits for (alarm-plan.ts), if any. */
	async #scheduleNext(order: OrderRow): Promise<void> {
		const at = nextAlarmAt(this.env, order, Date.now());
		if (at === null) return;
		const intent: AlarmIntent = { version: order.version, at };
		await Promise.all([
			this.ctx.storage.put({ [ORDER_ID_KEY]: order.id, [ALARM_KEY]: intent }),
			this.ctx.storage.setAlarm(at),
		]);
	}
}

/** Whether every item's file is an upload (no fetch from a URL), so validating it takes moments. */
function checksUploadsOnly({ items }: StoredOrder): boolean {
	return items.every((item) => item.print_file_url === null);
}
