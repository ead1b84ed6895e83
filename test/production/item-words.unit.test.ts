import { describe, expect, it } from "vitest";
import { FILE_WARNINGS, printFit } from "../../src/print-files/print-warnings.ts";
import { ITEM_WARNING_WORDS, itemName, warningWords } from "../../src/production/item-words.ts";

describe("warningWords", () => {
	it("every warning the item checks give has its own words, with no code in them", () => {
		// Pixel sizes at 8 × 10 in that give each warning the checks know, alone and together.
		const produced = new Set(
			[
				[1600, 2000],
				[3000, 3000],
				[2000, 2000],
				[2400, 3000],
			].flatMap(
				([width = 0, height = 0]) =>
					printFit(width, height, { width_in: 8, height_in: 10, fit: "fill", mat: null }).warnings,
			),
		);
		// Fit's white bands, and what the file's colour and pixels warn of.
		for (const code of printFit(3000, 3000, { width_in: 8, height_in: 10, fit: "fit", mat: null }).warnings) {
			produced.add(code);
		}
		for (const code of FILE_WARNINGS) produced.add(code);
		expect([...produced].sort()).toEqual(Object.keys(ITEM_WARNING_WORDS).sort());
		for (const code of produced) {
			const words = warningWords(code);
			expect(words).toBe(ITEM_WARNING_WORDS[code as keyof typeof ITEM_WARNING_WORDS]);
			expect(`${words.title} ${words.advice}`).not.toMatch(/_/);
		}
	});

	it("says low resolution and cropping in plain words with the thresholds", () => {
		expect(warningWords("low_resolution")).toEqual({
			title: "Low resolution",
			advice:
				"The file gives fewer than 300 pixels per inch at this size (150 is the least accepted), so the print may look soft. Check the print before framing it.",
		});
		expect(warningWords("image_cropped")).toEqual({
			title: "Image cropped",
			advice:
				"Filling the print cuts off more than 2% of the image. Check that nothing that matters is cut off before framing it.",
		});
	});

	it("a code it does not know is still shown, as itself, never dropped", () => {
		expect(warningWords("colour_profile_missing").title).toBe('Warning "colour_profile_missing"');
		expect(warningWords("toString").title).toBe('Warning "toString"');
	});
});

describe("itemName", () => {
	it("names an item by its place in the order and its size, in inches and fractions", () => {
		expect(itemName({ position: 1, widthIn: 16, heightIn: 20 }, 3)).toBe("Item 2 of 3 · 16 × 20 in");
		expect(itemName({ position: 0, widthIn: 8.5, heightIn: 11 }, 1)).toBe("Item 1 of 1 · 8 1/2 × 11 in");
	});
});
