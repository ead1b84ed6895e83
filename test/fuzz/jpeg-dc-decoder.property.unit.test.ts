import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ByteSource, memorySource } from "../../src/imaging/byte-source.ts";
import { ImageFault } from "../../src/imaging/fault.ts";
import { decodeJpeg } from "../../src/imaging/jpeg/decode.ts";
import type { Decoded, RasterSink } from "../../src/imaging/raster.ts";
import { encodeJpeg } from "../imaging/fixtures/jpeg.ts";
import { captureSink, decodeJpegDc } from "../imaging/jpeg/capture.ts";
import { type DcComponent, dcJpeg, exifWithOrientation, refinedProgressiveJpeg } from "../imaging/jpeg/dc-fixtures.ts";
import { damage, mutation, offset } from "./damaged-files.ts";

/**
 * decodeJpegDc, and decodeJpeg at each of its scales, over damaged real JPEGs and random bytes: every
 * outcome is rows in order or an ImageFault, within a time bound, never another exception, a hang
 * or a read outside the file.
 */

const SEED = 20261124;
const NUM_RUNS = 250;
/** Far above what any of these small files takes; a loop that does not end trips it. */
const MAX_MILLISECONDS_PER_CASE = 3000;

const ramp = (id: number, h: number, v: number): DcComponent => ({
	id,
	h,
	v,
	dc: (x, y) => ((x * 13 + y * 7) % 200) - 100,
});

const SAMPLES: { name: string; bytes: Uint8Array }[] = [
	{ name: "jpeg-js baseline", bytes: encodeJpeg(96, 64, 80) },
	{
		name: "4:2:0 with restarts and AC",
		bytes: dcJpeg({
			width: 72,
			height: 40,
			restartInterval: 2,
			acNoise: true,
			exif: exifWithOrientation(6),
			components: [ramp(1, 2, 2), ramp(2, 1, 1), ramp(3, 1, 1)],
		}),
	},
	{
		name: "progressive gray",
		bytes: dcJpeg({
			width: 64,
			height: 48,
			components: [ramp(1, 1, 1)],
			progressive: { shift: 1, trailingBytes: 300 },
		}),
	},
	{
		name: "progressive, one DC scan a component",
		bytes: dcJpeg({
			width: 48,
			height: 40,
			restartInterval: 3,
			components: [ramp(1, 2, 1), ramp(2, 1, 1), ramp(3, 1, 1)],
			progressive: { shift: 2, trailingBytes: 200 },
			separateScans: true,
		}),
	},
	{ name: "progressive gray with AC bands, AC and DC refinements", bytes: refinedProgressiveJpeg() },
	{
		name: "Adobe CMYK",
		bytes: dcJpeg({ width: 40, height: 24, adobe: 0, components: [1, 2, 3, 4].map((id) => ramp(id, 1, 1)) }),
	},
];

/** decodeJpegDc, or decodeJpeg asked for a long side that picks 1/8, 1/4, 1/2 or 1/1 for these small files. */
type Decode = (source: ByteSource, sink: RasterSink) => Promise<Decoded>;
const DECODERS: { name: string; decode: Decode }[] = [
	{ name: "decodeJpegDc", decode: (source, sink) => decodeJpegDc(source, sink, { chunkBytes: 512 }) },
	...[1, 20, 40, 100_000].map((minLongSide) => ({
		name: `decodeJpeg (${minLongSide} px)`,
		decode: (source: ByteSource, sink: RasterSink) => decodeJpeg(source, sink, { minLongSide, chunkBytes: 512 }),
	})),
];

async function probe(
	bytes: Uint8Array,
	describeInput: () => string,
	decode: Decode = DECODERS[0]?.decode ?? decodeJpegDc,
): Promise<void> {
	const inner = memorySource(bytes);
	const source = {
		size: inner.size,
		read(offset: number, length: number) {
			if (!Number.isSafeInteger(offset) || offset < 0 || length < 1 || offset >= bytes.length) {
				throw new Error(`read(${offset}, ${length}) of a ${bytes.length}-byte file`);
			}
			return inner.read(offset, length);
		},
	};
	const started = Date.now();
	try {
		const decoded = await decode(source, captureSink({ keep: false }));
		expect(decoded.orientation).toBeGreaterThanOrEqual(1);
		expect(decoded.orientation).toBeLessThanOrEqual(8);
	} catch (error) {
		// A read the source refused (outside the file) surfaces as read_failed: a decoder bug, not a fault of the file.
		if (!(error instanceof ImageFault) || error.reason === "read_failed") {
			throw new Error(`${String(error)} on ${describeInput()}`);
		}
		expect(error.message.length).toBeGreaterThan(0);
	}
	expect(Date.now() - started, describeInput()).toBeLessThan(MAX_MILLISECONDS_PER_CASE);
}

describe("decodeJpegDc under fuzzing", () => {
	it("damaged and truncated JPEGs: rows or ImageFault, nothing else", async () => {
		const damaged = fc.record({
			pick: fc.nat({ max: 100 }),
			mutations: fc.array(mutation, { maxLength: 6 }),
			keep: fc.option(offset, { freq: 2 }),
		});
		await fc.assert(
			fc.asyncProperty(damaged, async ({ pick, mutations, keep }) => {
				const sample = SAMPLES[pick % SAMPLES.length] ?? SAMPLES[0];
				if (sample === undefined) return;
				const { input, description } = damage(sample.bytes, mutations, keep);
				await probe(input, () => `${sample.name} with ${description}`);
			}),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	}, 120_000);

	it("lying frame sizes and segment lengths: rows or ImageFault, nothing else", async () => {
		const lie = fc.record({
			pick: fc.nat({ max: 100 }),
			field: fc.constantFrom("height", "width", "components", "segment length"),
			value: fc.integer({ min: 0, max: 0xffff }),
		});
		await fc.assert(
			fc.asyncProperty(lie, async ({ pick, field, value }) => {
				const sample = SAMPLES[pick % SAMPLES.length] ?? SAMPLES[0];
				if (sample === undefined) return;
				const bytes = sample.bytes.slice();
				const sof = bytes.findIndex((byte, at) => byte === 0xff && (bytes[at + 1] === 0xc0 || bytes[at + 1] === 0xc2));
				const at = { height: sof + 5, width: sof + 7, components: sof + 9, "segment length": sof + 2 }[field];
				if (field === "components") bytes[at] = value & 0xff;
				else bytes.set([value >> 8, value & 0xff], at);
				await probe(bytes, () => `${sample.name} with its ${field} set to ${value}`);
			}),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	}, 120_000);

	it("random bytes after a JPEG signature: rows or ImageFault, nothing else", async () => {
		const bytes = fc
			.tuple(
				fc.constantFrom(Uint8Array.of(0xff, 0xd8), Uint8Array.of(0xff, 0xd8, 0xff)),
				fc.uint8Array({ maxLength: 4096 }),
			)
			.map(([head, tail]) => Uint8Array.from([...head, ...tail]));
		await fc.assert(
			fc.asyncProperty(bytes, (input) => probe(input, () => `${input.length} random bytes`)),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	}, 120_000);
});

describe("decodeJpeg under fuzzing, at every scale", () => {
	it("damaged and truncated JPEGs, progressive refinements included: rows or ImageFault, nothing else", async () => {
		const damaged = fc.record({
			pick: fc.nat({ max: 100 }),
			decoder: fc.nat({ max: 100 }),
			mutations: fc.array(mutation, { maxLength: 6 }),
			keep: fc.option(offset, { freq: 2 }),
		});
		await fc.assert(
			fc.asyncProperty(damaged, async ({ pick, decoder, mutations, keep }) => {
				const sample = SAMPLES[pick % SAMPLES.length] ?? SAMPLES[0];
				const chosen = DECODERS[1 + (decoder % (DECODERS.length - 1))];
				if (sample === undefined || chosen === undefined) return;
				const { input, description } = damage(sample.bytes, mutations, keep);
				await probe(input, () => `${sample.name} with ${description}, ${chosen.name}`, chosen.decode);
			}),
			{ seed: SEED, numRuns: NUM_RUNS * 2 },
		);
	}, 240_000);

	it("every sample, undamaged, at every scale: rows or ImageFault, nothing else", async () => {
		for (const sample of SAMPLES) {
			for (const { name, decode } of DECODERS) await probe(sample.bytes, () => `${sample.name}, ${name}`, decode);
		}
	});

	it("random bytes after a JPEG signature at every scale: rows or ImageFault, nothing else", async () => {
		const bytes = fc.record({
			decoder: fc.nat({ max: 100 }),
			input: fc
				.tuple(
					fc.constantFrom(Uint8Array.of(0xff, 0xd8), Uint8Array.of(0xff, 0xd8, 0xff)),
					fc.uint8Array({ maxLength: 4096 }),
				)
				.map(([head, tail]) => Uint8Array.from([...head, ...tail])),
		});
		await fc.assert(
			fc.asyncProperty(bytes, ({ decoder, input }) => {
				const chosen = DECODERS[1 + (decoder % (DECODERS.length - 1))] ?? DECODERS[0];
				if (chosen === undefined) return Promise.resolve();
				return probe(input, () => `${input.length} random bytes, ${chosen.name}`, chosen.decode);
			}),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	}, 120_000);
});
