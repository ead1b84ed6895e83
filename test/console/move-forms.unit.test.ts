import { describe, expect, it } from "vitest";
import { CONSOLE_MOVES, isConsoleMove, moveFromForm, movesAllowedFrom } from "../../src/console/move-forms.ts";
import { formatTime } from "../../src/http/format.ts";
import { HOLD_CLEARED_BY, HOLD_REASONS, ORDER_STATUSES, TRANSITIONS } from "../../src/orders/state-machine.ts";
import { statusLabel } from "../../src/orders/words.ts";

describe("movesAllowedFrom", () => {
	it("offers exactly the operator moves the transition table allows from each status", () => {
		expect(Object.fromEntries(ORDER_STATUSES.map((status) => [status, movesAllowedFrom(status)]))).toEqual({
			received: ["cancel"],
			validating: ["cancel"],
			in_production: ["ship", "hold", "cancel"],
			on_hold: ["release", "cancel"],
			shipped: ["deliver"],
			delivered: [],
			canceled: [],
		});
	});

	it("offers a release only for a hold the release clears: the floor's own hold and a failed fetch", () => {
		expect(movesAllowedFrom("on_hold", "operator_hold")).toEqual(["release", "cancel"]);
		expect(movesAllowedFrom("on_hold", "file_fetch_failed")).toEqual(["release", "cancel"]);
		for (const reason of HOLD_REASONS.filter((each) => HOLD_CLEARED_BY[each].by === "partner")) {
			expect(movesAllowedFrom("on_hold", reason), reason).toEqual(["cancel"]);
		}
		expect(HOLD_REASONS.filter((each) => HOLD_CLEARED_BY[each].by === "partner")).toHaveLength(10);
	});

	it("never offers a move the table does not give the operator", () => {
		for (const status of ORDER_STATUSES) {
			for (const move of movesAllowedFrom(status)) {
				expect(TRANSITIONS[move].actors).toContain("operator");
				expect(TRANSITIONS[move].from).toContain(status);
			}
		}
	});

	it("the console's moves are the six operator moves, the start first (its own panel, not a Moves form)", () => {
		expect([...CONSOLE_MOVES]).toEqual(["start", "ship", "hold", "release", "deliver", "cancel"]);
		expect(isConsoleMove("start")).toBe(true);
		expect(isConsoleMove("ship")).toBe(true);
		expect(isConsoleMove("pass_validation")).toBe(false);
		expect(isConsoleMove("fix_items")).toBe(false);
	});
});

describe("moveFromForm", () => {
	it("reads a ship form into a ship move with trimmed tracking", () => {
		const result = moveFromForm("ship", {
			carrier: " UPS ",
			number: "1Z9",
			url: "https://ups.example/t/1Z9",
			_csrf: "x",
		});
		expect(result).toEqual({
			ok: true,
			move: { kind: "ship", tracking: { carrier: "UPS", number: "1Z9", url: "https://ups.example/t/1Z9" } },
		});
	});

	it("reads a ship form with the URL left empty into a ship with the carrier's tracking page", () => {
		expect(moveFromForm("ship", { carrier: "USPS", number: "9400 1", url: "" })).toEqual({
			ok: true,
			move: {
				kind: "ship",
				tracking: {
					carrier: "USPS",
					number: "9400 1",
					url: "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400%201",
				},
			},
		});
		const unknown = moveFromForm("ship", { carrier: "Harbour Couriers", number: "HC-1", url: "" });
		expect(unknown.ok === false && unknown.fieldErrors).toEqual({
			url: 'Tracking URL is needed for carrier "Harbour Couriers": only UPS, USPS, FedEx, DHL tracking URLs follow from the number.',
		});
	});

	it("names each bad ship field by its label and keeps what was typed", () => {
		const result = moveFromForm("ship", { carrier: "", number: "1Z9", url: "ftp://ups.example" });
		expect(result).toEqual({
			ok: false,
			values: { carrier: "", number: "1Z9", url: "ftp://ups.example" },
			fieldErrors: { carrier: "Carrier must not be empty.", url: "Tracking URL must be an http or https URL." },
		});
	});

	it("reads missing and non-text fields as empty", () => {
		const result = moveFromForm("ship", { carrier: new File(["x"], "x.txt") });
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.values).toEqual({ carrier: "", number: "", url: "" });
			expect(Object.keys(result.fieldErrors).sort()).toEqual(["carrier", "number", "url"]);
		}
	});

	it("reads a hold form into a hold with the trimmed message, and refuses an empty or over-long one", () => {
		expect(moveFromForm("hold", { message: "  Frame damaged  " })).toEqual({
			ok: true,
			move: { kind: "hold", message: "Frame damaged" },
		});
		expect(moveFromForm("hold", { message: " " })).toMatchObject({
			ok: false,
			fieldErrors: { message: "Hold message must not be empty." },
		});
		expect(moveFromForm("hold", { message: "x".repeat(1001) })).toMatchObject({
			ok: false,
			fieldErrors: { message: "Hold message must be at most 1000 characters." },
		});
	});

	it("start, release and deliver need no fields", () => {
		expect(moveFromForm("start", {})).toEqual({ ok: true, move: { kind: "start" } });
		expect(moveFromForm("release", {})).toEqual({ ok: true, move: { kind: "release" } });
		expect(moveFromForm("deliver", { anything: "ignored" })).toEqual({ ok: true, move: { kind: "deliver" } });
	});

	it("cancel needs a reason, one line without control characters, trimmed", () => {
		expect(moveFromForm("cancel", { reason: "  Buyer asked  " })).toEqual({
			ok: true,
			move: { kind: "cancel", reason: "Buyer asked" },
		});
		expect(moveFromForm("cancel", {})).toMatchObject({
			ok: false,
			fieldErrors: { reason: "Reason must not be empty." },
		});
		expect(moveFromForm("cancel", { reason: "a\u0007b" })).toMatchObject({
			ok: false,
			fieldErrors: { reason: "Reason must not contain control characters." },
		});
	});
});

describe("formatting", () => {
	it("times are shown in UTC, to the minute or the second", () => {
		expect(formatTime("2026-11-21T18:39:04.123Z")).toBe("2026-11-21 18:39 UTC");
		expect(formatTime("2026-11-21T18:39:04.123Z", true)).toBe("2026-11-21 18:39:04 UTC");
		expect(formatTime("not a time")).toBe("not a time");
	});

	it("statuses read as words", () => {
		expect(statusLabel("in_production")).toBe("In production");
		expect(statusLabel("on_hold")).toBe("On hold");
		expect(statusLabel("canceled")).toBe("Canceled");
	});
});
