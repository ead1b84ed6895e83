import { DurableObject } from "cloudflare:workers";
import { randomBase62 } from "../ids.ts";
import { type Actor, applyMove, type Move } from "./state-machine.ts";
import { findOrder, type ItemRow, StaleOrder, type StoredOrder, stateOf, withState, writeMove } from "./store.ts";
import { validateOrder } from "./validate-order.ts";

/** What a move came to: the order after it, or why it was refused (with the status it was in). */
export type MoveOutcome =
	| { ok: true; order: StoredOrder }
	| { ok: false; kind: "refused" | "not_found"; status: string | null; message: string };

const ORDER_ID_KEY = "order_id";

/** Seconds between the sandbox's automatic steps for test-mode orders. */
function sandboxStepMs(env: Env): number {
	const seconds = Number(env.SANDBOX_STEP_SECONDS);
	return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 60_000;
}

/**
 * One instance per order (named by the order id). Every move goes through `blockConcurrencyWhile`,
 * so moves of one order run one at a time, each reading the order fresh from D1 and writing with a
 * version check. The validation pipeline and the sandbox run from the alarm, so a crash between
 * steps resumes when the alarm is retried.
 */
export class OrderMachine extends DurableObject<Env> {
	/** Starts a new order's life: remembers its id and validates it at once, from the alarm. */
	async begin(orderId: string): Promise<void> {
		await this.ctx.storage.put(ORDER_ID_KEY, orderId);
		await this.ctx.storage.setAlarm(Date.now());
	}

	/** Makes one move of the state machine for `actor`, with item changes written in the same batch. */
	move(orderId: string, move: Move, actor: Actor, itemUpdates: ItemRow[] = []): Promise<MoveOutcome> {
		return this.ctx.blockConcurrencyWhile(() => this.#move(orderId, move, actor, itemUpdates));
	}

	/** The sandbox's next step, now: validation, production, shipping or delivery of a test order. */
	async advance(orderId: string): Promise<MoveOutcome> {
		await this.ctx.storage.put(ORDER_ID_KEY, orderId);
		return this.#step(orderId, true);
	}

	override async alarm(): Promise<void> {
		const orderId = await this.ctx.storage.get<string>(ORDER_ID_KEY);
		if (orderId === undefined) return;
		await this.#step(orderId, false);
	}

	/** Moves the order on by itself where the table lets the system do so. */
	async #step(orderId: string, manual: boolean): Promise<MoveOutcome> {
		const stored = await findOrder(this.env.DB, orderId);
		if (stored === null) return { ok: false, kind: "not_found", status: null, message: `No order ${orderId}.` };
		const { order } = stored;
		switch (order.status) {
			case "received": {
				const started = await this.move(orderId, { kind: "start_validation" }, "system");
				if (!started.ok) return started;
				return this.#validate(started.order);
			}
			case "validating":
				return this.#validate(stored);
			case "in_production":
				if (order.mode !== "test") break;
				return this.move(orderId, { kind: "ship", tracking: sandboxTracking() }, "system");
			case "shipped":
				if (order.mode !== "test") break;
				return this.move(orderId, { kind: "deliver" }, "system");
			default:
				break;
		}
		if (manual) {
			return {
				ok: false,
				kind: "refused",
				status: order.status,
				message: `The sandbox cannot advance an order that is ${order.status}.`,
			};
		}
		return { ok: true, order: stored };
	}

	/** Runs validation outside the serialized section, then records its verdict unless the order moved meanwhile. */
	async #validate(stored: StoredOrder): Promise<MoveOutcome> {
		const result = await validateOrder(this.env, stored);
		const move: Move =
			result.verdict.kind === "pass"
				? { kind: "pass_validation" }
				: { kind: "fail_validation", holdReason: result.verdict.holdReason, holdDetails: result.verdict.holdDetails };
		// Canceled or changed while the files were checked: that move decides what happens next.
		return this.ctx.blockConcurrencyWhile(() =>
			this.#move(stored.order.id, move, "system", result.items, stored.order.version),
		);
	}

	/** One move, read fresh; with `onlyAtVersion`, nothing happens if the order has moved on since that version. */
	async #move(
		orderId: string,
		move: Move,
		actor: Actor,
		itemUpdates: ItemRow[],
		onlyAtVersion?: number,
	): Promise<MoveOutcome> {
		const stored = await findOrder(this.env.DB, orderId);
		if (stored === null) return { ok: false, kind: "not_found", status: null, message: `No order ${orderId}.` };
		if (onlyAtVersion !== undefined && stored.order.version !== onlyAtVersion) return { ok: true, order: stored };
		const now = new Date();
		const result = applyMove(stateOf(stored.order), move, actor, now);
		if (!result.ok) return { ok: false, kind: "refused", status: stored.order.status, message: result.message };
		const after = withState(stored.order, result.state, now);
		try {
			await writeMove(this.env.DB, stored.order, after, result.event, now, itemUpdates);
		} catch (error) {
			if (error instanceof StaleOrder) {
				return {
					ok: false,
					kind: "refused",
					status: stored.order.status,
					message: "The order changed meanwhile; retry.",
				};
			}
			throw error;
		}
		const byId = new Map(itemUpdates.map((item) => [item.id, item]));
		const items = stored.items.map((item) => byId.get(item.id) ?? item);
		await this.#scheduleNext(after.status, after.mode);
		return { ok: true, order: { order: after, items } };
	}

	/** Validation right away; the sandbox's next step after its delay; nothing otherwise. */
	async #scheduleNext(status: string, mode: string): Promise<void> {
		if (status === "validating") await this.ctx.storage.setAlarm(Date.now());
		else if (mode === "test" && (status === "in_production" || status === "shipped")) {
			await this.ctx.storage.setAlarm(Date.now() + sandboxStepMs(this.env));
		}
	}
}

/** A tracking number that cannot be mistaken for a real one. */
function sandboxTracking() {
	const number = `SANDBOX-${randomBase62(12).toUpperCase()}`;
	return { carrier: "Sandbox Parcel Co.", number, url: `https://sandbox.invalid/track/${number}` };
}
