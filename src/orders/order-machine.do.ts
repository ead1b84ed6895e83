import { DurableObject } from "cloudflare:workers";
import { databaseOf, findInEveryDatabase, forgetPlacements, isAccountMoving, refreshPlacements } from "../databases.ts";
import { log } from "../log.ts";
import type { PrintFileRow } from "../print-files/store.ts";
import type { PendingDelivery } from "../webhooks/store.ts";
import { deliverSoon } from "../webhooks/webhook-sender.do.ts";
import { nextAlarmAt } from "./alarm-plan.ts";
import { restoreArchivedOrder } from "./archive-store.ts";
import { chargeIfReleased } from "./ledger-moves.ts";
import {
	type CreatedOrder,
	type MoveOutcome,
	type MoveRefused,
	type OrderNotFound,
	refusal,
	type ShipmentOutcome,
} from "./move-outcome.ts";
import { type MoveStep, StaleOrder, writeMove } from "./move-store.ts";
import { planUpdate, type UpdateOutcome, type UpdateRequest, updateOutcome } from "./order-update.ts";
import { checksUploadsOnly, idleStep, planNext, type Trigger } from "./plan-next.ts";
import { type ItemRow, type OrderRow, type StoredOrder, stateOf, withState } from "./rows.ts";
import {
	applyWithShipments,
	planShipment,
	repeatsWithShipments,
	type ShipmentRequest,
	sandboxTracking,
	shipLabelReused,
	shipmentStep,
	shipmentsOfMove,
	startBeforeShipment,
	startingFirst,
	withChanges,
} from "./shipment-moves.ts";
import { type Packager, packagerFor } from "./shipment-packages.ts";
import type { Actor, Move } from "./state-machine.ts";
import { findOrder } from "./store.ts";
import { type OrderCharges, validateOrder } from "./validate-order.ts";

const ORDER_ID_KEY = "order_id";
/** The order version and time the pending alarm was set for; an alarm that does not match is stale. */
const ALARM_KEY = "alarm_intent";
/** `version` null: whatever the order's state (a new or restarted order). */
type AlarmIntent = { version: number | null; at: number };

/** An order read for a move, or the answer for an order that does not exist. */
type Loaded = { ok: true; order: StoredOrder } | OrderNotFound;

/**
 * One instance per order (named by the order id). Every move goes through `blockConcurrencyWhile`,
 * so moves of one order run one at a time, each reading the order fresh from D1 and writing with a
 * version check through one commit (`#commit`). What the order does by itself next is planNext's to
 * say (plan-next.ts), and when the alarm next wakes it alarm-plan.ts's. The validation pipeline and
 * the sandbox run from the alarm, so a crash between steps resumes when the alarm is retried. An alarm
 * remembers the order version it was set for and does nothing once the order has moved on, and one
 * validation of a version runs at a time, so a sandbox `advance` racing the alarm makes one step, not two.
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
				await this.#moveOn(orderId, { kind: "created" }, created);
				return;
			} catch (error) {
				log.warn("order.validation_retried", {
					order_id: orderId,
					message: `validation failed, retried: ${String(error)}`,
				});
			}
		}
		await this.#setAlarm(orderId, { version: null, at: Date.now() });
	}

	/**
	 * `work` serialized with every other move of the order, the placements read again first if they are
	 * old. A database refusing the write because the account is moving (its fence) is no failure of this
	 * object: the refusal is thrown after the section, so the object is not reset, and the placements
	 * are read again at the next call (the caller answers 503 `account_moving`).
	 */
	async #serialized<T>(work: () => Promise<T>): Promise<T> {
		const done = await this.ctx.blockConcurrencyWhile(
			async (): Promise<{ ok: true; value: T } | { ok: false; refusal: unknown }> => {
				await refreshPlacements(this.env);
				try {
					return { ok: true, value: await work() };
				} catch (error) {
					if (!isAccountMoving(error)) throw error;
					forgetPlacements();
					return { ok: false, refusal: error };
				}
			},
		);
		if (!done.ok) throw done.refusal;
		return done.value;
	}

	/**
	 * Makes one move of the state machine for `actor` (or several in a row, in one write: all or none),
	 * with item changes written in the same batch.
	 */
	move(orderId: string, move: Move | Move[], actor: Actor, itemUpdates: ItemRow[] = []): Promise<MoveOutcome> {
		return this.#serialized(async () => {
			const loaded = await this.#load(orderId);
			if (!loaded.ok) return loaded;
			const outcome = await this.#apply(loaded.order, Array.isArray(move) ? move : [move], actor, itemUpdates);
			if (outcome.ok || outcome.kind !== "stale") return outcome;
			return changedMeanwhile(loaded.order.order);
		});
	}

	/** A shipment's move, serialized with every other move of the order, as `planShipment` decides it. */
	shipment(orderId: string, request: ShipmentRequest, actor: Actor): Promise<ShipmentOutcome> {
		return this.#serialized(async () => {
			const loaded = await this.#load(orderId);
			if (!loaded.ok) return loaded;
			const stored = loaded.order;
			const now = new Date();
			const plan = await planShipment(stored, request, now, () => this.#packager(stored));
			if (!plan.ok) return plan.kind === "order_refused" ? refusal(stored.order, plan.message) : plan;
			// A new shipment of an order no one started starts it first, in the same write.
			const start = request.kind === "create" ? startBeforeShipment(stored.order, actor, now) : null;
			const step = shipmentStep(start?.after ?? stored.order, plan, actor, now);
			if (!step.ok) return refusal(stored.order, step.message);
			const written = await this.#commit(stored, start === null ? [step.step] : [start, step.step], now);
			if (written === null) return changedMeanwhile(stored.order);
			return { ok: true, order: written, shipment: plan.shipment };
		});
	}

	/**
	 * A partner's change of the order (order-update.ts), serialized with every move of the order. The
	 * change moves the order's version on, so its next step (validation under way, the sandbox's next
	 * move) is set again for the version it is now at: an alarm set for the old one would do nothing.
	 */
	update(request: UpdateRequest): Promise<UpdateOutcome> {
		return this.#serialized(async () => {
			const now = new Date();
			const planned = await planUpdate(this.env, request);
			if (!planned.ok) return planned;
			if (planned.step !== null) return updateOutcome(planned, await this.#commit(planned.stored, [planned.step], now));
			// A change that changes nothing writes nothing, but still sets the next step for the version it read.
			await this.#scheduleNext(planned.stored.order);
			return updateOutcome(planned, planned.stored);
		});
	}

	/**
	 * The sandbox's next step, now: validation, production, shipping (which starts an order no one
	 * started) or delivery of a test order.
	 */
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
	 * The one way an order moves on by itself, as planNext decides: validation (the only way into it),
	 * and the sandbox's shipping and delivery. The create's own call starts from the order as it wrote
	 * it (`created`): the step need not read it back. It is only a head start, as the step's write still
	 * checks the version.
	 */
	async #moveOn(orderId: string, trigger: Trigger, created: CreatedOrder | null = null): Promise<MoveOutcome> {
		// Read, plan, and start validating a received order whose files are fetched, in one serialized section.
		const planned = await this.#serialized(async () => {
			const loaded: Loaded = created === null ? await this.#load(orderId) : { ok: true, order: created.order };
			if (!loaded.ok) return loaded;
			const next = planNext(loaded.order, trigger);
			if (next.kind !== "validate" || !next.startFirst) return { ...loaded, next };
			// This run goes on to validate at once, so the start sets no alarm of its own: should the run
			// die, the alarm that started it (or the cron's sweep) runs it again.
			const started = await this.#apply(loaded.order, [{ kind: "start_validation" }], "system", [], {
				schedule: false,
			});
			if (started.ok) return { ...started, next };
			// Another move got in first, and decides what comes next.
			return { ...loaded, next: idleStep(loaded.order.order, trigger) };
		});
		if (!planned.ok) return planned;
		const { order: current, next } = planned;
		// The alarm at the end of the edit window charges the order (whatever version it was set for).
		if (trigger.kind === "alarm") {
			await chargeIfReleased(databaseOf(this.env, current.order.account_id), current.order, new Date());
		}
		switch (next.kind) {
			case "validate":
				return this.#validateOnce(current, created?.files ?? []);
			case "sandbox_move":
				return this.#moveAtVersion(current, sandboxMove(next.move));
			case "refuse":
				return refusal(current.order, next.message);
			case "wait":
				return { ok: true, order: current };
		}
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
		return this.#serialized(async () => {
			const outcome = await this.#apply(stored, moves, "system", items, { schedule: true, charges });
			if (outcome.ok || outcome.kind !== "stale") return outcome;
			// Moved on meanwhile (canceled while its files were checked, or changed by the partner): the order's
			// next step is set for what it is now, since the winner may have set none (a change sets its own).
			const current = await this.#load(stored.order.id, stored.order.account_id);
			if (current.ok) await this.#scheduleNext(current.order.order);
			return current;
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

	/**
	 * Moves on the order as it was read, in a row and in one commit; refused (`stale`) if its version has
	 * moved on since. Item changes and charges go with the last move. A ship of an order no one started
	 * starts it first (`startingFirst`).
	 */
	async #apply(
		stored: StoredOrder,
		requested: Move[],
		actor: Actor,
		itemUpdates: ItemRow[],
		options: { schedule: boolean; charges?: OrderCharges | null } = { schedule: true },
	): Promise<MoveOutcome | { ok: false; kind: "stale" }> {
		const now = new Date();
		const moves = startingFirst(stored.order, requested);
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
					floorStarted: result.reason === "floor_started",
					tracking: state.tracking,
				};
			}
			const last = index === moves.length - 1;
			after = { ...withState(after, result.state, now), ...(last ? (options.charges ?? {}) : {}) };
			const shipmentChanges = await shipmentsOfMove(stored, asked, actor, now, () => this.#packager(stored));
			steps.push({
				after,
				event: result.event,
				itemUpdates: last ? itemUpdates : [],
				shipmentChanges,
				made: { move: asked, actor },
			});
		}
		const written = await this.#commit(stored, steps, now, options.schedule);
		return written === null ? { ok: false, kind: "stale" } : { ok: true, order: written };
	}

	/**
	 * The one write of every change of the order: `steps` over the order as read, in one batch that
	 * applies only at its version (else null, and nothing is written). Then the events' first delivery
	 * attempts start, and the alarm is set for what the order waits for next (unless `schedule` is
	 * false). The order as the steps leave it, with their item and shipment changes.
	 */
	async #commit(stored: StoredOrder, steps: MoveStep[], now: Date, schedule = true): Promise<StoredOrder | null> {
		let deliveries: PendingDelivery[];
		try {
			({ deliveries } = await writeMove(databaseOf(this.env, stored.order.account_id), stored.order, steps, now));
		} catch (error) {
			if (error instanceof StaleOrder) return null;
			throw error;
		}
		// The first attempt starts right after the move commits, in its endpoint's sender, so a lone event
		// reaches its receiver without waiting for a queue batch. The queue carries retries.
		await deliverSoon(this.env, deliveries);
		const after = steps.at(-1)?.after ?? stored.order;
		if (schedule) await this.#scheduleNext(after);
		const byId = new Map(steps.flatMap((step) => step.itemUpdates).map((item) => [item.id, item]));
		return {
			order: after,
			items: stored.items.map((item) => byId.get(item.id) ?? item),
			shipments: withChanges(
				stored.shipments,
				steps.flatMap((step) => step.shipmentChanges ?? []),
			),
		};
	}

	/**
	 * The order by id, with its items and shipments, as it is in D1 now: from its account's database
	 * when the account is known, else from whichever database holds it.
	 */
	async #load(orderId: string, accountId?: string): Promise<Loaded> {
		const read = (id: string) =>
			accountId === undefined
				? findInEveryDatabase(this.env, (database) => findOrder(database, id, this.env.PRINT_FILES))
				: findOrder(databaseOf(this.env, accountId), id, this.env.PRINT_FILES);
		let stored = await read(orderId);
		if (stored?.archivedAt !== undefined) {
			// A move acts on the order's rows, never on an archived order's slim row: it comes back first.
			await restoreArchivedOrder(databaseOf(this.env, stored.order.account_id), this.env.PRINT_FILES, orderId);
			stored = await read(orderId);
		}
		if (stored === null) return { ok: false, kind: "not_found", status: null, message: `No order ${orderId}.` };
		return { ok: true, order: stored };
	}

	/** What boxes the order's units for a shipment (shipment-packages.ts). */
	#packager(stored: StoredOrder): Promise<Packager> {
		return packagerFor(databaseOf(this.env, stored.order.account_id), stored.items);
	}

	/** Sets the next alarm the order waits for (alarm-plan.ts), if any. */
	async #scheduleNext(order: OrderRow): Promise<void> {
		const at = nextAlarmAt(this.env, order, Date.now());
		if (at !== null) await this.#setAlarm(order.id, { version: order.version, at });
	}

	/** Sets the alarm and remembers what it was set for; both writes in one event commit together. */
	async #setAlarm(orderId: string, intent: AlarmIntent): Promise<void> {
		await Promise.all([
			this.ctx.storage.put({ [ORDER_ID_KEY]: orderId, [ALARM_KEY]: intent }),
			this.ctx.storage.setAlarm(intent.at),
		]);
	}
}

/** The sandbox's move of a test order, as the floor would make it (a ship with a label that cannot be real). */
function sandboxMove(kind: "start" | "ship" | "deliver"): Move {
	return kind === "ship" ? { kind, tracking: sandboxTracking() } : { kind };
}

/** The refusal of a move whose write another move of the order overtook. */
function changedMeanwhile(order: OrderRow): MoveRefused {
	return refusal(order, "The order changed meanwhile; retry.");
}
