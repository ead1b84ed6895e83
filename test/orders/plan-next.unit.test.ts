/** planNext, the pure rule of what an order's machine does when the order is asked to move on by itself. */
import { describe, expect, it } from "vitest";
import { type OrderToPlan, planNext, type Trigger } from "../../src/orders/plan-next.ts";
import type { OrderStatus } from "../../src/orders/state-machine.ts";

const UPLOAD = { print_file_url: null };
const FETCHED = { print_file_url: "https://files.partner.example/print.png" };

/** An order in `status` at version 3, its one item's file uploaded unless told. */
function order(
	status: OrderStatus,
	options: {
		mode?: "live" | "test";
		version?: number;
		items?: OrderToPlan["items"];
		progress?: "automatic" | "manual";
		startedAt?: string;
	} = {},
): OrderToPlan {
	return {
		order: {
			status,
			mode: options.mode ?? "live",
			version: options.version ?? 3,
			sandbox_progress: options.progress ?? "automatic",
			started_at: options.startedAt ?? null,
		},
		items: options.items ?? [UPLOAD],
	};
}

const CREATED: Trigger = { kind: "created" };
const ADVANCE: Trigger = { kind: "advance" };
const ANY_VERSION: Trigger = { kind: "alarm", forVersion: null };
const STARTED = "2027-03-01T12:00:00.000Z";

describe("planNext", () => {
	it("leaves a test order moved by hand received and in production until the sandbox's controls advance it", () => {
		for (const status of ["received", "in_production", "shipped"] as const) {
			const manual = order(status, { mode: "test", progress: "manual" });
			expect(planNext(manual, CREATED)).toEqual({ kind: "wait" });
			expect(planNext(manual, ANY_VERSION)).toEqual({ kind: "wait" });
		}
		expect(planNext(order("received", { mode: "test", progress: "manual" }), ADVANCE)).toEqual({
			kind: "validate",
			startFirst: false,
		});
		expect(planNext(order("in_production", { mode: "test", progress: "manual" }), ADVANCE)).toEqual({
			kind: "sandbox_move",
			move: "ship",
		});
	});

	it("runs a started validation of a test order moved by hand to its verdict", () => {
		const validating = order("validating", { mode: "test", progress: "manual" });
		expect(planNext(validating, ANY_VERSION)).toEqual({ kind: "validate", startFirst: false });
	});

	it("validates a received order of uploads in one write with its start, whatever asked", () => {
		for (const trigger of [CREATED, ADVANCE, ANY_VERSION]) {
			expect(planNext(order("received"), trigger)).toEqual({ kind: "validate", startFirst: false });
		}
	});

	it("writes the start first for a received order with a file to fetch, so it shows validating meanwhile", () => {
		const mixed = order("received", { items: [UPLOAD, FETCHED] });
		expect(planNext(mixed, ANY_VERSION)).toEqual({ kind: "validate", startFirst: true });
		expect(planNext(mixed, ADVANCE)).toEqual({ kind: "validate", startFirst: true });
	});

	it("validates an order already validating without writing its start again", () => {
		const validating = order("validating", { items: [FETCHED] });
		expect(planNext(validating, ANY_VERSION)).toEqual({ kind: "validate", startFirst: false });
		expect(planNext(validating, ADVANCE)).toEqual({ kind: "validate", startFirst: false });
	});

	it("retries the validation from an alarm set for an older version: that alarm started it", () => {
		const validating = order("validating", { version: 4 });
		expect(planNext(validating, { kind: "alarm", forVersion: 3 })).toEqual({ kind: "validate", startFirst: false });
	});

	it("starts a test order in production, ships a started one, and delivers a shipped one: the sandbox plays the floor", () => {
		expect(planNext(order("in_production", { mode: "test" }), ANY_VERSION)).toEqual({
			kind: "sandbox_move",
			move: "start",
		});
		expect(planNext(order("in_production", { mode: "test", startedAt: STARTED }), ANY_VERSION)).toEqual({
			kind: "sandbox_move",
			move: "ship",
		});
		expect(planNext(order("shipped", { mode: "test" }), ADVANCE)).toEqual({ kind: "sandbox_move", move: "deliver" });
	});

	it("makes the sandbox's move from an alarm set for the version the order is at", () => {
		const inProduction = order("in_production", { mode: "test", version: 5 });
		expect(planNext(inProduction, { kind: "alarm", forVersion: 5 })).toEqual({ kind: "sandbox_move", move: "start" });
		const started = order("in_production", { mode: "test", version: 6, startedAt: STARTED });
		expect(planNext(started, { kind: "alarm", forVersion: 6 })).toEqual({ kind: "sandbox_move", move: "ship" });
	});

	it("does nothing for an alarm set for a version the order has left (the move that left it set its own)", () => {
		const inProduction = order("in_production", { mode: "test", version: 5 });
		expect(planNext(inProduction, { kind: "alarm", forVersion: 4 })).toEqual({ kind: "wait" });
	});

	it("the sandbox's advance ships an order in production at once, started or not: the ship starts it", () => {
		expect(planNext(order("in_production", { mode: "test" }), ADVANCE)).toEqual({ kind: "sandbox_move", move: "ship" });
	});

	it("the sandbox's advance does not ask for a version: it moves the order as it is now", () => {
		expect(planNext(order("in_production", { mode: "test", version: 9 }), ADVANCE)).toEqual({
			kind: "sandbox_move",
			move: "ship",
		});
	});

	it("leaves a live order in production or shipped to the floor", () => {
		expect(planNext(order("in_production"), ANY_VERSION)).toEqual({ kind: "wait" });
		expect(planNext(order("shipped"), CREATED)).toEqual({ kind: "wait" });
	});

	it("refuses the sandbox's advance of an order with nothing to do by itself, naming its status", () => {
		for (const status of ["on_hold", "delivered", "canceled"] as const) {
			expect(planNext(order(status, { mode: "test" }), ADVANCE)).toEqual({
				kind: "refuse",
				message: `The sandbox cannot advance an order that is ${status}.`,
			});
		}
		expect(planNext(order("in_production"), ADVANCE)).toEqual({
			kind: "refuse",
			message: "The sandbox cannot advance an order that is in_production.",
		});
	});

	it("answers an order with nothing to do by itself as it is when its alarm or its create asks", () => {
		for (const status of ["on_hold", "delivered", "canceled"] as const) {
			expect(planNext(order(status, { mode: "test" }), ANY_VERSION)).toEqual({ kind: "wait" });
			expect(planNext(order(status), CREATED)).toEqual({ kind: "wait" });
		}
	});
});
