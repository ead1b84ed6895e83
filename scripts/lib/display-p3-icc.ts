/**
 * A Display P3 ICC profile, written from P3's published numbers because no system here ships one: a v4
 * display (`mntr`) matrix-and-curve profile with DCI-P3's primaries, D65 white adapted to the D50 PCS
 * by Bradford (the `chad` tag says so), and sRGB's tone curve as ICC parametric function type 3.
 * Used by scripts/make-colour-fixtures.sh to tag the Display P3 fixture:
 *   node scripts/lib/display-p3-icc.ts out.icc
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import {
	bradford,
	D50,
	type Matrix3,
	type Primaries,
	rgbToD50,
	type Vector3,
	xyzOfChromaticity,
} from "../../src/imaging/colour/chromaticity.ts";

/** Display P3's primaries and white as CIE xy (SMPTE EG 432-1; Apple's Display P3). */
const DISPLAY_P3: Primaries = { red: [0.68, 0.32], green: [0.265, 0.69], blue: [0.15, 0.06], white: [0.3127, 0.329] };

/** The profile's colorants (PCS-relative, D50) and its chromatic adaptation matrix (D65 to D50). */
export function displayP3Colorants(): { red: Vector3; green: Vector3; blue: Vector3; adaptation: Matrix3 } {
	const [x, y, z] = rgbToD50(DISPLAY_P3);
	return {
		red: [x[0], y[0], z[0]],
		green: [x[1], y[1], z[1]],
		blue: [x[2], y[2], z[2]],
		adaptation: bradford(xyzOfChromaticity(DISPLAY_P3.white), D50),
	};
}

/** Writes big-endian ICC fields into a growing list of tags. */
class IccWriter {
	readonly bytes: number[] = [];
	u8(value: number): this {
		this.bytes.push(value & 0xff);
		return this;
	}
	u16(value: number): this {
		return this.u8(value >> 8).u8(value);
	}
	u32(value: number): this {
		return this.u16(value >>> 16).u16(value & 0xffff);
	}
	ascii(text: string): this {
		for (const char of text) this.u8(char.charCodeAt(0));
		return this;
	}
	s15Fixed16(value: number): this {
		return this.u32(Math.round(value * 65536) >>> 0);
	}
	padTo4(): this {
		while (this.bytes.length % 4 !== 0) this.u8(0);
		return this;
	}
}

function mluc(text: string): number[] {
	const tag = new IccWriter()
		.ascii("mluc")
		.u32(0)
		.u32(1)
		.u32(12)
		.ascii("enUS")
		.u32(text.length * 2)
		.u32(28);
	for (const char of text) tag.u16(char.charCodeAt(0));
	return tag.padTo4().bytes;
}

function xyz(value: Vector3): number[] {
	return new IccWriter().ascii("XYZ ").u32(0).s15Fixed16(value[0]).s15Fixed16(value[1]).s15Fixed16(value[2]).bytes;
}

/** sRGB's curve as parametric type 3: Y = (aX + b)^g for X ≥ d, else cX. */
function srgbCurve(): number[] {
	const params = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045];
	const tag = new IccWriter().ascii("para").u32(0).u16(3).u16(0);
	for (const value of params) tag.s15Fixed16(value);
	return tag.bytes;
}

/** The whole profile's bytes. */
export function displayP3Profile(): Uint8Array {
	const { red, green, blue, adaptation } = displayP3Colorants();
	const chad = new IccWriter().ascii("sf32").u32(0);
	for (const row of adaptation) for (const value of row) chad.s15Fixed16(value);
	const curve = srgbCurve();
	const tags: Array<[string, number[]]> = [
		["desc", mluc("Display P3")],
		["cprt", mluc("No copyright, use freely")],
		["wtpt", xyz(D50)],
		["chad", chad.bytes],
		["rXYZ", xyz(red)],
		["gXYZ", xyz(green)],
		["bXYZ", xyz(blue)],
		["rTRC", curve],
		["gTRC", curve],
		["bTRC", curve],
	];
	const tableSize = 4 + tags.length * 12;
	const offsets: number[] = [];
	const data = new IccWriter();
	const seen = new Map<number[], number>();
	for (const [, body] of tags) {
		// The three curves share one body, as profiles usually have them.
		const known = seen.get(body);
		if (known !== undefined) {
			offsets.push(known);
			continue;
		}
		const at = 128 + tableSize + data.bytes.length;
		seen.set(body, at);
		offsets.push(at);
		data.bytes.push(...body);
		data.padTo4();
	}
	const size = 128 + tableSize + data.bytes.length;
	const header = new IccWriter()
		.u32(size)
		.ascii("lcms")
		.u32(0x04400000)
		.ascii("mntr")
		.ascii("RGB ")
		.ascii("XYZ ")
		.u16(2024)
		.u16(1)
		.u16(1)
		.u16(0)
		.u16(0)
		.u16(0)
		.ascii("acsp")
		.ascii("APPL")
		// flags, device manufacturer, model, attributes (8 bytes), rendering intent (perceptual)
		.u32(0)
		.u32(0)
		.u32(0)
		.u32(0)
		.u32(0)
		.u32(0)
		.s15Fixed16(D50[0])
		.s15Fixed16(D50[1])
		.s15Fixed16(D50[2])
		.u32(0);
	while (header.bytes.length < 128) header.u8(0);
	const table = new IccWriter().u32(tags.length);
	tags.forEach(([signature, body], index) => {
		table
			.ascii(signature)
			.u32(offsets[index] ?? 0)
			.u32(body.length);
	});
	return Uint8Array.from([...header.bytes, ...table.bytes, ...data.bytes]);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
	const target = process.argv[2];
	if (target === undefined) {
		console.error("usage: node scripts/lib/display-p3-icc.ts out.icc");
		process.exit(2);
	}
	writeFileSync(target, displayP3Profile());
}
