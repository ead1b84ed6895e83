import { describe, expect, it } from "vitest";
import { completeFraming } from "../../src/framing/spec.ts";
import {
	type CatalogFacts,
	checkItem,
	type FileFacts,
	IMAGE_CROPPED,
	type ItemFindings,
	type ItemToCheck,
	LOW_RESOLUTION,
	orderVerdict,
} from "../../src/orders/item-checks.ts";
import { INVALID_REASONS } from "../../src/print-files/invalid-reasons.ts";

const CATALOG: CatalogFacts = {
	frames: new Map([
		["oak-natural", { widthIn: 1, maxUnitedInches: 80 }],
		["black-metal", { widthIn: 0.5, maxUnitedInches: 60 }],
	]),
	mats: new Set(["white-2in", "black-2in"]),
	glazings: new Set(["acrylic", "museum-acrylic", "none"]),
	papers: new Set(["archival-matte", "cotton-rag"]),
	minIn: 4,
	maxIn: 60,
};

/** A 16 × 20 in print of an uploaded file, no frame or mat, unless overridden. */
function item(overrides: Partial<ItemToCheck> = {}): ItemToCheck {
	return {
		id: "item_1",
		width_in: 16,
		height_in: 20,
		...completeFraming({}),
		fileField: "print_file_id",
		...overrides,
	};
}

function ready(widthPx: number, heightPx: number): FileFacts {
	return { kind: "ready", widthPx, heightPx, warnings: [] };
}

/** A file at exactly 300 DPI for 16 × 20 in. */
const SHARP = ready(4800, 6000);

describe("checkItem and orderVerdict", () => {
	it("a file at 300 DPI passes with no warnings", () => {
		expect(checkItem(item(), SHARP, CATALOG)).toEqual({
			problems: [],
			effectiveDpi: 300,
			warnings: [],
			croppedPercent: 0,
		});
	});

	it("a file above 300 DPI passes with no warnings", () => {
		expect(checkItem(item(), ready(9600, 12000), CATALOG)).toEqual({
			problems: [],
			effectiveDpi: 600,
			warnings: [],
			croppedPercent: 0,
		});
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
			croppedPercent: 0,
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
					code: "file_resolution_too_low",
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
		expect(checkItem(item(), ready(6000, 4800), CATALOG)).toEqual({
			problems: [],
			effectiveDpi: 300,
			warnings: [],
			croppedPercent: 0,
		});
	});

	it("a rotated panorama that would fail width-to-width passes long-to-long", () => {
		// 9000 × 3000 px for 10 × 30 in: 300 DPI rotated; width to width would give 3000 / 30 = 100.
		expect(checkItem(item({ width_in: 10, height_in: 30 }), ready(9000, 3000), CATALOG)).toEqual({
			problems: [],
			effectiveDpi: 300,
			warnings: [],
			croppedPercent: 0,
		});
	});

	it("effective DPI is the lower of long/long and short/short", () => {
		// 6000 / 20 = 300 on the long side, 3000 / 16 = 187.5 on the short side.
		const findings = checkItem(item(), ready(3000, 6000), CATALOG);
		expect(findings.effectiveDpi).toBe(187.5);
		// Filling 16 × 20 in from a 1:2 image cuts 37.5% of its long side.
		expect(findings.warnings).toEqual(["low_resolution", "image_cropped"]);
		expect(findings.croppedPercent).toBe(37.5);
		expect(checkItem(item(), ready(6000, 3000), CATALOG).effectiveDpi).toBe(187.5);
	});

	it("an unsupported format is unsupported_file_format with the inspector's message", () => {
		const file: FileFacts = { kind: "invalid", reason: "unsupported_format", message: "This is a GIF." };
		expect(checkItem(item(), file, CATALOG)).toEqual({
			problems: [
				{
					reason: "unsupported_file_format",
					detail: {
						item_id: "item_1",
						field: "print_file_id",
						code: "unsupported_file_format",
						message: "This is a GIF.",
					},
				},
			],
			effectiveDpi: null,
			warnings: [],
			croppedPercent: null,
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
						detail: {
							item_id: "item_1",
							field: "print_file_url",
							code: "file_unreadable",
							message: `Bad file: ${reason}.`,
						},
					},
				],
				effectiveDpi: null,
				warnings: [],
				croppedPercent: null,
			});
		},
	);

	it("a file that could not be fetched is file_fetch_failed", () => {
		const file: FileFacts = { kind: "fetch_failed", message: "The server answered 404." };
		expect(checkItem(item({ fileField: "print_file_url" }), file, CATALOG)).toEqual({
			problems: [
				{
					reason: "file_fetch_failed",
					detail: {
						item_id: "item_1",
						field: "print_file_url",
						code: "file_fetch_failed",
						message: "The server answered 404.",
					},
				},
			],
			effectiveDpi: null,
			warnings: [],
			croppedPercent: null,
		});
	});

	it("a missing file is file_unreadable", () => {
		const file: FileFacts = { kind: "missing", message: "The upload is gone." };
		expect(checkItem(item(), file, CATALOG)).toEqual({
			problems: [
				{
					reason: "file_unreadable",
					detail: {
						item_id: "item_1",
						field: "print_file_id",
						code: "file_unreadable",
						message: "The upload is gone.",
					},
				},
			],
			effectiveDpi: null,
			warnings: [],
			croppedPercent: null,
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
					code: "size_not_offered",
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
					code: "size_not_offered",
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
				detail: {
					item_id: "item_1",
					field: "frame",
					code: "frame_not_found",
					message: 'No frame "teak" in the catalog.',
				},
			},
		]);
	});

	it("a mat not in the catalog is mat_not_found, naming the slug", () => {
		const findings = checkItem(item({ mat: "gold-3in" }), SHARP, CATALOG);
		expect(findings.problems).toEqual([
			{
				reason: "mat_not_found",
				detail: {
					item_id: "item_1",
					field: "mat",
					code: "mat_not_found",
					message: 'No mat "gold-3in" in the catalog.',
				},
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
					code: "file_resolution_too_low",
					message: "The file is 1600 × 2000 px: 100 DPI at 16 × 20 in, below the 150 DPI minimum.",
				},
				{ item_id: "item_2", field: "mat", code: "mat_not_found", message: 'No mat "gold" in the catalog.' },
				{ item_id: "item_3", field: "frame", code: "frame_not_found", message: 'No frame "teak" in the catalog.' },
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

	describe("the framing specification (product model, section 1)", () => {
		it("fill crops more than 2% of a side: the image_cropped warning with the share cropped", () => {
			// 4800 × 6300 px for 16 × 20 in: 300 DPI across, 315 along; fill cuts 1 − 300/315 = 4.8% of the height.
			const findings = checkItem(item(), ready(4800, 6300), CATALOG);
			expect(findings).toEqual({ problems: [], effectiveDpi: 300, warnings: [IMAGE_CROPPED], croppedPercent: 4.8 });
		});

		it("fill cropping 2% or less carries no warning", () => {
			// 4800 × 6120 px: 300 and 306 DPI, 1.96% cut.
			const findings = checkItem(item(), ready(4800, 6120), CATALOG);
			expect(findings.warnings).toEqual([]);
			expect(findings.croppedPercent).toBe(2);
		});

		it("fit crops nothing and takes the larger scale factor for its DPI, warning of its wide white bands", () => {
			// 3000 × 6000 px for 16 × 20 in: fill gives 187.5 DPI and cuts 37.5%; fit shows it all at 300 DPI,
			// 10 in wide, with 3 in of white on either side.
			const findings = checkItem(item({ fit: "fit" }), ready(3000, 6000), CATALOG);
			expect(findings).toEqual({ problems: [], effectiveDpi: 300, warnings: ["image_letterboxed"], croppedPercent: 0 });
		});

		it("a glazing not in the catalog is glazing_not_found on glazing", () => {
			const findings = checkItem(item({ frame: "oak-natural", glazing: "diamond" }), SHARP, CATALOG);
			expect(findings.problems).toEqual([
				{
					reason: "glazing_not_found",
					detail: {
						item_id: "item_1",
						field: "glazing",
						code: "glazing_not_found",
						message: 'No glazing "diamond" in the catalog.',
					},
				},
			]);
		});

		it("a paper not in the catalog is paper_not_found on paper", () => {
			const findings = checkItem(item({ paper: "papyrus" }), SHARP, CATALOG);
			expect(findings.problems.map((entry) => [entry.reason, entry.detail.field])).toEqual([
				["paper_not_found", "paper"],
			]);
		});

		it("an inner mat not in the catalog is mat_not_found on inner_mat", () => {
			const findings = checkItem(
				item({
					frame: "oak-natural",
					mat: "white-2in",
					mat_border_in: 2,
					mat_bottom_border_in: 2,
					inner_mat: "gold",
					inner_mat_reveal_in: 0.25,
				}),
				SHARP,
				CATALOG,
			);
			expect(findings.problems.map((entry) => [entry.reason, entry.detail.field])).toEqual([
				["mat_not_found", "inner_mat"],
			]);
		});

		it("a piece above its moulding's united inches is frame_too_small_for_size, counting the mat", () => {
			// black-metal carries 60 UI. Bare, 16 × 20 in is 36 UI; with 6 in borders the mat is 28 × 32, exactly 60;
			// an 8 in bottom makes it 28 × 34: 62 UI.
			const bare = checkItem(item({ frame: "black-metal" }), SHARP, CATALOG);
			expect(bare.problems).toEqual([]);
			const matted = checkItem(
				item({ frame: "black-metal", mat: "white-2in", mat_border_in: 6, mat_bottom_border_in: 8 }),
				SHARP,
				CATALOG,
			);
			expect(matted.problems.map((entry) => [entry.reason, entry.detail.field])).toEqual([
				["frame_too_small_for_size", "frame"],
			]);
			expect(matted.problems[0]?.detail.message).toContain("at most 60 united inches; this piece is 62");
		});

		it("a piece exactly at its moulding's united inches is accepted", () => {
			// oak-natural carries 80 UI: a 40 × 40 in print without a mat is 80 UI.
			const findings = checkItem(
				item({ width_in: 40, height_in: 40, frame: "oak-natural" }),
				ready(12000, 12000),
				CATALOG,
			);
			expect(findings.problems).toEqual([]);
		});
	});
});
