import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type ByteSource, memorySource } from "../../src/imaging/byte-source.ts";
import { detectFormat } from "../../src/imaging/formats.ts";
import { MAX_SIDE_PX } from "../../src/imaging/limits.ts";
import { type Inspection, probeImage } from "../../src/imaging/probe.ts";
import type { ReaderOptions } from "../../src/imaging/reader.ts";
import { allFixtures } from "../imaging/fixtures/all-fixtures.ts";
import { damage, mutation, offset } from "./damaged-files.ts";

/**
 * probeImage over random bytes and over damaged real files: it always settles to an Inspection,
 * never asks its source for bytes outside the file, and an ok result has a plausible pixel size.
 */

const SEED = 20261121;
const NUM_RUNS = 300;

type Read = { offset: number; length: number };

/** A memorySource that records every read asked of it. */
function recordingSource(bytes: Uint8Array): ByteSource & { log: Read[] } {
	const inner = memorySource(bytes);
	const log: Read[] = [];
	return {
		size: inner.size,
		log,
		read(offset: number, length: number) {
			log.push({ offset, length });
			return inner.read(offset, length);
		},
	};
}

/** The message probeImage gives when a parser threw something other than an ImageFault. */
const CATCH_ALL = /^The (file|TIFF|PNG|JPEG) header could not be read: it is corrupt\.$/;

function hex(bytes: Uint8Array, max = 64): string {
	const shown = Array.from(bytes.subarray(0, max), (byte) => byte.toString(16).padStart(2, "0")).join("");
	return bytes.length > max ? `${shown}… (${bytes.length} bytes)` : shown;
}

/** Inspects `bytes` and checks the property; `describeInput` names the input in a failure. */
async function probe(bytes: Uint8Array, describeInput: () => string, options: ReaderOptions = {}): Promise<void> {
	const source = recordingSource(bytes);
	let result: Inspection;
	try {
		result = await probeImage(source, options);
	} catch (error) {
		throw new Error(`probeImage threw ${String(error)} on ${describeInput()}`);
	}
	for (const { offset, length } of source.log) {
		const where = `read(${offset}, ${length}) of a ${bytes.length}-byte file, ${describeInput()}`;
		expect(Number.isSafeInteger(offset), where).toBe(true);
		expect(Number.isSafeInteger(length), where).toBe(true);
		expect(offset, where).toBeGreaterThanOrEqual(0);
		expect(length, where).toBeGreaterThanOrEqual(0);
		if (length > 0) expect(offset, where).toBeLessThan(bytes.length);
	}
	expect(typeof result.ok).toBe("boolean");
	if (result.ok) {
		expect(result.format).toBe(detectFormat(bytes.subarray(0, 4)));
		for (const side of [result.widthPx, result.heightPx]) {
			expect(Number.isSafeInteger(side), describeInput()).toBe(true);
			expect(side).toBeGreaterThanOrEqual(1);
			expect(side).toBeLessThanOrEqual(MAX_SIDE_PX);
		}
	} else {
		expect(result.message.length).toBeGreaterThan(0);
		// The catch-all answer means a parser threw something other than an ImageFault: a parser
		// bug behind a right-looking corrupt_header.
		expect(CATCH_ALL.test(result.message), `catch-all reached on ${describeInput()}`).toBe(false);
	}
}

type Sample = { name: string; bytes: Uint8Array };
let samples: Sample[] = [];

beforeAll(async () => {
	samples = (await allFixtures())
		.filter((fixture) => fixture.expected.ok)
		.map((fixture) => ({ name: fixture.name, bytes: fixture.bytes }));
	expect(samples.length).toBeGreaterThan(20);
});

describe("probeImage under fuzzing", () => {
	it("arbitrary bytes: always an Inspection, reads inside the file", async () => {
		// Half the inputs start with a real signature, so the parsers are reached, not only detectFormat.
		const signature = fc.constantFrom(
			Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
			Uint8Array.of(0xff, 0xd8, 0xff),
			Uint8Array.of(0x49, 0x49, 42, 0),
			Uint8Array.of(0x49, 0x49, 43, 0),
			Uint8Array.of(0x4d, 0x4d, 0, 42),
			Uint8Array.of(0x4d, 0x4d, 0, 43),
		);
		const bytes = fc.oneof(
			fc.uint8Array({ maxLength: 4096 }),
			fc
				.tuple(signature, fc.uint8Array({ maxLength: 4096 }))
				.map(([head, tail]) => Uint8Array.from([...head, ...tail])),
		);
		await fc.assert(
			fc.asyncProperty(bytes, (input) => probe(input, () => `bytes ${hex(input)}`)),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	}, 60_000);

	it("valid PNG/JPEG/TIFF fixtures, mutated and truncated: always an Inspection, reads inside the file", async () => {
		const damaged = fc.record({
			sample: fc.nat({ max: 1000 }),
			mutations: fc.array(mutation, { maxLength: 8 }),
			// null keeps the whole file; otherwise cut to `keep` bytes (taken modulo the length).
			keep: fc.option(offset, { freq: 2 }),
			// Mostly the R2 defaults; sometimes tiny blocks, a small cache or a low read limit.
			options: fc.option(
				fc.record(
					{
						blockSize: fc.integer({ min: 1, max: 8192 }),
						cachedBlocks: fc.integer({ min: 1, max: 32 }),
						readLimit: fc.integer({ min: 1, max: 2 * 1024 * 1024 }),
					},
					{ requiredKeys: [] },
				),
				{ freq: 3 },
			),
		});
		await fc.assert(
			fc.asyncProperty(damaged, async ({ sample: pick, mutations, keep, options }) => {
				const sample = samples[pick % samples.length] as Sample;
				const { input, description } = damage(sample.bytes, mutations, keep);
				await probe(
					input,
					() => `"${sample.name}" with ${description}, options ${JSON.stringify(options)}`,
					options ?? {},
				);
			}),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	}, 60_000);
});
