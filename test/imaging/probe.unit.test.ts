import { describe, expect, it } from "vitest";
import { type ByteSource, memorySource } from "../../src/imaging/byte-source.ts";
import { HEADER_FAULT_REASONS } from "../../src/imaging/fault.ts";
import { detectFormat } from "../../src/imaging/formats.ts";
import { MAX_PIXELS, MAX_SIDE_PX } from "../../src/imaging/limits.ts";
import { type Inspection, probeImage } from "../../src/imaging/probe.ts";
import { allFixtures } from "./fixtures/all-fixtures.ts";
import { encodeJpeg, exifSegments, insertAfterApp0 } from "./fixtures/jpeg.ts";
import { encodePng, patchIhdr } from "./fixtures/png.ts";
import { buildTiff } from "./fixtures/tiff.ts";

const fixtures = await allFixtures();

/** A well-formed result: valid within the limits, or invalid with a known reason and a sentence. */
function expectWellFormed(inspection: Inspection): void {
	if (inspection.ok) {
		expect(inspection.widthPx).toBeGreaterThanOrEqual(1);
		expect(inspection.heightPx).toBeGreaterThanOrEqual(1);
		expect(inspection.widthPx).toBeLessThanOrEqual(MAX_SIDE_PX);
		expect(inspection.heightPx).toBeLessThanOrEqual(MAX_SIDE_PX);
		expect(inspection.widthPx * inspection.heightPx).toBeLessThanOrEqual(MAX_PIXELS);
		expect(inspection.detail.length).toBeGreaterThan(0);
	} else {
		expect(HEADER_FAULT_REASONS).toContain(inspection.reason);
		expect(inspection.message).toMatch(/^The .+\.$/);
	}
}

/** A small deterministic generator, so a failing mutation can be replayed. */
function randomNumbers(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
	};
}

describe("probeImage", () => {
	describe("every fixture gets its format and size, or its reason", () => {
		for (const fixture of fixtures) {
			it(fixture.name, async () => {
				const inspection = await probeImage(memorySource(fixture.bytes));
				expect(inspection).toMatchObject(fixture.expected);
				expectWellFormed(inspection);
			});
		}
	});

	it("detects the format from the first bytes, whatever the file claims to be", () => {
		expect(detectFormat(encodePng(40, 30))).toBe("png");
		expect(detectFormat(encodeJpeg(8, 8))).toBe("jpeg");
		expect(detectFormat(buildTiff({ order: "II", ifdAt: "start", layout: "strips", width: 2, height: 2 }))).toBe(
			"tiff",
		);
		expect(
			detectFormat(buildTiff({ order: "MM", bigTiff: true, ifdAt: "start", layout: "tiles", width: 2, height: 2 })),
		).toBe("tiff");
		for (const other of ["GIF89a", "RIFF\0\0\0\0WEBP", "%PDF-1.7", "BM", "", "\x89P"]) {
			expect(detectFormat(Uint8Array.from(other, (char) => char.charCodeAt(0)))).toBeNull();
		}
	});

	it("a file too short to hold a signature is unsupported, not an error", async () => {
		expect(await probeImage(memorySource(Uint8Array.of(0x89, 0x50)))).toMatchObject({
			ok: false,
			format: null,
			reason: "unsupported_format",
		});
	});

	it("applies the size limits inclusively: 1,000,000 px a side and 1 gigapixel in all", async () => {
		const png = encodePng(40, 30);
		const cases: [number, number, Inspection["ok"] | Inspection["format"] | string][] = [
			[1_000_000, 1_000, "ok"],
			[1, 1, "ok"],
			[1_000_001, 1, "dimensions_out_of_range"],
			[1, 1_000_001, "dimensions_out_of_range"],
			[0, 5, "dimensions_out_of_range"],
			[1_000_000, 1_001, "too_many_pixels"],
			[40_000, 40_000, "too_many_pixels"],
		];
		for (const [width, height, outcome] of cases) {
			const inspection = await probeImage(memorySource(patchIhdr(png, { width, height })));
			expect(inspection.ok ? "ok" : inspection.reason).toBe(outcome);
		}
		expect(await probeImage(memorySource(patchIhdr(png, { width: 1_000_001, height: 3 })))).toMatchObject({
			message: "The PNG header gives 1,000,001 × 3 pixels; each side must be between 1 and 1,000,000.",
		});
	});

	it("stops at the read limit with read_limit_exceeded", async () => {
		const bytes = insertAfterApp0(encodeJpeg(16, 16), ...exifSegments(1_000_000));
		expect(await probeImage(memorySource(bytes), { readLimit: 16 * 1024 })).toMatchObject({
			ok: false,
			format: "jpeg",
			reason: "read_limit_exceeded",
		});
	});

	it("a storage failure is read_failed, so the caller can retry", async () => {
		const failing: ByteSource = { size: 1_000, read: () => Promise.reject(new Error("network")) };
		expect(await probeImage(failing)).toMatchObject({ ok: false, format: null, reason: "read_failed" });
	});

	it("an unexpected exception becomes an invalid result, never a rejection", async () => {
		const png = encodePng(40, 30);
		let calls = 0;
		const misbehaving: ByteSource = {
			size: png.length,
			read: (offset, length) => {
				calls += 1;
				// The first read (format detection) is fine; then the source breaks its contract.
				return Promise.resolve(calls === 1 ? png.slice(offset, offset + length) : (null as unknown as Uint8Array));
			},
		};
		expect(await probeImage(misbehaving, { blockSize: 8 })).toEqual({
			ok: false,
			format: "png",
			reason: "corrupt_header",
			message: "The PNG header could not be read: it is corrupt.",
		});
	});

	it("never throws on damaged files: every cut and thousands of byte flips give a well-formed result", async () => {
		const random = randomNumbers(2024);
		const valid = fixtures.filter((fixture) => fixture.expected.ok && fixture.bytes.length < 20_000);
		let inspected = 0;
		for (const { bytes } of valid) {
			for (let keep = 0; keep < Math.min(bytes.length, 400); keep++) {
				expectWellFormed(await probeImage(memorySource(bytes.subarray(0, keep))));
				inspected += 1;
			}
			for (let round = 0; round < 150; round++) {
				const damaged = bytes.slice();
				const flips = 1 + Math.floor(random() * 4);
				for (let flip = 0; flip < flips; flip++) {
					// Mostly in the header, where the parsers look; sometimes anywhere.
					const span = random() < 0.8 ? Math.min(damaged.length, 700) : damaged.length;
					damaged[Math.floor(random() * span)] = Math.floor(random() * 256);
				}
				expectWellFormed(await probeImage(memorySource(damaged)));
				inspected += 1;
			}
		}
		expect(inspected).toBeGreaterThan(5_000);
	});
});
