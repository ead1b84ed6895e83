import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";
import { memorySource } from "../../../src/imaging/byte-source.ts";
import { thumbnailReasonOf } from "../decode-helpers.ts";
import { allFixtures } from "../fixtures/all-fixtures.ts";
import { concat } from "../fixtures/bytes.ts";
import { encodeJpeg, withFrameMarker } from "../fixtures/jpeg.ts";
import { captureSink, decodeJpegDc, meanAbsoluteError, type Raster } from "./capture.ts";
import { type DcComponent, type DcJpegSpec, dcJpeg, dcJpegHeader, exifWithOrientation } from "./dc-fixtures.ts";

async function decode(bytes: Uint8Array): Promise<Raster & { orientation: number }> {
	const sink = captureSink();
	const { orientation } = await decodeJpegDc(memorySource(bytes), sink);
	return { ...sink.raster(), orientation };
}

/** The reason decoding `bytes` gives up with, or "decoded". */
async function outcome(bytes: Uint8Array): Promise<string> {
	try {
		await decodeJpegDc(memorySource(bytes), captureSink());
		return "decoded";
	} catch (error) {
		return thumbnailReasonOf(error);
	}
}

/** A gray component whose block (x, y) has DC value `x * 7 - y * 5` (a mean of 128 plus that). */
const ramp = (id: number, h = 1, v = 1): DcComponent => ({ id, h, v, dc: (x, y) => ((x * 7 - y * 5) % 120) + 1 });

function expectPixel(raster: Raster, x: number, y: number, rgb: readonly number[]): void {
	const at = (y * raster.width + x) * 3;
	expect([...raster.rgb.subarray(at, at + 3)], `pixel ${x},${y}`).toEqual(rgb);
}

/** The 8 × 8 box average of jpeg-js's full decode: the reference for a DC-only decode. */
function boxAverage(bytes: Uint8Array): Raster {
	const full = jpeg.decode(bytes, { useTArray: true });
	const width = Math.ceil(full.width / 8);
	const height = Math.ceil(full.height / 8);
	const rgb = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			for (let c = 0; c < 3; c++) {
				let sum = 0;
				let count = 0;
				for (let py = y * 8; py < Math.min(full.height, y * 8 + 8); py++) {
					for (let px = x * 8; px < Math.min(full.width, x * 8 + 8); px++) {
						sum += full.data[(py * full.width + px) * 4 + c] ?? 0;
						count++;
					}
				}
				rgb[(y * width + x) * 3 + c] = Math.round(sum / count);
			}
		}
	}
	return { width, height, rgb };
}

describe("decodeJpegDc", () => {
	it("a real baseline JPEG decodes to its 8 × 8 block means, within 6/255 of a full decode", async () => {
		const bytes = encodeJpeg(203, 131, 90);
		const raster = await decode(bytes);
		expect([raster.width, raster.height]).toEqual([26, 17]);
		expect(meanAbsoluteError(raster, boxAverage(bytes))).toBeLessThan(6);
	});

	it("each block of a gray JPEG becomes one pixel of its exact mean", async () => {
		const component = ramp(1);
		const raster = await decode(dcJpeg({ width: 80, height: 44, components: [component] }));
		expect([raster.width, raster.height]).toEqual([10, 6]);
		for (const [x, y] of [
			[0, 0],
			[9, 0],
			[3, 5],
		] as const) {
			const mean = 128 + component.dc(x, y);
			expectPixel(raster, x, y, [mean, mean, mean]);
		}
	});

	it("AC coefficients (runs, ZRL, long codes) are skipped without moving the block mean", async () => {
		const component = ramp(1);
		const spec: DcJpegSpec = { width: 64, height: 64, components: [component] };
		const plain = await decode(dcJpeg(spec));
		const noisy = await decode(dcJpeg({ ...spec, acNoise: true }));
		expect(noisy.rgb).toEqual(plain.rgb);
	});

	it("the DC step of the quantisation table scales the mean", async () => {
		const raster = await decode(
			dcJpeg({ width: 8, height: 8, step: 16, components: [{ id: 1, h: 1, v: 1, dc: () => 5 }] }),
		);
		expectPixel(raster, 0, 0, [138, 138, 138]);
	});

	for (const [name, h, v] of [
		["4:4:4", 1, 1],
		["4:2:2", 2, 1],
		["4:2:0", 2, 2],
		["4:1:1", 4, 1],
	] as const) {
		it(`${name} sampling: luma per block, chroma interpolated between its blocks' centres`, async () => {
			// RGB (Adobe transform 0) with the first component at full resolution, so values pass through.
			// Chroma linear in its block position: interpolation between block centres reproduces the line.
			const red = ramp(82, h, v);
			const green: DcComponent = { id: 71, h: 1, v: 1, dc: (x, y) => 8 * x + 4 * y - 30 };
			const blue: DcComponent = { id: 66, h: 1, v: 1, dc: (x, y) => 20 - 8 * x - 4 * y };
			const raster = await decode(dcJpeg({ width: 100, height: 70, adobe: 0, components: [red, green, blue] }));
			expect([raster.width, raster.height]).toEqual([13, 9]);
			const centre = (at: number, ratio: number) => Math.max(0, (at + 0.5) / ratio - 0.5);
			for (const [x, y] of [
				[0, 0],
				[5, 3],
				[6, 4],
			] as const) {
				const cx = centre(x, h);
				const cy = centre(y, v);
				expectPixel(raster, x, y, [128 + red.dc(x, y), 128 + green.dc(cx, cy), 128 + blue.dc(cx, cy)]);
			}
		});
	}

	it("YCbCr is converted to RGB (neutral chroma is gray, Cr alone tints red)", async () => {
		const luma: DcComponent = { id: 1, h: 2, v: 2, dc: () => 0 };
		const cb: DcComponent = { id: 2, h: 1, v: 1, dc: () => 0 };
		const cr: DcComponent = { id: 3, h: 1, v: 1, dc: (x) => (x === 0 ? 0 : 50) };
		const raster = await decode(dcJpeg({ width: 32, height: 16, components: [luma, cb, cr] }));
		expectPixel(raster, 0, 0, [128, 128, 128]);
		expectPixel(raster, 3, 1, [Math.round(128 + 1.402 * 50), Math.round(128 - 0.714136 * 50), 128]);
	});

	it("restart markers reset the DC prediction, and decoding continues across them", async () => {
		const component = ramp(1);
		const spec: DcJpegSpec = { width: 120, height: 40, components: [component] };
		const plain = await decode(dcJpeg(spec));
		for (const restartInterval of [1, 3, 7, 15]) {
			const restarted = await decode(dcJpeg({ ...spec, restartInterval, acNoise: true }));
			expect(restarted.rgb, `interval ${restartInterval}`).toEqual(plain.rgb);
		}
	});

	it("a progressive JPEG's first DC scan gives the means, to its point shift", async () => {
		const component = ramp(1);
		const raster = await decode(
			dcJpeg({ width: 64, height: 32, components: [component], progressive: { shift: 1, trailingBytes: 500 } }),
		);
		const mean = 128 + ((component.dc(5, 2) >> 1) << 1);
		expectPixel(raster, 5, 2, [mean, mean, mean]);
	});

	it("a progressive JPEG is read only to the end of its first scan", async () => {
		const bytes = dcJpeg({
			width: 64,
			height: 64,
			components: [ramp(1)],
			progressive: { shift: 0, trailingBytes: 200_000 },
		});
		const source = memorySource(bytes);
		await decodeJpegDc(source, captureSink(), { chunkBytes: 4096 });
		expect(source.bytesRead).toBeLessThan(8192);
		expect(bytes.length).toBeGreaterThan(200_000);
	});

	it("a progressive JPEG with one DC scan a component gives the same raster, skipping the AC scan between them", async () => {
		const components = [ramp(82, 2, 2), { ...ramp(71), dc: (x: number, y: number) => x - y * 2 }, ramp(66)];
		const spec: DcJpegSpec = { width: 100, height: 60, adobe: 0, components, restartInterval: 4 };
		const interleaved = await decode(dcJpeg(spec));
		const progressive = { shift: 0, trailingBytes: 3000 };
		const separate = await decode(dcJpeg({ ...spec, progressive, separateScans: true }));
		expect(separate.rgb).toEqual(interleaved.rgb);
	});

	it("a baseline JPEG with one scan a component gives the same raster as its interleaved twin", async () => {
		const components = [ramp(1, 2, 1), ramp(2), ramp(3)];
		const spec: DcJpegSpec = { width: 90, height: 50, components, acNoise: true };
		expect((await decode(dcJpeg({ ...spec, separateScans: true }))).rgb).toEqual((await decode(dcJpeg(spec))).rgb);
	});

	it("a progressive JPEG missing a component's DC scan is refused, not drawn without it", async () => {
		const bytes = dcJpeg({
			width: 32,
			height: 32,
			components: [ramp(1), ramp(2), ramp(3)],
			progressive: { shift: 0, trailingBytes: 10 },
			separateScans: true,
		});
		// Closed with EOI right before the last component's DC scan.
		const lastScan = bytes.findLastIndex((byte, at) => byte === 0xff && bytes[at + 1] === 0xda);
		expect(await outcome(concat(bytes.subarray(0, lastScan), Uint8Array.of(0xff, 0xd9)))).toBe("corrupt");
	});

	it("one DC scan a component on a frame whose DC planes would pass 24 MiB is too_large, before decoding", async () => {
		const header = dcJpegHeader({
			width: 30_000,
			height: 30_000,
			components: [ramp(1), ramp(2), ramp(3)],
			progressive: { shift: 0, trailingBytes: 0 },
			separateScans: true,
		});
		expect(await outcome(concat(header, new Uint8Array(64), Uint8Array.of(0xff, 0xd9)))).toBe("too_large");
	});

	it("CMYK: Adobe's inverted values, plain values and YCCK all become RGB", async () => {
		const flat = (id: number, dc: number): DcComponent => ({ id, h: 1, v: 1, dc: () => dc });
		// Stored values 228, 128, 28 and 178.
		const components = [flat(1, 100), flat(2, 0), flat(3, -100), flat(4, 50)];
		const inverted = await decode(dcJpeg({ width: 8, height: 8, adobe: 0, components }));
		expectPixel(inverted, 0, 0, [
			Math.round((228 * 178) / 255),
			Math.round((128 * 178) / 255),
			Math.round((28 * 178) / 255),
		]);
		const plain = await decode(dcJpeg({ width: 8, height: 8, components }));
		expectPixel(plain, 0, 0, [Math.round((27 * 77) / 255), Math.round((127 * 77) / 255), Math.round((227 * 77) / 255)]);
		// YCCK with neutral chroma: Y 228 is stored CMY of 228, which the inverted reading turns into 228 × K.
		const ycck = await decode(
			dcJpeg({ width: 8, height: 8, adobe: 2, components: [flat(1, 100), flat(2, 0), flat(3, 0), flat(4, 50)] }),
		);
		expectPixel(ycck, 0, 0, Array(3).fill(Math.round(((255 - 228) * 178) / 255)));
	});

	it("the EXIF orientation is returned, in either byte order, and 1 when absent or out of range", async () => {
		const spec: DcJpegSpec = { width: 8, height: 8, components: [ramp(1)] };
		expect((await decode(dcJpeg({ ...spec, exif: exifWithOrientation(6) }))).orientation).toBe(6);
		expect((await decode(dcJpeg({ ...spec, exif: exifWithOrientation(8, true) }))).orientation).toBe(8);
		expect((await decode(dcJpeg({ ...spec, exif: exifWithOrientation(9) }))).orientation).toBe(1);
		expect((await decode(dcJpeg(spec))).orientation).toBe(1);
	});

	it("a lying EXIF IFD offset or entry count reads as no orientation, not a crash", async () => {
		const spec: DcJpegSpec = { width: 8, height: 8, components: [ramp(1)] };
		const offsetPastEnd = exifWithOrientation(3);
		offsetPastEnd.set([0xff, 0xff, 0, 0], 10);
		const tooManyEntries = exifWithOrientation(3);
		tooManyEntries.set([0x40, 0x00], 14);
		expect((await decode(dcJpeg({ ...spec, exif: offsetPastEnd }))).orientation).toBe(1);
		expect((await decode(dcJpeg({ ...spec, exif: tooManyEntries }))).orientation).toBe(3);
	});

	it("the inspector's JPEG fixtures: real files decode at 1/8 past EXIF, ICC and fill bytes; fakes give up with a reason", async () => {
		// Header-level fakes: a frame whose scan was encoded for another frame, or a coding not read.
		const expected: Record<string, string> = {
			"jpeg progressive (SOF2)": "corrupt",
			"jpeg lossless (SOF3)": "unsupported_variant",
			"jpeg arithmetic progressive (SOF10)": "unsupported_variant",
			"jpeg grayscale": "corrupt",
			"jpeg CMYK with Adobe APP14": "corrupt",
			"jpeg truncated (EOI cut)": "truncated",
			"jpeg truncated inside the EXIF segments": "truncated",
			"jpeg truncated before the scan": "truncated",
		};
		const jpegs = (await allFixtures()).filter((fixture) => fixture.expected.format === "jpeg");
		expect(jpegs.length).toBeGreaterThan(10);
		for (const fixture of jpegs) {
			const result = await outcome(fixture.bytes);
			expect(result, fixture.name).toBe(expected[fixture.name] ?? "decoded");
			if (result === "decoded" && fixture.expected.ok) {
				const raster = await decode(fixture.bytes);
				expect([raster.width, raster.height], fixture.name).toEqual([
					Math.ceil(fixture.expected.widthPx / 8),
					Math.ceil(fixture.expected.heightPx / 8),
				]);
			}
		}
	});

	it("arithmetic, lossless and 12-bit JPEGs are unsupported_variant", async () => {
		const bytes = encodeJpeg(32, 32);
		for (const code of [0xc3, 0xc9, 0xca, 0xcb, 0xc5])
			expect(await outcome(withFrameMarker(bytes, code))).toBe("unsupported_variant");
		const twelveBit = bytes.slice();
		const sof = twelveBit.findIndex((byte, index) => byte === 0xff && twelveBit[index + 1] === 0xc0);
		twelveBit[sof + 4] = 12;
		expect(await outcome(twelveBit)).toBe("unsupported_variant");
	});

	it("a file cut inside its headers or its image data is truncated", async () => {
		const bytes = encodeJpeg(64, 64);
		expect(await outcome(bytes.subarray(0, 100))).toBe("truncated");
		expect(await outcome(bytes.subarray(0, bytes.length - 200))).toBe("truncated");
		// Cut, then closed with EOI: the data still ends before the last block.
		expect(await outcome(concat(bytes.subarray(0, bytes.length - 200), Uint8Array.of(0xff, 0xd9)))).toBe("truncated");
	});

	it("a frame beyond the inspector's limits is too_large before anything is allocated", async () => {
		const bytes = encodeJpeg(16, 16).slice();
		const sof = bytes.findIndex((byte, index) => byte === 0xff && bytes[index + 1] === 0xc0);
		bytes.set([0xff, 0xff, 0xff, 0xff], sof + 5); // 65535 × 65535
		expect(await outcome(bytes)).toBe("too_large");
	});

	it("a file that is not a JPEG, or whose scan comes before its frame, is corrupt", async () => {
		expect(await outcome(Uint8Array.of(0x89, 0x50, 0x4e, 0x47))).toBe("corrupt");
		expect(await outcome(Uint8Array.of(0xff, 0xd8, 0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0))).toBe("corrupt");
	});
});
