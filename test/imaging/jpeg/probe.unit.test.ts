import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";
import { memorySource } from "../../../src/imaging/byte-source.ts";
import { probeFormat, probeImage } from "../../../src/imaging/probe.ts";
import { ByteReader } from "../../../src/imaging/reader.ts";
import { concat, cut } from "../fixtures/bytes.ts";
import {
	adobeSegment,
	encodeJpeg,
	exifSegments,
	findSegment,
	iccSegments,
	insertAfterApp0,
	jpegSegment,
	largeJpeg,
	withComponents,
	withFillBytes,
	withFrameMarker,
} from "../fixtures/jpeg.ts";
import { sparseSource } from "../fixtures/sparse-file.ts";

const baseline = encodeJpeg(64, 48);

function inspect(bytes: Uint8Array) {
	return probeFormat("jpeg", new ByteReader(memorySource(bytes)));
}

/** A frame-header-shaped payload (precision, height, width, 3 components) claiming `height` × `width`. */
function frameLikePayload(height: number, width: number): Uint8Array {
	return Uint8Array.of(8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1);
}

describe("probeJpeg", () => {
	it("reads the baseline frame header of a jpeg-js file", async () => {
		expect(jpeg.decode(baseline, { useTArray: true })).toMatchObject({ width: 64, height: 48 });
		expect(await inspect(baseline)).toMatchObject({
			ok: true,
			format: "jpeg",
			widthPx: 64,
			heightPx: 48,
			detail: "JPEG baseline, 3 components (YCbCr)",
		});
	});

	it.each([
		[0xc0, "baseline"],
		[0xc1, "extended sequential"],
		[0xc2, "progressive"],
		[0xc3, "lossless"],
		[0xc5, "differential sequential"],
		[0xc6, "differential progressive"],
		[0xc7, "differential lossless"],
		[0xc9, "extended sequential, arithmetic"],
		[0xca, "progressive, arithmetic"],
		[0xcb, "lossless, arithmetic"],
		[0xcd, "differential sequential, arithmetic"],
		[0xce, "differential progressive, arithmetic"],
		[0xcf, "differential lossless, arithmetic"],
	])("takes SOF %s as the frame header (%s)", async (code, mode) => {
		expect(await inspect(withFrameMarker(baseline, code))).toMatchObject({
			ok: true,
			format: "jpeg",
			widthPx: 64,
			heightPx: 48,
			detail: `JPEG ${mode}, 3 components (YCbCr)`,
		});
	});

	it("skips DHT (C4), JPG (C8) and DAC (CC) segments even when they look like a frame header", async () => {
		const decoys = [0xc4, 0xc8, 0xcc].map((code) => jpegSegment(code, frameLikePayload(9_999, 7_777)));
		expect(await inspect(insertAfterApp0(baseline, ...decoys))).toMatchObject({ ok: true, widthPx: 64, heightPx: 48 });
	});

	it("walks past a 200 KB EXIF/XMP APP1 block split over several segments", async () => {
		const segments = exifSegments(200_000);
		expect(segments.length).toBeGreaterThan(3);
		const bytes = insertAfterApp0(baseline, ...segments);
		expect(await inspect(bytes)).toMatchObject({ ok: true, widthPx: 64, heightPx: 48 });
	});

	it("walks past an ICC profile split over 60 APP2 segments, and APPn of every number", async () => {
		const appN = Array.from({ length: 16 }, (_, n) => jpegSegment(0xe0 + n, new Uint8Array(n * 100)));
		const bytes = insertAfterApp0(baseline, ...iccSegments(60_000, 1_000), ...appN);
		expect(await inspect(bytes)).toMatchObject({ ok: true, widthPx: 64, heightPx: 48 });
	});

	it("skips fill bytes (0xFF) before markers", async () => {
		for (const count of [1, 7, 200]) {
			expect(await inspect(withFillBytes(baseline, count))).toMatchObject({ ok: true, widthPx: 64, heightPx: 48 });
		}
	});

	it("names grayscale, CMYK, YCCK and Adobe RGB from the component count and APP14", async () => {
		const cases: [Uint8Array, string][] = [
			[withComponents(baseline, 1), "JPEG baseline, 1 component (grayscale)"],
			[withComponents(baseline, 4), "JPEG baseline, 4 components (CMYK)"],
			[insertAfterApp0(withComponents(baseline, 4), adobeSegment(0)), "JPEG baseline, 4 components (CMYK)"],
			[insertAfterApp0(withComponents(baseline, 4), adobeSegment(2)), "JPEG baseline, 4 components (YCCK)"],
			[insertAfterApp0(baseline, adobeSegment(0)), "JPEG baseline, 3 components (RGB)"],
			[insertAfterApp0(baseline, adobeSegment(1)), "JPEG baseline, 3 components (YCbCr)"],
		];
		for (const [bytes, detail] of cases) {
			expect(await inspect(bytes)).toMatchObject({ ok: true, format: "jpeg", widthPx: 64, heightPx: 48, detail });
		}
	});

	it("a file cut anywhere is truncated: inside a segment, before the scan, or in the scan data", async () => {
		const withExif = insertAfterApp0(baseline, ...exifSegments(200_000));
		const sos = findSegment(baseline, 0xda).at;
		for (const bytes of [
			cut(withExif, 1_000),
			cut(withExif, 100_000),
			cut(baseline, 2),
			cut(baseline, sos),
			cut(baseline, sos + 10),
			cut(baseline, baseline.length - 2),
			cut(baseline, baseline.length - 1),
		]) {
			expect(await inspect(bytes)).toMatchObject({ ok: false, format: "jpeg", reason: "truncated" });
		}
		expect(await inspect(cut(baseline, baseline.length - 1))).toMatchObject({
			message: "The JPEG ends before its end-of-image (EOI) marker: the file is truncated.",
		});
	});

	it("tolerates padding after EOI within the last 1 KiB, not beyond", async () => {
		expect(await inspect(concat(baseline, new Uint8Array(1_000)))).toMatchObject({ ok: true });
		expect(await inspect(concat(baseline, new Uint8Array(2_000)))).toMatchObject({ ok: false, reason: "truncated" });
	});

	it("an EXIF thumbnail's EOI does not hide a file cut right after its header", async () => {
		const thumbnail = jpegSegment(0xe1, concat(new TextEncoder().encode("Exif\0\0"), encodeJpeg(8, 8)));
		const bytes = insertAfterApp0(baseline, thumbnail);
		const sos = findSegment(bytes, 0xda);
		expect(await inspect(cut(bytes, sos.at + sos.size + 4))).toMatchObject({ ok: false, reason: "truncated" });
	});

	it("a header that lies is corrupt: short lengths, a scan before the frame, stray markers", async () => {
		const sof = findSegment(baseline, 0xc0);
		const zeroLength = baseline.slice();
		zeroLength[sof.at + 2] = 0;
		zeroLength[sof.at + 3] = 1;
		const wrongLength = baseline.slice();
		wrongLength[sof.at + 3] = (wrongLength[sof.at + 3] ?? 0) + 1; // the next "marker" is a data byte
		const tooFewComponentBytes = concat(
			baseline.subarray(0, sof.at),
			jpegSegment(0xc0, frameLikePayload(48, 64).subarray(0, 9)),
			baseline.subarray(sof.at + sof.size),
		);
		const scanFirst = concat(
			baseline.subarray(0, 2),
			jpegSegment(0xda, Uint8Array.of(1, 1, 0, 0, 63, 0)),
			baseline.subarray(2),
		);
		const strayEoi = concat(baseline.subarray(0, 2), Uint8Array.of(0xff, 0xd9), baseline.subarray(2));
		const noSoi = baseline.slice();
		noSoi[1] = 0xd9;
		const cases: [Uint8Array, string][] = [
			[zeroLength, "declares a length of 1"],
			[wrongLength, "no marker where one should be"],
			[tooFewComponentBytes, "declares 3 components but has room for 1"],
			[scanFirst, "first scan comes before any frame header"],
			[strayEoi, "stray EOI marker at byte 2"],
			[noSoi, "does not start with a start-of-image (SOI) marker"],
		];
		for (const [bytes, message] of cases) {
			const inspection = await inspect(bytes);
			expect(inspection).toMatchObject({ ok: false, format: "jpeg", reason: "corrupt_header" });
			expect(inspection.ok ? "" : inspection.message).toContain(message);
		}
	});

	it("a frame whose height waits for a DNL marker is refused with its own message", async () => {
		const sof = findSegment(baseline, 0xc0);
		const dnl = baseline.slice();
		dnl[sof.at + 5] = 0;
		dnl[sof.at + 6] = 0;
		expect(await inspect(dnl)).toEqual({
			ok: false,
			format: "jpeg",
			reason: "dimensions_out_of_range",
			message: "The JPEG leaves its height to a DNL marker after the image data, which is not supported.",
		});
	});

	it("1 MB of APP segments before SOF costs under 256 KiB of reads", async () => {
		const bytes = insertAfterApp0(baseline, ...exifSegments(1_000_000));
		const source = memorySource(bytes);
		expect(await probeImage(source)).toMatchObject({ ok: true, widthPx: 64, heightPx: 48 });
		console.info(
			`JPEG with 1 MB of APP1 segments (${bytes.length} bytes): ${source.bytesRead} bytes in ${source.reads} reads`,
		);
		expect(source.bytesRead).toBeLessThan(256 * 1024);
	});

	it("a 50 MB JPEG with 1 MB of APP segments costs under 256 KiB of reads, EOI read from the end", async () => {
		const { file } = largeJpeg(50_000_000, 1_000_000);
		const source = sparseSource(file);
		expect(await probeImage(source)).toMatchObject({ ok: true, widthPx: 64, heightPx: 48 });
		console.info(`50 MB JPEG with 1 MB of APP1 segments: ${source.bytesRead} bytes in ${source.reads} reads`);
		expect(source.bytesRead).toBeLessThan(256 * 1024);
		expect(source.reads).toBeLessThan(30);
	});

	it("the same 50 MB JPEG without its EOI is truncated", async () => {
		const { file } = largeJpeg(50_000_000, 1_000_000);
		const source = sparseSource({ size: file.size, pieces: file.pieces.slice(0, 1) });
		expect(await probeImage(source)).toMatchObject({ ok: false, reason: "truncated" });
	});

	it("many small segments are read whole, and a header past the read limit stops there", async () => {
		const comments = Array.from({ length: 1_000 }, () => jpegSegment(0xfe, new Uint8Array(1_000)));
		const manySmall = memorySource(insertAfterApp0(baseline, ...comments));
		expect(await probeImage(manySmall)).toMatchObject({ ok: true });
		console.info(`JPEG with 1 MB of 1 KB COM segments: ${manySmall.bytesRead} bytes in ${manySmall.reads} reads`);
		const tooMany = Array.from({ length: 3_000 }, () => jpegSegment(0xfe, new Uint8Array(1_000)));
		expect(await probeImage(memorySource(insertAfterApp0(baseline, ...tooMany)))).toMatchObject({
			ok: false,
			format: "jpeg",
			reason: "read_limit_exceeded",
		});
	});
});
