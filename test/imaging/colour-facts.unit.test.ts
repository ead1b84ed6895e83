/**
 * Colour facts read from headers, on profiles and files built byte by byte: what each tagging reads
 * as, and what a hostile profile (a lying tag count, tags past its end, pieces missing or repeated, a
 * compressed profile that does not inflate) reads as: never a fault of the file, never past its bounds.
 */
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { memorySource } from "../../src/imaging/byte-source.ts";
import { descriptionOf, parseIccProfile, profileFactsOf } from "../../src/imaging/colour/icc.ts";
import { memoryProfile } from "../../src/imaging/colour/parts.ts";
import { type Inspection, probeImage, readColourProfile } from "../../src/imaging/probe.ts";
import { ascii, concat, u16be, u32be } from "./fixtures/bytes.ts";
import { encodeJpeg, insertAfterApp0, jpegSegment } from "./fixtures/jpeg.ts";
import { buildPng, pngChunk } from "./fixtures/png.ts";

/** s15Fixed16 as four bytes. */
function fixed(value: number): Uint8Array {
	const bytes = new Uint8Array(4);
	new DataView(bytes.buffer).setInt32(0, Math.round(value * 65536));
	return bytes;
}

function xyzTag(x: number, y: number, z: number): Uint8Array {
	return concat(ascii("XYZ "), new Uint8Array(4), fixed(x), fixed(y), fixed(z));
}

function gammaTag(gamma: number): Uint8Array {
	return concat(ascii("curv"), new Uint8Array(4), u32be(1), u16be(Math.round(gamma * 256)), new Uint8Array(2));
}

function descTag(text: string): Uint8Array {
	return concat(ascii("desc"), new Uint8Array(4), u32be(text.length + 1), ascii(`${text}\0`), new Uint8Array(79));
}

/** A v4 `mluc` with records in the order given. */
function mlucTag(records: [string, string, string][]): Uint8Array {
	const strings = records.map(([, , text]) => {
		const bytes = new Uint8Array(text.length * 2);
		for (let index = 0; index < text.length; index++) {
			bytes[index * 2] = text.charCodeAt(index) >> 8;
			bytes[index * 2 + 1] = text.charCodeAt(index) & 255;
		}
		return bytes;
	});
	let at = 16 + 12 * records.length;
	const heads = records.map(([language, country], index) => {
		const head = concat(ascii(language), ascii(country), u32be(strings[index]?.length ?? 0), u32be(at));
		at += strings[index]?.length ?? 0;
		return head;
	});
	return concat(ascii("mluc"), new Uint8Array(4), u32be(records.length), u32be(12), ...heads, ...strings);
}

/** An ICC profile of `space` with the tags given, in order, each padded to four bytes. */
function profile(space: string, tags: [string, Uint8Array][], options: { declaredCount?: number } = {}): Uint8Array {
	const padded = tags.map(
		([signature, data]) => [signature, concat(data, new Uint8Array((4 - (data.length % 4)) % 4))] as const,
	);
	let at = 128 + 4 + 12 * tags.length;
	const table = padded.map(([signature, data]) => {
		const entry = concat(ascii(signature), u32be(at), u32be(data.length));
		at += data.length;
		return entry;
	});
	const size = at;
	const header = new Uint8Array(128);
	header.set(u32be(size), 0);
	header.set([2, 0x10], 8);
	header.set(ascii("mntr"), 12);
	header.set(ascii(space.padEnd(4, " ")), 16);
	header.set(ascii("XYZ "), 20);
	header.set(ascii("acsp"), 36);
	return concat(header, u32be(options.declaredCount ?? tags.length), ...table, ...padded.map(([, data]) => data));
}

/** A matrix-and-curve RGB profile with the given colorants (Adobe RGB's by default). */
function rgbProfile(description: Uint8Array = descTag("Adobe RGB (1998)"), colorants = ADOBE): Uint8Array {
	return profile("RGB", [
		["desc", description],
		["wtpt", xyzTag(0.9642, 1, 0.8249)],
		["rXYZ", xyzTag(...colorants[0])],
		["gXYZ", xyzTag(...colorants[1])],
		["bXYZ", xyzTag(...colorants[2])],
		["rTRC", gammaTag(2.2)],
		["gTRC", gammaTag(2.2)],
		["bTRC", gammaTag(2.2)],
	]);
}

const ADOBE: [[number, number, number], [number, number, number], [number, number, number]] = [
	[0.6097, 0.3111, 0.0195],
	[0.2053, 0.6257, 0.0609],
	[0.1492, 0.0632, 0.7446],
];

/** A JPEG carrying `bytes` as ICC APP2 pieces of `pieceBytes`, in the sequence order given (1-based; default in order). */
function jpegWithProfile(bytes: Uint8Array, pieceBytes: number, order?: number[], count?: number): Uint8Array {
	const pieces = Math.ceil(bytes.length / pieceBytes);
	const sequence = order ?? Array.from({ length: pieces }, (_, index) => index + 1);
	const segments = sequence.map((number) => {
		const body = bytes.subarray((number - 1) * pieceBytes, number * pieceBytes);
		return jpegSegment(0xe2, concat(ascii("ICC_PROFILE\0"), Uint8Array.of(number, count ?? pieces), body));
	});
	return insertAfterApp0(encodeJpeg(32, 24), ...segments);
}

/** A PNG with no colour chunks of its own, `chunks` put right after its IHDR. */
async function pngWith(...chunks: Uint8Array[]): Promise<Uint8Array> {
	const png = await buildPng({ width: 32, height: 24, bitDepth: 8, colorType: 2 });
	return concat(png.subarray(0, 33), ...chunks, png.subarray(33));
}

function iccp(bytes: Uint8Array, compressed: Uint8Array = deflateSync(bytes)): Uint8Array {
	return pngChunk("iCCP", concat(ascii("ICC profile\0"), Uint8Array.of(0), compressed));
}

async function colourOf(bytes: Uint8Array) {
	const inspection: Inspection = await probeImage(memorySource(bytes));
	if (!inspection.ok) throw new Error(`not ok: ${inspection.message}`);
	return inspection.colour;
}

describe("ICC profile facts", () => {
	it("names a matrix-and-curve profile's description, space, class and version, and knows Adobe RGB by its colorants", async () => {
		expect(await profileFactsOf(memoryProfile(rgbProfile()))).toEqual({
			description: "Adobe RGB (1998)",
			colour_space: "RGB",
			device_class: "mntr",
			version: "2.1.0",
			size_bytes: rgbProfile().length,
			kind: "matrix_trc",
			known_space: "adobe_rgb_1998",
		});
	});

	it("reads a v4 multi-language description in US English, else any English, else the first", () => {
		expect(
			descriptionOf(
				mlucTag([
					["de", "DE", "Kompatibel"],
					["en", "GB", "Compatible"],
					["en", "US", "US text"],
				]),
			),
		).toBe("US text");
		expect(
			descriptionOf(
				mlucTag([
					["fr", "FR", "Compatible FR"],
					["en", "GB", "Compatible GB"],
				]),
			),
		).toBe("Compatible GB");
		expect(descriptionOf(mlucTag([["uk", "UA", "Сумісний"]]))).toBe("Сумісний");
	});

	it("drops control characters from a description and cuts it at 200 characters", () => {
		expect(descriptionOf(descTag("Line\u0007one\nand two"))).toBe("Line one and two");
		expect(descriptionOf(descTag("x".repeat(500)))?.length).toBe(200);
	});

	it("an RGB profile with other colorants is matrix-and-curve but no known space", async () => {
		const odd = rgbProfile(descTag("Odd"), [
			[0.5, 0.3, 0.02],
			[0.3, 0.6, 0.1],
			[0.15, 0.1, 0.7],
		]);
		expect(await profileFactsOf(memoryProfile(odd))).toMatchObject({ kind: "matrix_trc", known_space: null });
	});

	it("a tag count that lies is capped by the table's own bytes, and tags pointing past the profile are left out", async () => {
		const lying = profile("RGB", [["desc", descTag("Liar")]], { declaredCount: 4_000_000_000 });
		expect(await profileFactsOf(memoryProfile(lying))).toMatchObject({ description: "Liar", kind: "unreadable" });
		const past = rgbProfile();
		// The desc tag's size is made to run past the profile's end.
		new DataView(past.buffer).setUint32(128 + 4 + 8, 1_000_000);
		expect(await profileFactsOf(memoryProfile(past))).toMatchObject({ description: null, kind: "matrix_trc" });
	});

	it("bytes without the acsp signature read as an unreadable profile, never a fault", async () => {
		expect(await profileFactsOf(memoryProfile(new Uint8Array(300)))).toMatchObject({
			kind: "unreadable",
			colour_space: "",
		});
		expect(parseIccProfile(new Uint8Array(60))).toBeNull();
	});

	it("parses a profile whole for conversion: colorants, white point and each channel's curve", () => {
		const parsed = parseIccProfile(rgbProfile());
		expect(parsed?.colorants?.red[0]).toBeCloseTo(0.6097, 4);
		expect(parsed?.whitePoint?.[2]).toBeCloseTo(0.8249, 4);
		expect(parsed?.rgbCurves?.[0]).toEqual({ kind: "gamma", gamma: 2.19921875 });
		expect(parsed?.hasLuts).toBe(false);
	});
});

describe("colour facts by format", () => {
	it("a JPEG's profile in several APP2 pieces is put together in sequence order, whatever order they come in", async () => {
		const bytes = rgbProfile();
		const colour = await colourOf(
			jpegWithProfile(
				bytes,
				100,
				[3, 1, 4, 2, 5, 6].filter((n) => n <= Math.ceil(bytes.length / 100)),
			),
		);
		expect(colour).toMatchObject({ model: "rgb", tagging: "icc_profile", conversion: "exact" });
		expect(colour?.profile).toMatchObject({ description: "Adobe RGB (1998)", known_space: "adobe_rgb_1998" });
		expect(await readColourProfile("jpeg", memorySource(jpegWithProfile(bytes, 100)))).toEqual(bytes);
	});

	it("a JPEG whose profile pieces miss one, or repeat one, has an unreadable profile and still probes ok", async () => {
		const bytes = rgbProfile();
		const pieces = Math.ceil(bytes.length / 100);
		const missing = Array.from({ length: pieces - 1 }, (_, index) => index + 1);
		expect((await colourOf(jpegWithProfile(bytes, 100, missing, pieces)))?.profile).toMatchObject({
			kind: "unreadable",
		});
		expect((await colourOf(jpegWithProfile(bytes, 100, [1, 1, ...missing.slice(1)], pieces)))?.profile).toMatchObject({
			kind: "unreadable",
		});
		expect(await readColourProfile("jpeg", memorySource(jpegWithProfile(bytes, 100, missing, pieces)))).toBeNull();
	});

	it("a large lookup-table profile costs the facts a few KiB of reads, not the profile's size", async () => {
		const lut = profile("CMYK", [
			["desc", descTag("Press profile")],
			["A2B0", concat(ascii("mft2"), new Uint8Array(300_000))],
		]);
		const source = memorySource(jpegWithProfile(lut, 65_000));
		const inspection = await probeImage(source);
		expect(inspection).toMatchObject({ ok: true, colour: { tagging: "icc_profile", conversion: "approximate" } });
		expect(inspection.ok && inspection.colour?.profile).toMatchObject({ kind: "lut", description: "Press profile" });
		expect(source.bytesRead).toBeLessThan(48 * 1024);
	});

	it("a PNG's iCCP is inflated and read; one that does not inflate is unreadable and the file still probes ok", async () => {
		expect((await colourOf(await pngWith(iccp(rgbProfile()))))?.profile).toMatchObject({
			known_space: "adobe_rgb_1998",
		});
		const broken = await colourOf(await pngWith(iccp(rgbProfile(), Uint8Array.of(0x78, 0x9c, 0xff, 0xff, 0xff))));
		expect(broken).toMatchObject({
			tagging: "icc_profile",
			conversion: "approximate",
			profile: { kind: "unreadable" },
		});
	});

	it("PNG's sRGB chunk is sRGB; gAMA 1/2.2 with sRGB's chromaticities is sRGB; another gamma is converted", async () => {
		expect(await colourOf(await pngWith(pngChunk("sRGB", Uint8Array.of(0))))).toMatchObject({
			tagging: "png_srgb",
			conversion: "none",
			png: { srgb_intent: 0 },
		});
		const chrm = pngChunk("cHRM", concat(...[31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000].map(u32be)));
		expect(await colourOf(await pngWith(pngChunk("gAMA", u32be(45455)), chrm))).toMatchObject({
			tagging: "png_gamma",
			conversion: "none",
		});
		expect(await colourOf(await pngWith(pngChunk("gAMA", u32be(100000))))).toMatchObject({
			tagging: "png_gamma",
			conversion: "exact",
			png: { gamma: 1 },
		});
	});

	it("a repeated sRGB chunk counts once, the first, and the chunks after it still read", async () => {
		const colour = await colourOf(
			await pngWith(
				pngChunk("sRGB", Uint8Array.of(3)),
				pngChunk("sRGB", Uint8Array.of(0)),
				pngChunk("gAMA", u32be(45455)),
			),
		);
		expect(colour?.png).toEqual({ srgb_intent: 3, gamma: 0.45455, chromaticities: null });
	});

	it("a PNG with none of the colour chunks is untagged, read as sRGB; its alpha and depth are named", async () => {
		expect(await colourOf(await buildPng({ width: 32, height: 24, bitDepth: 8, colorType: 6 }))).toEqual({
			model: "rgb",
			bits_per_sample: 8,
			alpha: true,
			tagging: "untagged",
			profile: null,
			png: null,
			exif_colour_space: null,
			conversion: "assumed_srgb",
		});
	});

	it("an iCCP past 256 KiB compressed is not inflated: unreadable", async () => {
		const noise = new Uint8Array(300 * 1024).map((_, index) => (index * 7919) & 255);
		const colour = await colourOf(await pngWith(iccp(rgbProfile(), noise)));
		expect(colour?.profile).toMatchObject({ kind: "unreadable" });
	});
});
