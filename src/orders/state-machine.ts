/**
 * The order state machine, as pure data and functions: which moves exist, from
 * which statuses, who may make them, and what each one sets. The order's Durable Object and the
 * routes only call `applyMove`; nothing else decides a status.
 */

import { HOLD_REASONS, type HoldReason } from "../error-catalog.ts";
import { floorStartedReason } from "./edit-window.ts";
import type { OrderEventType, OrderUpdateSubject } from "./events.ts";

export const ORDER_STATUSES = [
	"received",
	"validating",
	"in_production",
	"on_hold",
	"shipped",
	"delivered",
	"canceled",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

// The hold reasons are declared with the error codes, so the error catalog and the events' schemas can name them too.
export { HOLD_REASONS, type HoldReason };

/**
 * What clears each hold. `release`: the floor's release does (validation runs again and fetches a
 * partner's file again). `partner`: only the partner's fix of the item does, and `fix` says what it
 * must change; a release would find the same problem and hold the order again.
 */
export const HOLD_CLEARED_BY: Readonly<Record<HoldReason, { by: "release" } | { by: "partner"; fix: string }>> = {
	file_resolution_too_low: { by: "partner", fix: "send a print file with more pixels, or order a smaller size" },
	file_unreadable: { by: "partner", fix: "upload the print file again: it is missing, unreadable or changed" },
	file_fetch_failed: { by: "release" },
	unsupported_file_format: { by: "partner", fix: "send the print file as a TIFF, PNG or JPEG" },
	// The account's own setting holds it: only the partner can send an RGB file or change the setting.
	cmyk_file: {
		by: "partner",
		fix: "send an RGB print file (sRGB, or Adobe RGB with its profile embedded), or set the account's cmyk_files to \"convert\" and send the item's print_file_id again",
	},
	size_not_offered: { by: "partner", fix: "change the item to a size the catalog offers" },
	frame_not_found: { by: "partner", fix: "change the item to a frame in the catalog" },
	mat_not_found: { by: "partner", fix: "change the item to a mat in the catalog" },
	glazing_not_found: { by: "partner", fix: "change the item to a glazing in the catalog" },
	paper_not_found: { by: "partner", fix: "change the item to a paper in the catalog" },
	frame_too_small_for_size: { by: "partner", fix: "choose a frame that carries the piece, or a smaller size or mat" },
	operator_hold: { by: "release" },
};

/** Whether the floor's release clears a hold for `reason`. */
export function releasable(reason: HoldReason | null): boolean {
	return reason === null || HOLD_CLEARED_BY[reason].by === "release";
}

/**
 * The reason that decides what clears a hold: the first one, of `hold_reason` and then each detail's
 * own, that only the partner's fix clears; else `hold_reason`. An order held for a failed fetch that
 * also names a frame not in the catalog needs the partner: a release would fetch again, then hold it
 * for the frame.
 */
export function decidingHoldReason(
	holdReason: HoldReason | null,
	holdDetails: readonly Pick<HoldDetail, "code">[],
): HoldReason | null {
	const reasons = [holdReason, ...holdDetails.map((detail) => detail.code)];
	return reasons.find((reason) => reason !== null && !releasable(reason)) ?? holdReason;
}

/** One entry of `hold_details`: which item, which field, why (the hold reason of this entry) and in words. */
export type HoldDetail = { item_id: string | null; field: string; code: HoldReason; message: string };

/** Who asks for a move: the service itself, the partner (bearer key), or the production floor (ops key). */
export type Actor = "system" | "partner" | "operator";

export type Tracking = { carrier: string; number: string; url: string };

export type Move =
	| { kind: "start_validation" }
	| { kind: "pass_validation" }
	| { kind: "fail_validation"; holdReason: HoldReason; holdDetails: HoldDetail[] }
	| { kind: "hold"; message: string }
	/** The floor found a print file's bytes changed after the check: the order stops until the partner fixes it. */
	| { kind: "file_changed"; holdDetails: HoldDetail[] }
	| { kind: "release" }
	/** The partner's fix of items; `changes` says what changed, for the order.updated event. */
	| { kind: "fix_items"; changes?: OrderUpdateSubject["changes"] }
	/**
	 * The floor starts making the order: from then on the partner can no longer change or cancel it.
	 * `withShipment`: no one started it before its first shipment, which starts it in the same write.
	 */
	| { kind: "start"; withShipment?: boolean }
	| { kind: "ship"; tracking: Tracking }
	| { kind: "deliver" }
	/** `reason`: the floor's, for the order's history (the console asks for one); a partner's cancel has none. */
	| { kind: "cancel"; reason?: string };
export type MoveKind = Move["kind"];

/** The part of an order the state machine reads and writes. */
export type OrderState = {
	status: OrderStatus;
	holdReason: HoldReason | null;
	holdDetails: HoldDetail[];
	tracking: Tracking | null;
	shippedAt: string | null;
	deliveredAt: string | null;
	canceledAt: string | null;
	/** When the floor started making it; null until then, and again once a hold takes it off the floor. */
	startedAt: string | null;
};

type Rule = { from: readonly OrderStatus[]; to: OrderStatus; actors: readonly Actor[]; event: OrderEventType | null };

/** The transition table, one row per move. */
export const TRANSITIONS: Readonly<Record<MoveKind, Rule>> = {
	start_validation: { from: ["received"], to: "validating", actors: ["system"], event: null },
	pass_validation: { from: ["validating"], to: "in_production", actors: ["system"], event: "order.in_production" },
	fail_validation: { from: ["validating"], to: "on_hold", actors: ["system"], event: "order.on_hold" },
	hold: { from: ["in_production"], to: "on_hold", actors: ["operator"], event: "order.on_hold" },
	file_changed: { from: ["in_production"], to: "on_hold", actors: ["system"], event: "order.on_hold" },
	release: { from: ["on_hold"], to: "validating", actors: ["operator"], event: null },
	// Until the floor starts it, an order in production is still the partner's to change.
	fix_items: { from: ["on_hold", "in_production"], to: "validating", actors: ["partner"], event: "order.updated" },
	// Told by the order's `production_started_at`, not by an event; the sandbox starts test orders by itself.
	start: { from: ["in_production"], to: "in_production", actors: ["operator", "system"], event: null },
	// The sandbox ships and delivers test orders by itself, so the system may too.
	ship: { from: ["in_production"], to: "shipped", actors: ["operator", "system"], event: "order.shipped" },
	deliver: { from: ["shipped"], to: "delivered", actors: ["operator", "system"], event: "order.delivered" },
	cancel: {
		from: ["received", "validating", "on_hold", "in_production"],
		to: "canceled",
		actors: ["partner", "operator"],
		event: "order.canceled",
	},
};

export type MoveResult =
	| { ok: true; state: OrderState; event: OrderEventType | null }
	| {
			ok: false;
			/** `floor_started`: a partner's move on an order the floor has started; `already_started`: a second start. */
			reason:
				| "not_allowed_from_status"
				| "actor_not_allowed"
				| "needs_partner_fix"
				| "floor_started"
				| "already_started";
			message: string;
	  };

/** The statuses a move can be made from. */
export function movableFrom(kind: MoveKind): readonly OrderStatus[] {
	return TRANSITIONS[kind].from;
}

/** Applies a move to an order: the new state and the event to record, or why the move is refused. */
export function applyMove(state: OrderState, move: Move, actor: Actor, now: Date): MoveResult {
	const rule = TRANSITIONS[move.kind];
	if (!rule.actors.includes(actor)) {
		return {
			ok: false,
			reason: "actor_not_allowed",
			message: `A ${actor} cannot ${describe(move.kind)} an order (this one is ${state.status}).`,
		};
	}
	if (!rule.from.includes(state.status)) {
		return {
			ok: false,
			reason: "not_allowed_from_status",
			message: `Cannot ${describe(move.kind)} an order that is ${state.status}.`,
		};
	}
	const needsPartner =
		move.kind === "release" ? partnerFixOf(decidingHoldReason(state.holdReason, state.holdDetails)) : null;
	if (needsPartner !== null) return { ok: false, reason: "needs_partner_fix", message: needsPartner };
	const started = startRefusal(state, move, actor);
	if (started !== null) return started;
	const at = now.toISOString();
	// Leaving on_hold (or any move that does not set a hold) clears the hold.
	const next: OrderState = { ...state, status: rule.to, holdReason: null, holdDetails: [] };
	switch (move.kind) {
		case "start":
			next.startedAt = at;
			break;
		case "fail_validation":
			next.holdReason = move.holdReason;
			next.holdDetails = move.holdDetails;
			break;
		// A hold takes the order off the floor and back to the partner: the floor starts it again once released.
		case "file_changed":
			next.holdReason = "file_unreadable";
			next.holdDetails = move.holdDetails;
			next.startedAt = null;
			break;
		case "hold":
			next.holdReason = "operator_hold";
			next.holdDetails = [{ item_id: null, field: "order", code: "operator_hold", message: move.message }];
			next.startedAt = null;
			break;
		case "ship":
			next.tracking = move.tracking;
			next.shippedAt = at;
			// A piece cannot ship unstarted: its ship starts it (the order's machine records that start first).
			next.startedAt = state.startedAt ?? at;
			break;
		case "deliver":
			next.deliveredAt = at;
			break;
		case "cancel":
			next.canceledAt = at;
			break;
		default:
			break;
	}
	return { ok: true, state: next, event: rule.event };
}

/**
 * Why a move the table allows is refused for when the floor started the order: a second start, or the
 * partner's cancel or item fix of an order the floor is making; null otherwise.
 */
function startRefusal(state: OrderState, move: Move, actor: Actor): MoveResult | null {
	if (state.startedAt === null) return null;
	if (move.kind === "start") {
		return { ok: false, reason: "already_started", message: `The floor started this order at ${state.startedAt}.` };
	}
	if (actor !== "partner" || (move.kind !== "cancel" && move.kind !== "fix_items")) return null;
	const what = move.kind === "cancel" ? "cancel" : "items";
	return { ok: false, reason: "floor_started", message: floorStartedReason(state.startedAt, what) };
}

/** Whether two trackings are the same label: carrier, number and URL alike. */
export function sameTracking(a: Tracking | null, b: Tracking | null): boolean {
	return a !== null && b !== null && a.carrier === b.carrier && a.number === b.number && a.url === b.url;
}

/**
 * Whether the order already is what `move` would make it: a refused move that a caller making moves
 * idempotently (the shipments import) can tell from a real conflict. It is refused all the same.
 * Only a ship is told apart: its tracking never changes once shipped (shipped and delivered keep it),
 * so the same tracking means the same label was recorded before.
 */
export function repeatsMove(state: OrderState, move: Move): boolean {
	if (move.kind !== "ship") return false;
	const shippedLike = state.status === "shipped" || state.status === "delivered";
	return shippedLike && sameTracking(state.tracking, move.tracking);
}

/** Why a release cannot clear this hold, and what must happen instead; null when it can. */
function partnerFixOf(reason: HoldReason | null): string | null {
	if (reason === null) return null;
	const cleared = HOLD_CLEARED_BY[reason];
	if (cleared.by === "release") return null;
	return `Cannot release a hold for ${reason}: validation would hold it again. The partner must ${cleared.fix} (PATCH /v1/orders/{id}/items/{item_id}); the order is then validated again by itself. It can also be canceled.`;
}

function describe(kind: MoveKind): string {
	switch (kind) {
		case "start_validation":
			return "start validating";
		case "pass_validation":
			return "pass validation for";
		case "fail_validation":
			return "put on hold after validation";
		case "hold":
			return "hold";
		case "file_changed":
			return "hold for a changed print file";
		case "release":
			return "release the hold on";
		case "fix_items":
			return "change the items of";
		case "start":
			return "start";
		case "ship":
			return "ship";
		case "deliver":
			return "mark delivered";
		case "cancel":
			return "cancel";
	}
}

/**
 * What must hold of an order in each status: the invariant the property test checks on every
 * reachable state, and a guard against corrupt rows.
 */
export function stateProblems(state: OrderState): string[] {
	const problems: string[] = [];
	const shippedLike = state.status === "shipped" || state.status === "delivered";
	if (shippedLike && (state.tracking === null || state.shippedAt === null)) problems.push("shipped without tracking");
	if (!shippedLike && state.status !== "canceled" && (state.tracking !== null || state.shippedAt !== null)) {
		problems.push(`${state.status} with tracking`);
	}
	if ((state.status === "delivered") !== (state.deliveredAt !== null)) problems.push("deliveredAt out of step");
	if ((state.status === "canceled") !== (state.canceledAt !== null)) problems.push("canceledAt out of step");
	if (state.status === "canceled" && state.shippedAt !== null) problems.push("canceled after shipping");
	const onHold = state.status === "on_hold";
	if (onHold && (state.holdReason === null || state.holdDetails.length === 0))
		problems.push("on_hold without a reason");
	if (!onHold && (state.holdReason !== null || state.holdDetails.length > 0))
		problems.push(`${state.status} with a hold reason`);
	const startable = state.status === "in_production" || shippedLike || state.status === "canceled";
	if (!startable && state.startedAt !== null) problems.push(`${state.status} with a start`);
	if (shippedLike && state.startedAt === null) problems.push("shipped without a start");
	return problems;
}

/** A freshly created order. */
export function initialState(): OrderState {
	return {
		status: "received",
		holdReason: null,
		holdDetails: [],
		tracking: null,
		shippedAt: null,
		deliveredAt: null,
		canceledAt: null,
		startedAt: null,
	};
}
