/**
 * A Display P3 ICC profile, written from P3's published numbers because no system here ships one: a v4
 * display (`mntr`) matrix-and-curve profile with DCI-P3's primaries, D65 white adapted to the D50 PCS
 * by Bradford (the `chad` tag says so), and sRGB's tone curve as ICC parametric function type 3.
 * Used by scripts/make-colour-fixtures.sh to tag the Display P3 fixture:
 *   node scripts/lib/display-p3-icc.ts out.icc
 */
import { writeFileSync } from "node:fs";
import path from "node:path";

type Vector = [number, number, number];
type Matrix = [Vector, Vector, Vector];

/** CIE xy of Display P3's primaries and white (SMPTE EG 432-1; Apple's Display P3). */
const P3 = { red: [0.68, 0.32], green: [0.265, 0.69], blue: [0.15, 0.06], white: [0.3127, 0.329] } as const;
/** The ICC PCS illuminant (D50) as the header and the v4 `wtpt` carry it. */
const D50: Vector = [0.9642, 1, 0.8249];
const BRADFORD: Matrix = [
	[0.8951, 0.2664, -0.1614],
	[-0.7502, 1.7135, 0.0367],
	[0.0389, -0.0685, 1.0296],
];

function multiply(a: Matrix, b: Matrix): Matrix {
	const [b0, b1, b2] = b;
	const row = ([x, y, z]: Vector): Vector => [
		x * b0[0] + y * b1[0] + z * b2[0],
		x * b0[1] + y * b1[1] + z * b2[1],
		x * b0[2] + y * b1[2] + z * b2[2],
	];
	return [row(a[0]), row(a[1]), row(a[2])];
}

function apply(m: Matrix, v: Vector): Vector {
	return [
		m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
		m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
		m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
	];
}

function invert(m: Matrix): Matrix {
	const [[a, b, c], [d, e, f], [g, h, i]] = m;
	const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
	return [
		[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
		[(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
		[(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
	];
}

function xyToXyz([x, y]: readonly [number, number]): Vector {
	return [x / y, 1, (1 - x - y) / y];
}

/** Bradford's adaptation from white `from` to white `to`, both as XYZ. */
function bradford(from: Vector, to: Vector): Matrix {
	const source = apply(BRADFORD, from);
	const target = apply(BRADFORD, to);
	const scale: Matrix = [
		[target[0] / source[0], 0, 0],
		[0, target[1] / source[1], 0],
		[0, 0, target[2] / source[2]],
	];
	return multiply(invert(BRADFORD), multiply(scale, BRADFORD));
}

/** The profile's colorants (PCS-relative, D50) and its chromatic adaptation matrix. */
export function displayP3Colorants(): { red: Vector; green: Vector; blue: Vector; adaptation: Matrix } {
	const [red, green, blue] = [xyToXyz(P3.red), xyToXyz(P3.green), xyToXyz(P3.blue)];
	const white = xyToXyz(P3.white);
	const columns: Matrix = [
		[red[0], green[0], blue[0]],
		[red[1], green[1], blue[1]],
		[red[2], green[2], blue[2]],
	];
	const scale = apply(invert(columns), white);
	const adaptation = bradford(white, D50);
	const colorant = (primary: Vector, weight: number): Vector =>
		apply(adaptation, [primary[0] * weight, primary[1] * weight, primary[2] * weight]);
	return {
		red: colorant(red, scale[0]),
		green: colorant(green, scale[1]),
		blue: colorant(blue, scale[2]),
		adaptation,
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

function xyz(value: Vector): number[] {
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
