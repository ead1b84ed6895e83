import { imageSize } from "image-size";
import { describe, expect, it } from "vitest";
import { allFixtures } from "./fixtures/all-fixtures.ts";

const fixtures = (await allFixtures()).filter((fixture) => fixture.expected.ok);

/** Valid fixtures image-size cannot read, and why; each is checked to still fail there. */
const IMAGE_SIZE_CANNOT_READ: Record<string, string> = {
	"jpeg with APP1, APP2 and fill bytes": "image-size does not skip fill bytes (0xFF) before a marker",
	"jpeg lossless (SOF3)": "image-size only knows SOF0, SOF1 and SOF2",
	"jpeg arithmetic progressive (SOF10)": "image-size only knows SOF0, SOF1 and SOF2",
};

function imageSizeOf(bytes: Uint8Array): { width?: number; height?: number } | Error {
	try {
		return imageSize(bytes);
	} catch (error) {
		return error instanceof Error ? error : new Error(String(error));
	}
}

describe("width and height agree with image-size", () => {
	for (const fixture of fixtures) {
		const { expected } = fixture;
		if (!expected.ok) continue;
		const skipReason = IMAGE_SIZE_CANNOT_READ[fixture.name];
		if (skipReason !== undefined) {
			it(`${fixture.name}: skipped, ${skipReason}`, () => {
				const theirs = imageSizeOf(fixture.bytes);
				// If image-size learns to read it, this entry must go and the comparison run.
				const agrees =
					!(theirs instanceof Error) && theirs.width === expected.widthPx && theirs.height === expected.heightPx;
				expect(agrees).toBe(false);
			});
			continue;
		}
		it(`${fixture.name}: ${expected.widthPx} × ${expected.heightPx}`, () => {
			expect(imageSizeOf(fixture.bytes)).toMatchObject({ width: expected.widthPx, height: expected.heightPx });
		});
	}

	it("covers every valid fixture of every format", () => {
		const formats = new Set(fixtures.map((fixture) => fixture.expected.format));
		expect([...formats].sort()).toEqual(["jpeg", "png", "tiff"]);
		const compared = fixtures.filter((fixture) => IMAGE_SIZE_CANNOT_READ[fixture.name] === undefined);
		expect(compared.length).toBeGreaterThanOrEqual(fixtures.length - 3);
	});
});
