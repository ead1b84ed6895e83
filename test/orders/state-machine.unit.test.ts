import { describe, expect, it } from "vitest";
import {
	type Actor,
	applyMove,
	decidingHoldReason,
	HOLD_CLEARED_BY,
	HOLD_REASONS,
	initialState,
	type Move,
	type MoveKind,
	movableFrom,
	ORDER_STATUSES,
	type OrderState,
	type OrderStatus,
	releasable,
	repeatsMove,
	stateProblems,
	TRANSITIONS,
} from "../../src/orders/state-machine.ts";

const NOW = new Date("2027-03-01T12:00:00.000Z");
const AT = NOW.toISOString();
const EARLIER = "2027-02-20T09:30:00.000Z";
const ACTORS: readonly Actor[] = ["system", "partner", "operator"];
const MOVE_KINDS = Object.keys(TRANSITIONS) as MoveKind[];
const TRACKING = {
	carrier: "UPS",
	number: "1Z999AA10123456784",
	url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
};
/** A hold the floor's release clears: the partner's server did not answer the file's fetch. */
const FILE_HOLD = {
	holdReason: "file_fetch_failed",
	holdDetails: [
		{
			item_id: "item_1",
			field: "print_file_url",
			code: "file_fetch_failed",
			message: "The file's server answered 503.",
		},
	],
} as const;

/** A consistent order in each status, as the state machine would have left it. */
function stateIn(status: OrderStatus): OrderState {
	const base = initialState();
	switch (status) {
		case "received":
		case "validating":
		case "in_production":
			return { ...base, status };
		case "on_hold":
			return { ...base, status, holdReason: FILE_HOLD.holdReason, holdDetails: [...FILE_HOLD.holdDetails] };
		case "shipped":
			return { ...base, status, tracking: TRACKING, shippedAt: EARLIER, startedAt: EARLIER };
		case "delivered":
			return { ...base, status, tracking: TRACKING, shippedAt: EARLIER, deliveredAt: EARLIER, startedAt: EARLIER };
		case "canceled":
			return { ...base, status, canceledAt: EARLIER };
	}
}

/** A well-formed move of each kind. */
function sampleMove(kind: MoveKind): Move {
	switch (kind) {
		case "fail_validation":
			return {
				kind,
				holdReason: "frame_not_found",
				holdDetails: [
					{ item_id: "item_2", field: "frame", code: "frame_not_found", message: 'No frame "teak" in the catalog.' },
				],
			};
		case "hold":
			return { kind, message: "Paper jam on press 3; reprinting tomorrow." };
		case "file_changed":
			return {
				kind,
				holdDetails: [
					{
						item_id: "item_1",
						field: "print_file_id",
						code: "file_unreadable",
						message: "The file's bytes were replaced.",
					},
				],
			};
		case "ship":
			return { kind, tracking: TRACKING };
		default:
			return { kind };
	}
}

/** What the contract says the order looks like after an accepted move. */
function expectedAfter(before: OrderState, move: Move): OrderState {
	const noHold = { ...before, holdReason: null, holdDetails: [] };
	switch (move.kind) {
		case "start_validation":
		case "release":
		case "fix_items":
			return { ...noHold, status: "validating" };
		case "pass_validation":
			return { ...noHold, status: "in_production" };
		case "start":
			return { ...noHold, startedAt: AT };
		case "fail_validation":
			return { ...before, status: "on_hold", holdReason: move.holdReason, holdDetails: move.holdDetails };
		case "file_changed":
			return {
				...before,
				status: "on_hold",
				holdReason: "file_unreadable",
				holdDetails: move.holdDetails,
				startedAt: null,
			};
		case "hold":
			return {
				...before,
				status: "on_hold",
				holdReason: "operator_hold",
				holdDetails: [{ item_id: null, field: "order", code: "operator_hold", message: move.message }],
				startedAt: null,
			};
		case "ship":
			return {
				...noHold,
				status: "shipped",
				tracking: move.tracking,
				shippedAt: AT,
				startedAt: before.startedAt ?? AT,
			};
		case "deliver":
			return { ...noHold, status: "delivered", deliveredAt: AT };
		case "cancel":
			return { ...noHold, status: "canceled", canceledAt: AT };
	}
}

const EXPECTED_EVENTS: Record<MoveKind, string | null> = {
	start_validation: null,
	pass_validation: "order.in_production",
	fail_validation: "order.on_hold",
	hold: "order.on_hold",
	file_changed: "order.on_hold",
	release: null,
	fix_items: "order.updated",
	start: null,
	ship: "order.shipped",
	deliver: "order.delivered",
	cancel: "order.canceled",
};

const allowedMoves = MOVE_KINDS.flatMap((kind) =>
	TRANSITIONS[kind].from.flatMap((from) => TRANSITIONS[kind].actors.map((actor) => ({ kind, from, actor }))),
);

const movesRefusedByStatus = ORDER_STATUSES.flatMap((status) =>
	MOVE_KINDS.filter((kind) => !TRANSITIONS[kind].from.includes(status)).flatMap((kind) =>
		TRANSITIONS[kind].actors.map((actor) => ({ status, kind, actor })),
	),
);

const movesRefusedByActor = MOVE_KINDS.flatMap((kind) =>
	TRANSITIONS[kind].from.flatMap((from) =>
		ACTORS.filter((actor) => !TRANSITIONS[kind].actors.includes(actor)).map((actor) => ({ kind, from, actor })),
	),
);

describe("order state machine", () => {
	it("a new order is received, with no hold, tracking or timestamps, and no problems", () => {
		expect(initialState()).toEqual({
			status: "received",
			holdReason: null,
			holdDetails: [],
			tracking: null,
			shippedAt: null,
			deliveredAt: null,
			canceledAt: null,
			startedAt: null,
		});
		expect(stateProblems(initialState())).toEqual([]);
	});

	it.each(ORDER_STATUSES)("the %s fixture used below is itself a valid state", (status) => {
		expect(stateProblems(stateIn(status))).toEqual([]);
	});

	it("the transition table is the contract's graph", () => {
		expect(MOVE_KINDS.map((kind) => [kind, [...movableFrom(kind)], TRANSITIONS[kind].to])).toEqual([
			["start_validation", ["received"], "validating"],
			["pass_validation", ["validating"], "in_production"],
			["fail_validation", ["validating"], "on_hold"],
			["hold", ["in_production"], "on_hold"],
			["file_changed", ["in_production"], "on_hold"],
			["release", ["on_hold"], "validating"],
			["fix_items", ["on_hold", "in_production"], "validating"],
			["start", ["in_production"], "in_production"],
			["ship", ["in_production"], "shipped"],
			["deliver", ["shipped"], "delivered"],
			["cancel", ["received", "validating", "on_hold", "in_production"], "canceled"],
		]);
	});

	it.each(allowedMoves)(
		"$kind from $from by $actor is accepted with the right status, event and fields",
		({ kind, from, actor }) => {
			const before = stateIn(from);
			const snapshot = structuredClone(before);
			const move = sampleMove(kind);
			const result = applyMove(before, move, actor, NOW);
			if (!result.ok) throw new Error(`refused: ${result.message}`);
			expect(result.state.status).toBe(TRANSITIONS[kind].to);
			expect(result.event).toBe(EXPECTED_EVENTS[kind]);
			expect(result.state).toEqual(expectedAfter(before, move));
			expect(stateProblems(result.state)).toEqual([]);
			// The caller's state is not touched: a failed write can keep using it.
			expect(before).toEqual(snapshot);
		},
	);

	it("start records when the floor started, keeps the order in production and tells no event", () => {
		const result = applyMove(stateIn("in_production"), { kind: "start" }, "operator", NOW);
		expect(result).toEqual({ ok: true, event: null, state: { ...stateIn("in_production"), startedAt: AT } });
	});

	it("a second start is refused as already_started, saying when the floor started", () => {
		const started = { ...stateIn("in_production"), startedAt: EARLIER };
		expect(applyMove(started, { kind: "start" }, "operator", NOW)).toEqual({
			ok: false,
			reason: "already_started",
			message: `The floor started this order at ${EARLIER}.`,
		});
	});

	it("only the floor and the sandbox start an order, and only in production", () => {
		expect(applyMove(stateIn("in_production"), { kind: "start" }, "system", NOW).ok).toBe(true);
		expect(applyMove(stateIn("in_production"), { kind: "start" }, "partner", NOW)).toMatchObject({
			ok: false,
			reason: "actor_not_allowed",
		});
		for (const status of ["received", "validating", "on_hold", "shipped", "delivered", "canceled"] as const) {
			expect(applyMove(stateIn(status), { kind: "start" }, "operator", NOW)).toMatchObject({
				ok: false,
				reason: "not_allowed_from_status",
			});
		}
	});

	it("a partner's cancel or item fix of a started order is refused as floor_started, saying since when", () => {
		const started = { ...stateIn("in_production"), startedAt: EARLIER };
		expect(applyMove(started, { kind: "cancel" }, "partner", NOW)).toEqual({
			ok: false,
			reason: "floor_started",
			message: `The order can no longer be canceled: the floor started it at ${EARLIER}.`,
		});
		expect(applyMove(started, { kind: "fix_items" }, "partner", NOW)).toEqual({
			ok: false,
			reason: "floor_started",
			message: `The order's items can no longer change: the floor started it at ${EARLIER}.`,
		});
		// Before the start both are the partner's; after it the floor may still cancel.
		expect(applyMove(stateIn("in_production"), { kind: "cancel" }, "partner", NOW).ok).toBe(true);
		expect(applyMove(started, { kind: "cancel" }, "operator", NOW)).toMatchObject({
			ok: true,
			state: { status: "canceled", startedAt: EARLIER },
		});
	});

	it("a ship of an order no one started starts it at the shipping time; a started one keeps its start", () => {
		expect(applyMove(stateIn("in_production"), sampleMove("ship"), "operator", NOW)).toMatchObject({
			ok: true,
			state: { startedAt: AT, shippedAt: AT },
		});
		const started = { ...stateIn("in_production"), startedAt: EARLIER };
		expect(applyMove(started, sampleMove("ship"), "operator", NOW)).toMatchObject({
			ok: true,
			state: { startedAt: EARLIER, shippedAt: AT },
		});
	});

	it("a hold takes a started order off the floor: its start is cleared, to be made again after the release", () => {
		const started = { ...stateIn("in_production"), startedAt: EARLIER };
		const held = applyMove(started, { kind: "hold", message: "Wrong paper loaded." }, "operator", NOW);
		expect(held).toMatchObject({ ok: true, state: { status: "on_hold", startedAt: null } });
		const changed = applyMove(started, sampleMove("file_changed"), "system", NOW);
		expect(changed).toMatchObject({ ok: true, state: { status: "on_hold", startedAt: null } });
	});

	it("ship records the tracking and the shipping time", () => {
		const result = applyMove(stateIn("in_production"), sampleMove("ship"), "operator", NOW);
		expect(result).toMatchObject({ ok: true, event: "order.shipped", state: { tracking: TRACKING, shippedAt: AT } });
	});

	it("deliver records the delivery time and keeps the shipping details", () => {
		const result = applyMove(stateIn("shipped"), { kind: "deliver" }, "system", NOW);
		expect(result).toMatchObject({
			ok: true,
			event: "order.delivered",
			state: { status: "delivered", deliveredAt: AT, shippedAt: EARLIER, tracking: TRACKING },
		});
	});

	it("cancel from on_hold records the cancel time and clears the hold", () => {
		const result = applyMove(stateIn("on_hold"), { kind: "cancel" }, "partner", NOW);
		expect(result).toMatchObject({
			ok: true,
			event: "order.canceled",
			state: { status: "canceled", canceledAt: AT, holdReason: null, holdDetails: [] },
		});
	});

	it("fail_validation puts the order on hold with the given reason and details", () => {
		const move = sampleMove("fail_validation");
		const result = applyMove(stateIn("validating"), move, "system", NOW);
		expect(result).toEqual({
			ok: true,
			event: "order.on_hold",
			state: {
				...stateIn("validating"),
				status: "on_hold",
				holdReason: "frame_not_found",
				holdDetails: [
					{ item_id: "item_2", field: "frame", code: "frame_not_found", message: 'No frame "teak" in the catalog.' },
				],
			},
		});
	});

	it("an operator hold is operator_hold with the message as an order-level detail", () => {
		const result = applyMove(
			stateIn("in_production"),
			{ kind: "hold", message: "Wrong paper loaded." },
			"operator",
			NOW,
		);
		expect(result).toMatchObject({
			ok: true,
			event: "order.on_hold",
			state: {
				status: "on_hold",
				holdReason: "operator_hold",
				holdDetails: [{ item_id: null, field: "order", message: "Wrong paper loaded." }],
			},
		});
	});

	it("fix_items by the partner clears the hold, sends the order back to validating and records order.updated", () => {
		const result = applyMove(stateIn("on_hold"), { kind: "fix_items" }, "partner", NOW);
		expect(result).toEqual({ ok: true, event: "order.updated", state: { ...initialState(), status: "validating" } });
	});

	it("release by the operator clears a hold for a failed file fetch and sends the order back to validating", () => {
		const result = applyMove(stateIn("on_hold"), { kind: "release" }, "operator", NOW);
		expect(result).toEqual({ ok: true, event: null, state: { ...initialState(), status: "validating" } });
	});

	const PARTNER_HOLDS = HOLD_REASONS.filter((reason) => reason !== "operator_hold" && reason !== "file_fetch_failed");

	it("only an operator hold and a failed fetch are holds a release clears", () => {
		expect(HOLD_REASONS.filter(releasable)).toEqual(["file_fetch_failed", "operator_hold"]);
	});

	it.each(PARTNER_HOLDS)(
		"release of a %s hold is refused, naming the reason and what the partner must change",
		(reason) => {
			const before = { ...stateIn("on_hold"), holdReason: reason };
			const snapshot = structuredClone(before);
			const result = applyMove(before, { kind: "release" }, "operator", NOW);
			const cleared = HOLD_CLEARED_BY[reason];
			if (result.ok || cleared.by !== "partner") throw new Error(`release of ${reason} went through`);
			expect(result.reason).toBe("needs_partner_fix");
			expect(result.message).toBe(
				`Cannot release a hold for ${reason}: validation would hold it again. The partner must ${cleared.fix} (PATCH /v1/orders/{id}/items/{item_id}); the order is then validated again by itself. It can also be canceled.`,
			);
			expect(before).toEqual(snapshot);
			// The partner's own fix still clears it.
			expect(applyMove(before, { kind: "fix_items" }, "partner", NOW).ok).toBe(true);
		},
	);

	it("release of a failed-fetch hold that also names a frame not in the catalog is refused for the frame", () => {
		const before = {
			...stateIn("on_hold"),
			holdReason: "file_fetch_failed" as const,
			holdDetails: [
				{
					item_id: "item_1",
					field: "print_file_url",
					code: "file_fetch_failed" as const,
					message: "The file's server answered 503.",
				},
				{
					item_id: "item_2",
					field: "frame",
					code: "frame_not_found" as const,
					message: 'No frame "oak-99" in the catalog.',
				},
			],
		};
		expect(decidingHoldReason(before.holdReason, before.holdDetails)).toBe("frame_not_found");
		const result = applyMove(before, { kind: "release" }, "operator", NOW);
		if (result.ok) throw new Error("the release went through");
		expect(result.reason).toBe("needs_partner_fix");
		expect(result.message).toContain("Cannot release a hold for frame_not_found");
		// Without the frame problem the same hold is the floor's to release.
		expect(decidingHoldReason(before.holdReason, before.holdDetails.slice(0, 1))).toBe("file_fetch_failed");
		expect(
			applyMove({ ...before, holdDetails: before.holdDetails.slice(0, 1) }, { kind: "release" }, "operator", NOW).ok,
		).toBe(true);
	});

	it("release also clears an operator hold", () => {
		const held = applyMove(stateIn("in_production"), { kind: "hold", message: "Check colours." }, "operator", NOW);
		if (!held.ok) throw new Error(held.message);
		const released = applyMove(held.state, { kind: "release" }, "operator", NOW);
		expect(released).toEqual({ ok: true, event: null, state: { ...initialState(), status: "validating" } });
	});

	it("start_validation moves received to validating without an event and leaves nothing set", () => {
		expect(applyMove(initialState(), { kind: "start_validation" }, "system", NOW)).toEqual({
			ok: true,
			event: null,
			state: { ...initialState(), status: "validating" },
		});
	});

	it("pass_validation moves validating to in_production with order.in_production", () => {
		expect(applyMove(stateIn("validating"), { kind: "pass_validation" }, "system", NOW)).toEqual({
			ok: true,
			event: "order.in_production",
			state: { ...initialState(), status: "in_production" },
		});
	});

	it.each(movesRefusedByStatus)(
		"$kind by $actor from $status is refused as not allowed from that status",
		({ status, kind, actor }) => {
			const before = stateIn(status);
			const snapshot = structuredClone(before);
			const result = applyMove(before, sampleMove(kind), actor, NOW);
			expect(result).toMatchObject({ ok: false, reason: "not_allowed_from_status" });
			if (result.ok) return;
			expect(result.message).toContain(status);
			expect(before).toEqual(snapshot);
		},
	);

	it("every status refuses every move kind its table row does not list", () => {
		const refusedKinds = Object.fromEntries(
			ORDER_STATUSES.map((status) => [
				status,
				[...new Set(movesRefusedByStatus.filter((entry) => entry.status === status).map((entry) => entry.kind))],
			]),
		);
		expect(refusedKinds).toEqual({
			received: [
				"pass_validation",
				"fail_validation",
				"hold",
				"file_changed",
				"release",
				"fix_items",
				"start",
				"ship",
				"deliver",
			],
			validating: ["start_validation", "hold", "file_changed", "release", "fix_items", "start", "ship", "deliver"],
			in_production: ["start_validation", "pass_validation", "fail_validation", "release", "deliver"],
			on_hold: [
				"start_validation",
				"pass_validation",
				"fail_validation",
				"hold",
				"file_changed",
				"start",
				"ship",
				"deliver",
			],
			shipped: [
				"start_validation",
				"pass_validation",
				"fail_validation",
				"hold",
				"file_changed",
				"release",
				"fix_items",
				"start",
				"ship",
				"cancel",
			],
			delivered: MOVE_KINDS,
			canceled: MOVE_KINDS,
		});
	});

	it.each(movesRefusedByActor)(
		"$kind by $actor from $from is refused: that actor may not make it",
		({ kind, from, actor }) => {
			const before = stateIn(from);
			const snapshot = structuredClone(before);
			const result = applyMove(before, sampleMove(kind), actor, NOW);
			expect(result).toMatchObject({ ok: false, reason: "actor_not_allowed" });
			if (result.ok) return;
			expect(result.message).toContain(actor);
			expect(before).toEqual(snapshot);
		},
	);

	it.each([
		["ship", "partner", "in_production"],
		["fix_items", "operator", "on_hold"],
		["cancel", "system", "received"],
		["release", "partner", "on_hold"],
		["hold", "partner", "in_production"],
		["hold", "system", "in_production"],
		["deliver", "partner", "shipped"],
		["start_validation", "operator", "received"],
		["pass_validation", "partner", "validating"],
		["fail_validation", "operator", "validating"],
	] as const)("a %s by the %s is refused with actor_not_allowed", (kind, actor, from) => {
		const result = applyMove(stateIn(from), sampleMove(kind), actor, NOW);
		expect(result).toEqual({ ok: false, reason: "actor_not_allowed", message: expect.stringContaining(actor) });
	});

	it.each(["delivered", "canceled"] as const)("%s is terminal: no move by any actor is accepted", (status) => {
		for (const kind of MOVE_KINDS) {
			for (const actor of ACTORS) {
				const result = applyMove(stateIn(status), sampleMove(kind), actor, NOW);
				expect(result.ok, `${kind} by ${actor}`).toBe(false);
			}
		}
	});

	it("a shipped order cannot be canceled, and the message names its status", () => {
		expect(applyMove(stateIn("shipped"), { kind: "cancel" }, "partner", NOW)).toEqual({
			ok: false,
			reason: "not_allowed_from_status",
			message: "Cannot cancel an order that is shipped.",
		});
	});
});

describe("repeatsMove", () => {
	it("a ship with the tracking a shipped or delivered order has is a repeat; any other label or move is not", () => {
		const ship = (tracking: typeof TRACKING): Move => ({ kind: "ship", tracking });
		expect(repeatsMove(stateIn("shipped"), ship(TRACKING))).toBe(true);
		expect(repeatsMove(stateIn("delivered"), ship({ ...TRACKING }))).toBe(true);
		expect(repeatsMove(stateIn("shipped"), ship({ ...TRACKING, number: "1Z999AA10123456785" }))).toBe(false);
		expect(repeatsMove(stateIn("shipped"), ship({ ...TRACKING, carrier: "FedEx" }))).toBe(false);
		expect(repeatsMove(stateIn("shipped"), ship({ ...TRACKING, url: "https://www.ups.com/track" }))).toBe(false);
		expect(repeatsMove(stateIn("in_production"), ship(TRACKING))).toBe(false);
		expect(repeatsMove(stateIn("canceled"), { kind: "cancel" })).toBe(false);
	});
});
