import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	type Actor,
	applyMove,
	decidingHoldReason,
	HOLD_REASONS,
	type HoldDetail,
	initialState,
	type Move,
	type MoveKind,
	ORDER_STATUSES,
	type OrderStatus,
	releasable,
	stateProblems,
	TRANSITIONS,
	type Tracking,
} from "../../src/orders/state-machine.ts";

const START = Date.parse("2027-01-01T00:00:00.000Z");

const holdDetail: fc.Arbitrary<HoldDetail> = fc.record({
	item_id: fc.option(fc.string({ minLength: 1, maxLength: 12 }), { nil: null }),
	field: fc.constantFrom("print_file_id", "print_file_url", "width_in", "height_in", "frame", "mat"),
	code: fc.constantFrom(...HOLD_REASONS),
	message: fc.string({ minLength: 1, maxLength: 40 }),
});

const tracking: fc.Arbitrary<Tracking> = fc.record({
	carrier: fc.constantFrom("UPS", "USPS", "FedEx", "DHL"),
	number: fc.string({ minLength: 1, maxLength: 24 }),
	url: fc.webUrl(),
});

/** A well-formed move of each kind, with random contents. */
const MOVES: { [K in MoveKind]: fc.Arbitrary<Extract<Move, { kind: K }>> } = {
	start_validation: fc.constant({ kind: "start_validation" }),
	pass_validation: fc.constant({ kind: "pass_validation" }),
	fail_validation: fc.record({
		kind: fc.constant("fail_validation"),
		holdReason: fc.constantFrom(...HOLD_REASONS),
		holdDetails: fc.array(holdDetail, { minLength: 1, maxLength: 4 }),
	}),
	hold: fc.record({ kind: fc.constant("hold"), message: fc.string({ minLength: 1, maxLength: 60 }) }),
	file_changed: fc.record({
		kind: fc.constant("file_changed"),
		holdDetails: fc.array(holdDetail, { minLength: 1, maxLength: 4 }),
	}),
	release: fc.constant({ kind: "release" }),
	fix_items: fc.constant({ kind: "fix_items" }),
	start: fc.constant({ kind: "start" }),
	ship: fc.record({ kind: fc.constant("ship"), tracking }),
	deliver: fc.constant({ kind: "deliver" }),
	cancel: fc.constant({ kind: "cancel" }),
};
const MOVE_KINDS = Object.keys(MOVES) as MoveKind[];

const anyMove: fc.Arbitrary<Move> = fc.oneof(...MOVE_KINDS.map((kind): fc.Arbitrary<Move> => MOVES[kind]));
const anyActor: fc.Arbitrary<Actor> = fc.constantFrom("system", "partner", "operator");

/**
 * One request against the order, `gapMs` after the previous one. Drawn blindly, most moves are
 * refused and few sequences get past in_production, so three steps in four are "guided": `pick`
 * chooses among the moves the current status allows (from `menu`) and one of their actors. The
 * blind fourth keeps refusals, wrong actors included, in every sequence.
 */
const step = fc.record({
	move: anyMove,
	actor: anyActor,
	guided: fc.nat({ max: 3 }).map((draw) => draw > 0),
	pick: fc.nat({ max: 1_000 }),
	menu: fc.record(MOVES),
	gapMs: fc.integer({ min: 1, max: 86_400_000 }),
});
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

const steps = fc.array(step, { maxLength: 30 });

/** The move and actor a step asks for, given the order's current status. */
function request(status: OrderStatus, drawn: Step): { move: Move; actor: Actor } {
	if (!drawn.guided) return { move: drawn.move, actor: drawn.actor };
	// Cancel is open from four statuses; at full weight it ends most sequences before shipping.
	const open = MOVE_KINDS.filter((kind) => TRANSITIONS[kind].from.includes(status)).flatMap((kind) =>
		kind === "cancel" ? [kind] : [kind, kind, kind],
	);
	const kind = open[drawn.pick % Math.max(open.length, 1)];
	if (kind === undefined) return { move: drawn.move, actor: drawn.actor };
	const actors = TRANSITIONS[kind].actors;
	const actor = actors[Math.floor(drawn.pick / open.length) % actors.length] ?? drawn.actor;
	return { move: drawn.menu[kind], actor };
}

describe("order state machine (random move sequences)", () => {
	it("every reached state is valid and every accepted move is a row of the table", () => {
		const reached = new Set<OrderStatus>();
		const refusals = new Set<string>();
		fc.assert(
			fc.property(steps, (sequence) => {
				let state = initialState();
				let now = START;
				const visited: OrderStatus[] = [state.status];
				for (const drawn of sequence) {
					now += drawn.gapMs;
					const { move: requested, actor: who } = request(state.status, drawn);
					const before = state;
					const snapshot = structuredClone(before);
					const rule = TRANSITIONS[requested.kind];
					const result = applyMove(before, requested, who, new Date(now));
					// Neither an accepted nor a refused move touches the caller's state.
					expect(before).toEqual(snapshot);
					if (result.ok) {
						expect(rule.from).toContain(before.status);
						expect(rule.actors).toContain(who);
						expect(result.state.status).toBe(rule.to);
						expect(result.event).toBe(rule.event);
						state = result.state;
					} else {
						const tableAllows = rule.actors.includes(who) && rule.from.includes(before.status);
						const expectedReason = !rule.actors.includes(who)
							? "actor_not_allowed"
							: !tableAllows
								? "not_allowed_from_status"
								: before.startedAt === null
									? "needs_partner_fix"
									: requested.kind === "start"
										? "already_started"
										: "floor_started";
						expect(result.reason).toBe(expectedReason);
						refusals.add(result.reason);
						// A move the table allows is refused only for when the floor started the order (a second
						// start, or the partner's cancel or item fix of a started order), or for a release of a
						// hold only the partner can fix.
						if (result.reason === "floor_started") {
							expect(who === "partner" && ["cancel", "fix_items"].includes(requested.kind)).toBe(true);
						} else if (tableAllows && result.reason !== "already_started") {
							const deciding = decidingHoldReason(before.holdReason, before.holdDetails);
							expect(requested.kind === "release" && !releasable(deciding)).toBe(true);
						}
					}
					expect(ORDER_STATUSES).toContain(state.status);
					expect(stateProblems(state)).toEqual([]);
					expect(state.canceledAt !== null && state.shippedAt !== null).toBe(false);
					if (state.status === "canceled") expect(visited).not.toContain("shipped");
					if (state.status === "delivered") expect(visited).toContain("shipped");
					if (result.ok && requested.kind === "ship") expect(state.shippedAt).toBe(new Date(now).toISOString());
					if (state.deliveredAt !== null && state.shippedAt !== null) {
						expect(Date.parse(state.deliveredAt)).toBeGreaterThan(Date.parse(state.shippedAt));
					}
					visited.push(state.status);
					reached.add(state.status);
				}
			}),
			{ numRuns: 800 },
		);
		// The generator must actually reach every status, or the checks above prove little.
		expect([...reached].sort()).toEqual([...ORDER_STATUSES].sort());
		expect([...refusals].sort()).toEqual([
			"actor_not_allowed",
			"already_started",
			"floor_started",
			"needs_partner_fix",
			"not_allowed_from_status",
		]);
	});

	it("timestamps, once set, never change, and a canceled or delivered order stays put", () => {
		fc.assert(
			fc.property(steps, (sequence) => {
				let state = initialState();
				let now = START;
				for (const drawn of sequence) {
					now += drawn.gapMs;
					const { move: requested, actor: who } = request(state.status, drawn);
					const result = applyMove(state, requested, who, new Date(now));
					if (!result.ok) continue;
					const next = result.state;
					for (const field of ["shippedAt", "deliveredAt", "canceledAt"] as const) {
						if (state[field] !== null) expect(next[field]).toBe(state[field]);
					}
					if (state.tracking !== null) expect(next.tracking).toEqual(state.tracking);
					expect(["delivered", "canceled"]).not.toContain(state.status);
					state = next;
				}
			}),
			{ numRuns: 500 },
		);
	});
});
