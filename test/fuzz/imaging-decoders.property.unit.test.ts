import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ImageFault } from "../../src/imaging/fault.ts";
import { decodePng } from "../../src/imaging/png/decode.ts";
import { decodeTiff } from "../../src/imaging/tiff/decode.ts";
import { type Decoder, decodeWithReads } from "../imaging/decode-helpers.ts";
import { buildPng, encodePng } from "../imaging/fixtures/png.ts";
import { type PixelTiffOptions, pixelTiff } from "../imaging/fixtures/tiff-pixels.ts";

/**
 * The PNG and TIFF decoders over truncated, lying and random files: every outcome is a finished
 * thumbnail or an ImageFault, inside a time bound, with every read inside the file and at
 * most 1 MiB. Anything else thrown (a RangeError, a TypeError from a stream, the reducer refusing
 * rows out of order) is a decoder bug.
 */

const SEED = 20261124;
const NUM_RUNS = 250;
/** Far above what a fixture this small takes to decode; a hang or runaway loop passes it. */
const TIME_BOUND_MS = 3000;

type Sample = { name: string; bytes: Uint8Array; decode: Decoder };
let samples: Sample[] = [];

beforeAll(async () => {
	const pngs = await Promise.all([
		buildPng({ width: 23, height: 17, bitDepth: 8, colorType: 2 }),
		buildPng({ width: 23, height: 17, bitDepth: 16, colorType: 6, interlaced: true }),
		buildPng({ width: 23, height: 17, bitDepth: 2, colorType: 3 }),
		buildPng({ width: 23, height: 17, bitDepth: 1, colorType: 0, interlaced: true }),
	]);
	const tiffLayouts: PixelTiffOptions[] = [
		{
			order: "II",
			width: 21,
			height: 13,
			photometric: 2,
			samples: 3,
			depth: 8,
			compression: 5,
			predictor: 2,
			rowsPerStrip: 4,
		},
		{ order: "MM", width: 21, height: 13, photometric: 1, samples: 1, depth: 16, compression: 8, tileSize: 16 },
		{
			order: "II",
			bigTiff: true,
			width: 21,
			height: 13,
			photometric: 5,
			samples: 4,
			depth: 8,
			compression: 32773,
			rowsPerStrip: 5,
		},
		{ order: "MM", width: 21, height: 13, photometric: 0, samples: 1, depth: 8, compression: 1 },
	];
	const tiffs = await Promise.all(
		tiffLayouts.map((layout) => pixelTiff(layout, (x, y, s) => (x * 37 + y * 11 + s * 5) & 0xff)),
	);
	samples = [
		...pngs.map((bytes, i) => ({ name: `png ${i}`, bytes, decode: decodePng })),
		{ name: "upng-js png", bytes: encodePng(40, 30), decode: decodePng },
		...tiffs.map((bytes, i) => ({ name: `tiff ${i}`, bytes, decode: decodeTiff })),
	];
	// Every sample decodes untouched: the damage is what the property is about.
	for (const sample of samples) await decodeWithReads(sample.decode, sample.bytes);
});

/** Decodes `bytes` and checks the property; `describeInput` names the input in a failure. */
async function probe(decode: Decoder, bytes: Uint8Array, describeInput: () => string): Promise<void> {
	const started = Date.now();
	try {
		const { reads, thumbnail } = await decodeWithReads(decode, bytes);
		expect(thumbnail.rgb.length, describeInput()).toBe(thumbnail.width * thumbnail.height * 3);
		const outside = reads.filter((read) => read.offset < 0 || read.end > bytes.length || read.length > 1024 * 1024);
		expect(outside, describeInput()).toEqual([]);
	} catch (error) {
		// A read the source refused (outside the file) surfaces as read_failed: a decoder bug, not a fault of the file.
		if (!(error instanceof ImageFault) || error.reason === "read_failed") {
			throw new Error(`${String(error)} on ${describeInput()}`);
		}
		expect(error.message.length).toBeGreaterThan(0);
	}
	expect(Date.now() - started, `time on ${describeInput()}`).toBeLessThan(TIME_BOUND_MS);
}

/** An offset biased towards the header and directory, where a lie does the most harm. */
const offset = fc.oneof(fc.nat({ max: 64 }), fc.nat({ max: 512 }), fc.nat());

const mutation = fc.record({
	at: offset,
	kind: fc.constantFrom("flip", "overwrite", "lie"),
	value: fc.integer({ min: 0, max: 255 }),
	// A lie: a 32-bit field overwritten with a size or offset that is large, zero or just off.
	claim: fc.constantFrom(0, 1, 0xffff, 0x10000, 0x7fffffff, 0xffffffff, 1_000_000, 40_000),
});

describe("decodePng and decodeTiff under fuzzing", () => {
	it("fixtures mutated, given lying fields and truncated: a thumbnail or ImageFault, in bounded time", async () => {
		const damaged = fc.record({
			pick: fc.nat({ max: 1000 }),
			mutations: fc.array(mutation, { maxLength: 6 }),
			keep: fc.option(offset, { freq: 2 }),
		});
		await fc.assert(
			fc.asyncProperty(damaged, async ({ pick, mutations, keep }) => {
				const sample = samples[pick % samples.length] as Sample;
				const bytes = sample.bytes.slice();
				const view = new DataView(bytes.buffer);
				const applied: string[] = [];
				for (const { at, kind, value, claim } of mutations) {
					const index = at % bytes.length;
					if (kind === "lie" && index + 4 <= bytes.length) {
						view.setUint32(index, claim, bytes[0] === 0x49);
						applied.push(`[${index}..+4] = ${claim}`);
					} else {
						const before = bytes[index] ?? 0;
						bytes[index] = kind === "flip" ? before ^ (value || 1) : value;
						applied.push(`[${index}] ${before}→${bytes[index]}`);
					}
				}
				const cutTo = keep === null ? bytes.length : keep % (bytes.length + 1);
				await probe(
					sample.decode,
					bytes.subarray(0, cutTo),
					() => `"${sample.name}" with ${applied.join(", ") || "no change"}, cut to ${cutTo}/${bytes.length}`,
				);
			}),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	}, 120_000);

	it("random bytes behind a real signature: ImageFault, in bounded time", async () => {
		const signature = fc.constantFrom(
			{ head: Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), decode: decodePng },
			{ head: Uint8Array.of(0x49, 0x49, 42, 0, 8, 0, 0, 0), decode: decodeTiff },
			{ head: Uint8Array.of(0x4d, 0x4d, 0, 42, 0, 0, 0, 8), decode: decodeTiff },
			{ head: Uint8Array.of(0x49, 0x49, 43, 0, 8, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0), decode: decodeTiff },
		);
		await fc.assert(
			fc.asyncProperty(signature, fc.uint8Array({ maxLength: 2048 }), async ({ head, decode }, tail) => {
				const bytes = Uint8Array.from([...head, ...tail]);
				await probe(
					decode,
					bytes,
					() => `${bytes.length} bytes starting ${Array.from(bytes.subarray(0, 24)).join(",")}`,
				);
			}),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	}, 120_000);
});
