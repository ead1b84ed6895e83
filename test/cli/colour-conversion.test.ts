/**
 * Thumbnails in sRGB against ImageMagick's own profile-to-sRGB conversion (lcms), for every colour
 * fixture in test/imaging/fixtures/colour: the thumbnail as the consumer makes it (the file's colour
 * facts from the probe, then makeThumbnail) against `convert file -profile sRGB.icc -background white
 * -flatten -scale W×H!`. Compared by the mean of each channel and by the mean absolute error per
 * sample, both as fractions of 255. The thumbnails made without conversion must miss the exact budget
 * for the wide-gamut files, so the comparison can fail. Runs in Node because it spawns Debian's
 * ImageMagick.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import UPNG from "upng-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AreaReducer } from "../../src/imaging/area-reducer.ts";
import { memorySource } from "../../src/imaging/byte-source.ts";
import type { Conversion } from "../../src/imaging/colour/facts.ts";
import { decodeImage } from "../../src/imaging/decode.ts";
import type { ImageFormat } from "../../src/imaging/formats.ts";
import { probeImage } from "../../src/imaging/probe.ts";
import { makeThumbnail } from "../../src/thumbnails/make-thumbnail.ts";

/** Debian's ImageMagick, which .ci/run installs when it is missing. */
const CONVERT = "/usr/bin/convert";
/** Without ImageMagick the comparison is skipped, as the browser tests are without Chromium, except in CI. */
const COMPARE = existsSync(CONVERT) || process.env.CI !== undefined;
const FIXTURES = path.resolve(import.meta.dirname, "../imaging/fixtures/colour");
const SRGB_PROFILE = path.join(FIXTURES, "sRGB.icc");

/**
 * The budgets, as fractions of 255. Exact conversions (and files needing none): each channel's mean
 * within 1/255 of ImageMagick's and the mean absolute error under 1/255 (measured: means off by at most
 * 0.49/255, errors at most 0.48/255: rounding to 8 bits, and for the JPEGs the two decoders' IDCTs).
 * CMYK, approximate (the decoders' naive formula against lcms through the SWOP press profile): each
 * channel's mean within 16/255 and the mean absolute error under 24/255 (measured: means off by 10.7,
 * 4.3 and 13.7/255, error 21.0/255, the JPEG and the TIFF alike).
 */
const EXACT = { mean: 1 / 255, error: 1 / 255 };
const APPROXIMATE = { mean: 16 / 255, error: 24 / 255 };

/** Whether a measurement is within a budget. */
function within(measured: { means: number[]; error: number }, budget: { mean: number; error: number }): boolean {
	return measured.means.every((mean) => mean <= budget.mean) && measured.error < budget.error;
}

type Case = {
	file: string;
	format: ImageFormat;
	conversion: Conversion;
	/** A profile ImageMagick first assigns to the untagged file, so its conversion has a source (gAMA + cHRM). */
	assign?: string;
	/** Whether the thumbnail made without conversion must miss the exact budget. */
	unconvertedFails?: boolean;
};

const CASES: Case[] = [
	{ file: "srgb.jpg", format: "jpeg", conversion: "none" },
	{ file: "adobe-rgb.jpg", format: "jpeg", conversion: "exact", unconvertedFails: true },
	{ file: "display-p3.png", format: "png", conversion: "exact", unconvertedFails: true },
	{ file: "prophoto-16.tif", format: "tiff", conversion: "exact", unconvertedFails: true },
	{ file: "grey-linear.png", format: "png", conversion: "exact", unconvertedFails: true },
	// ImageMagick does not convert by gAMA + cHRM: its reference is the same pixels with the Adobe RGB
	// (1998) profile (γ 2.19921875 against gAMA's 1/0.45455), which the chunks describe.
	{ file: "gamma-chrm.png", format: "png", conversion: "exact", assign: "adobe-rgb.icc", unconvertedFails: true },
	{ file: "cmyk.jpg", format: "jpeg", conversion: "approximate" },
	{ file: "cmyk.tif", format: "tiff", conversion: "approximate" },
	{ file: "untagged.png", format: "png", conversion: "assumed_srgb" },
	{ file: "rgb-16.png", format: "png", conversion: "none" },
	{ file: "rgba.png", format: "png", conversion: "none" },
	{ file: "exif-srgb.jpg", format: "jpeg", conversion: "none" },
];

let dir = "";

/** ImageMagick's sRGB thumbnail of `file`, at `width` × `height`, as 8-bit RGB. */
function reference(file: string, width: number, height: number, assign?: string): Uint8Array {
	const rgb = execFileSync(
		CONVERT,
		[
			file,
			...(assign === undefined ? [] : ["-profile", path.join(dir, assign)]),
			...["-profile", SRGB_PROFILE, "-background", "white", "-flatten"],
			...["-scale", `${width}x${height}!`, "-depth", "8", "rgb:-"],
		],
		{ maxBuffer: 64 * 1024 * 1024 },
	);
	return new Uint8Array(rgb);
}

/** The means of each channel, and the mean absolute error per sample, of `ours` against `theirs`, as fractions of 255. */
function compare(ours: Uint8Array, theirs: Uint8Array): { means: number[]; error: number } {
	expect(ours.length).toBe(theirs.length);
	const sums = [0, 0, 0];
	let error = 0;
	for (let at = 0; at < ours.length; at++) {
		const channel = at % 3;
		sums[channel] = (sums[channel] ?? 0) + (ours[at] ?? 0) - (theirs[at] ?? 0);
		error += Math.abs((ours[at] ?? 0) - (theirs[at] ?? 0));
	}
	const pixels = ours.length / 3;
	return { means: sums.map((sum) => Math.abs(sum) / pixels / 255), error: error / ours.length / 255 };
}

/** A PNG's pixels as 8-bit RGB. */
function rgbOfPng(png: Uint8Array): { rgb: Uint8Array; width: number; height: number } {
	const image = UPNG.decode(png.buffer.slice(png.byteOffset, png.byteOffset + png.byteLength) as ArrayBuffer);
	const rgba = new Uint8Array(UPNG.toRGBA8(image)[0] ?? new ArrayBuffer(0));
	const rgb = new Uint8Array((rgba.length / 4) * 3);
	for (let pixel = 0; pixel < rgba.length / 4; pixel++) rgb.set(rgba.subarray(pixel * 4, pixel * 4 + 3), pixel * 3);
	return { rgb, width: image.width, height: image.height };
}

/** The thumbnail as the consumer makes it: the probe's colour facts, then makeThumbnail. */
async function convertedThumbnail(file: string) {
	const bytes = new Uint8Array(readFileSync(path.join(FIXTURES, file)));
	const inspection = await probeImage(memorySource(bytes));
	if (!inspection.ok) throw new Error(`${file}: ${inspection.message}`);
	const made = await makeThumbnail(inspection.format, memorySource(bytes), inspection.colour);
	return { ...rgbOfPng(made.png), conversion: made.conversion, facts: inspection.colour };
}

/** The thumbnail as it was made before conversion: the decoders' RGB, area-averaged. */
async function unconvertedThumbnail(file: string, format: ImageFormat) {
	const reducer = new AreaReducer();
	const { orientation } = await decodeImage(format, memorySource(readFileSync(path.join(FIXTURES, file))), reducer);
	return reducer.finish(orientation);
}

beforeAll(() => {
	if (!COMPARE) return;
	dir = mkdtempSync(path.join(tmpdir(), "colour-conversion-"));
	// The Adobe RGB (1998) profile the gAMA + cHRM reference assigns: the one embedded in adobe-rgb.jpg.
	execFileSync(CONVERT, [path.join(FIXTURES, "adobe-rgb.jpg"), path.join(dir, "adobe-rgb.icc")]);
});

afterAll(() => {
	if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!COMPARE)("thumbnails in sRGB against ImageMagick's profile-to-sRGB conversion", () => {
	for (const { file, conversion, assign } of CASES) {
		const budget = conversion === "approximate" ? APPROXIMATE : EXACT;
		it(`${file}: ${conversion}, each channel's mean within ${Math.round(budget.mean * 255)}/255 and the mean absolute error under ${Math.round(budget.error * 255)}/255`, async () => {
			const ours = await convertedThumbnail(file);
			expect(ours.conversion).toBe(conversion);
			expect(ours.facts?.conversion).toBe(conversion);
			const measured = compare(ours.rgb, reference(path.join(FIXTURES, file), ours.width, ours.height, assign));
			console.info(
				`${file}: means off by ${measured.means.map((mean) => (mean * 255).toFixed(2)).join(", ")}; mean absolute error ${(measured.error * 255).toFixed(2)} (of 255)`,
			);
			expect(within(measured, budget)).toBe(true);
		});
	}

	for (const { file, format, assign } of CASES.filter((item) => item.unconvertedFails === true)) {
		it(`${file}: the thumbnail made without conversion misses the exact budget`, async () => {
			const old = await unconvertedThumbnail(file, format);
			const measured = compare(old.rgb, reference(path.join(FIXTURES, file), old.width, old.height, assign));
			console.info(
				`${file} unconverted: means off by ${measured.means.map((mean) => (mean * 255).toFixed(2)).join(", ")}; mean absolute error ${(measured.error * 255).toFixed(2)} (of 255)`,
			);
			expect(within(measured, EXACT)).toBe(false);
		});
	}
});
