import { describe, expect, it } from "vitest";
import {
	type CatalogFacts,
	checkItem,
	type FileFacts,
	type ItemFindings,
	type ItemToCheck,
	LOW_RESOLUTION,
	orderVerdict,
} from "../../src/orders/item-checks.ts";
import { INVALID_REASONS } from "../../src/print-files/image-types.ts";

const CATALOG: CatalogFacts = {
	frames: new Set(["oak-natural", "black-metal"]),
	mats: new Set(["white-2in", "black-2in"]),
	minIn: 4,
	maxIn: 60,
};

/** A 16 × 20 in print of an uploaded file, no frame or mat, unless overridden. */
function item(overrides: Partial<ItemToCheck> = {}): ItemToCheck {
	return {
		id: "item_1",
		width_in: 16,
		height_in: 20,
		frame: null,
		mat: null,
		fileField: "print_file_id",
		...overrides,
	};
}

function ready(widthPx: number, heightPx: number): FileFacts {
	return { kind: "ready", widthPx, heightPx };
}

/** A file at exactly 300 DPI for 16 × 20 in. */
const SHARP = ready(4800, 6000);

describe("checkItem and orderVerdict", () => {
	it("a file at 300 DPI passes with no warnings", () => {
		expect(checkItem(item(), SHARP, CATALOG)).toEqual({ problems: [], effectiveDpi: 300, warnings: [] });
	});

	it("a file above 300 DPI passes with no warnings", () => {
		expect(checkItem(item(), ready(9600, 12000), CATALOG)).toEqual({ problems: [], effectiveDpi: 600, warnings: [] });
	});

	it("a file just under 300 DPI passes with a low_resolution warning", () => {
		const findings = checkItem(item(), ready(4799, 6000), CATALOG);
		expect(findings.problems).toEqual([]);
		expect(findings.warnings).toEqual([LOW_RESOLUTION]);
		expect(LOW_RESOLUTION).toBe("low_resolution");
		expect(findings.effectiveDpi).toBeCloseTo(4799 / 16, 10);
	});

	it("a file at exactly 150 DPI passes with a low_resolution warning", () => {
		expect(checkItem(item(), ready(2400, 3000), CATALOG)).toEqual({
			problems: [],
			effectiveDpi: 150,
			warnings: ["low_resolution"],
		});
	});

	it("a file below 150 DPI is file_resolution_too_low on the file field, with the numbers in the message", () => {
		const findings = checkItem(item(), ready(1600, 2000), CATALOG);
		expect(findings.effectiveDpi).toBe(100);
		expect(findings.warnings).toEqual([]);
		expect(findings.problems).toEqual([
			{
				reason: "file_resolution_too_low",
				detail: {
					item_id: "item_1",
					field: "print_file_id",
					message: "The file is 1600 × 2000 px: 100 DPI at 16 × 20 in, below the 150 DPI minimum.",
				},
			},
		]);
	});

	it("the hold detail names print_file_url when the file came by URL", () => {
		const findings = checkItem(item({ fileField: "print_file_url" }), ready(1600, 2000), CATALOG);
		expect(findings.problems.map((entry) => entry.detail.field)).toEqual(["print_file_url"]);
	});

	it("the message of a file just under 150 DPI does not claim 150 DPI", () => {
		// 2399 / 16 = 149.94 DPI: rejected, so the message must not round it up to the minimum.
		const findings = checkItem(item(), ready(2399, 3000), CATALOG);
		expect(findings.problems.map((entry) => entry.reason)).toEqual(["file_resolution_too_low"]);
		const message = findings.problems[0]?.detail.message ?? "";
		const stated = Number(/: ([\d.]+) DPI at/.exec(message)?.[1]);
		expect(stated).toBeLessThan(150);
	});

	it("a landscape file for a portrait print is turned: long side goes with long side", () => {
		// 6000 × 4800 px for 16 × 20 in: 300 DPI once rotated, 240 if matched width to width.
		expect(checkItem(item(), ready(6000, 4800), CATALOG)).toEqual({ problems: [], effectiveDpi: 300, warnings: [] });
	});

	it("a rotated panorama that would fail width-to-width passes long-to-long", () => {
		// 9000 × 3000 px for 10 × 30 in: 300 DPI rotated; width to width would give 3000 / 30 = 100.
		expect(checkItem(item({ width_in: 10, height_in: 30 }), ready(9000, 3000), CATALOG)).toEqual({
			problems: [],
			effectiveDpi: 300,
			warnings: [],
		});
	});

	it("effective DPI is the lower of long/long and short/short", () => {
		// 6000 / 20 = 300 on the long side, 3000 / 16 = 187.5 on the short side.
		const findings = checkItem(item(), ready(3000, 6000), CATALOG);
		expect(findings.effectiveDpi).toBe(187.5);
		expect(findings.warnings).toEqual(["low_resolution"]);
		expect(checkItem(item(), ready(6000, 3000), CATALOG).effectiveDpi).toBe(187.5);
	});

	it("an unsupported format is unsupported_file_format with the inspector's message", () => {
		const file: FileFacts = { kind: "invalid", reason: "unsupported_format", message: "This is a GIF." };
		expect(checkItem(item(), file, CATALOG)).toEqual({
			problems: [
				{
					reason: "unsupported_file_format",
					detail: { item_id: "item_1", field: "print_file_id", message: "This is a GIF." },
				},
			],
			effectiveDpi: null,
			warnings: [],
		});
	});

	it.each(INVALID_REASONS.filter((reason) => reason !== "unsupported_format"))(
		"an invalid file (%s) is file_unreadable with the inspector's message",
		(reason) => {
			const file: FileFacts = { kind: "invalid", reason, message: `Bad file: ${reason}.` };
			expect(checkItem(item({ fileField: "print_file_url" }), file, CATALOG)).toEqual({
				problems: [
					{
						reason: "file_unreadable",
						detail: { item_id: "item_1", field: "print_file_url", message: `Bad file: ${reason}.` },
					},
				],
				effectiveDpi: null,
				warnings: [],
			});
		},
	);

	it("a file that could not be fetched is file_fetch_failed", () => {
		const file: FileFacts = { kind: "fetch_failed", message: "The server answered 404." };
		expect(checkItem(item({ fileField: "print_file_url" }), file, CATALOG)).toEqual({
			problems: [
				{
					reason: "file_fetch_failed",
					detail: { item_id: "item_1", field: "print_file_url", message: "The server answered 404." },
				},
			],
			effectiveDpi: null,
			warnings: [],
		});
	});

	it("a missing file is file_unreadable", () => {
		const file: FileFacts = { kind: "missing", message: "The upload is gone." };
		expect(checkItem(item(), file, CATALOG)).toEqual({
			problems: [
				{
					reason: "file_unreadable",
					detail: { item_id: "item_1", field: "print_file_id", message: "The upload is gone." },
				},
			],
			effectiveDpi: null,
			warnings: [],
		});
	});

	it("the smallest and largest offered sizes pass", () => {
		expect(checkItem(item({ width_in: 4, height_in: 60 }), ready(12000, 18000), CATALOG).problems).toEqual([]);
	});

	it("a width below the minimum is size_not_offered on width_in", () => {
		const findings = checkItem(item({ width_in: 3, height_in: 5 }), SHARP, CATALOG);
		expect(findings.problems).toEqual([
			{
				reason: "size_not_offered",
				detail: {
					item_id: "item_1",
					field: "width_in",
					message: "3 in is not offered: sizes are whole inches from 4 to 60.",
				},
			},
		]);
	});

	it("a height above the maximum is size_not_offered on height_in", () => {
		const findings = checkItem(item({ width_in: 10, height_in: 61 }), ready(20000, 20000), CATALOG);
		expect(findings.problems.map((entry) => [entry.reason, entry.detail.field])).toEqual([
			["size_not_offered", "height_in"],
		]);
	});

	it("a size that is not whole inches is size_not_offered", () => {
		const findings = checkItem(item({ width_in: 8.5, height_in: 11 }), ready(6000, 6000), CATALOG);
		expect(findings.problems).toEqual([
			{
				reason: "size_not_offered",
				detail: {
					item_id: "item_1",
					field: "width_in",
					message: "8.5 in is not offered: sizes are whole inches from 4 to 60.",
				},
			},
		]);
	});

	it("both sides wrong give one problem each, width first", () => {
		const findings = checkItem(item({ width_in: 2, height_in: 12.25 }), ready(6000, 6000), CATALOG);
		expect(findings.problems.map((entry) => [entry.reason, entry.detail.field])).toEqual([
			["size_not_offered", "width_in"],
			["size_not_offered", "height_in"],
		]);
	});

	it("a frame not in the catalog is frame_not_found, naming the slug", () => {
		const findings = checkItem(item({ frame: "teak" }), SHARP, CATALOG);
		expect(findings.problems).toEqual([
			{
				reason: "frame_not_found",
				detail: { item_id: "item_1", field: "frame", message: 'No frame "teak" in the catalog.' },
			},
		]);
	});

	it("a mat not in the catalog is mat_not_found, naming the slug", () => {
		const findings = checkItem(item({ mat: "gold-3in" }), SHARP, CATALOG);
		expect(findings.problems).toEqual([
			{
				reason: "mat_not_found",
				detail: { item_id: "item_1", field: "mat", message: 'No mat "gold-3in" in the catalog.' },
			},
		]);
	});

	it("a frame and mat from the catalog pass, and so do no frame and no mat", () => {
		expect(checkItem(item({ frame: "oak-natural", mat: "white-2in" }), SHARP, CATALOG).problems).toEqual([]);
		expect(checkItem(item({ frame: null, mat: null }), SHARP, CATALOG).problems).toEqual([]);
	});

	it("a frame slug is not mistaken for a mat slug or the other way round", () => {
		const findings = checkItem(item({ frame: "white-2in", mat: "oak-natural" }), SHARP, CATALOG);
		expect(findings.problems.map((entry) => entry.reason)).toEqual(["frame_not_found", "mat_not_found"]);
	});

	it("every problem of an item is listed, file first, then sizes, frame and mat", () => {
		const findings = checkItem(
			item({ id: "item_9", width_in: 8.5, height_in: 100, frame: "teak", mat: "gold" }),
			{ kind: "fetch_failed", message: "Timed out." },
			CATALOG,
		);
		expect(findings.problems.map((entry) => [entry.reason, entry.detail.field, entry.detail.item_id])).toEqual([
			["file_fetch_failed", "print_file_id", "item_9"],
			["size_not_offered", "width_in", "item_9"],
			["size_not_offered", "height_in", "item_9"],
			["frame_not_found", "frame", "item_9"],
			["mat_not_found", "mat", "item_9"],
		]);
	});

	it("orderVerdict passes when no item has a problem, warnings or not", () => {
		const findings: ItemFindings[] = [
			checkItem(item(), SHARP, CATALOG),
			checkItem(item({ id: "item_2" }), ready(2400, 3000), CATALOG),
		];
		expect(findings[1]?.warnings).toEqual(["low_resolution"]);
		expect(orderVerdict(findings)).toEqual({ kind: "pass" });
	});

	it("orderVerdict passes an order with no items to check", () => {
		expect(orderVerdict([])).toEqual({ kind: "pass" });
	});

	it("orderVerdict fails with the first problem's reason, in item order, and lists every detail", () => {
		const findings: ItemFindings[] = [
			checkItem(item({ id: "item_1" }), SHARP, CATALOG),
			checkItem(item({ id: "item_2", mat: "gold" }), ready(1600, 2000), CATALOG),
			checkItem(item({ id: "item_3", frame: "teak" }), SHARP, CATALOG),
		];
		const verdict = orderVerdict(findings);
		expect(verdict).toEqual({
			kind: "fail",
			holdReason: "file_resolution_too_low",
			holdDetails: [
				{
					item_id: "item_2",
					field: "print_file_id",
					message: "The file is 1600 × 2000 px: 100 DPI at 16 × 20 in, below the 150 DPI minimum.",
				},
				{ item_id: "item_2", field: "mat", message: 'No mat "gold" in the catalog.' },
				{ item_id: "item_3", field: "frame", message: 'No frame "teak" in the catalog.' },
			],
		});
	});

	it("orderVerdict takes the hold reason from the earliest item, not the most serious-looking one", () => {
		const findings: ItemFindings[] = [
			checkItem(item({ id: "item_1", frame: "teak" }), SHARP, CATALOG),
			checkItem(item({ id: "item_2" }), { kind: "missing", message: "Gone." }, CATALOG),
		];
		expect(orderVerdict(findings)).toMatchObject({ kind: "fail", holdReason: "frame_not_found" });
	});
});
