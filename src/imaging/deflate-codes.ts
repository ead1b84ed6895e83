/**
 * Deflate's fixed codes (RFC 1951): the length and distance symbols' extra bits and bases, the order of
 * a dynamic block's code-length code, canonical Huffman tables, and zlib's Adler-32 check. Pure tables
 * and functions for the inflater (inflate.ts), which paces the stream.
 */
import { ImageFault } from "./fault.ts";

/** Extra bits of length symbols 257 to 285: none for the first 8, then one more every 4; 258 has none. */
export const LENGTH_EXTRA = Uint8Array.from({ length: 29 }, (_, index) =>
	index < 8 || index === 28 ? 0 : (index >> 2) - 1,
);
/** Their shortest lengths: each starts where the one before ends; 285 is 258 alone. */
export const LENGTH_BASE = bases(LENGTH_EXTRA, 3);
LENGTH_BASE[28] = 258;
/** Extra bits of distance symbols 0 to 29: none for the first 4, then one more every 2. */
export const DISTANCE_EXTRA = Uint8Array.from({ length: 30 }, (_, index) => (index < 4 ? 0 : (index >> 1) - 1));
export const DISTANCE_BASE = bases(DISTANCE_EXTRA, 1);

/** The smallest value of each symbol, when each covers 2^extra values from `first` on. */
function bases(extra: Uint8Array, first: number): Uint16Array {
	const base = new Uint16Array(extra.length);
	let value = first;
	for (const [index, bits] of extra.entries()) {
		base[index] = value;
		value += 1 << bits;
	}
	return base;
}

/** The order a dynamic block lists its code-length code's lengths in. */
export const CODE_LENGTH_ORDER = Uint8Array.of(16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15);

/** The error of damaged or truncated compressed data. */
export function corrupt(): ImageFault {
	return new ImageFault("corrupt_data", "The compressed data is damaged or cut short.");
}

/**
 * Fills `table` for a canonical Huffman code given by its symbols' bit lengths: entry `bits` (the next
 * `maxBits` bits of the stream, first bit lowest) is `symbol << 4 | length`, 0 where no code fits.
 * Returns `maxBits`. An over-full code is corrupt; an incomplete one decodes until a missing code is met.
 */
export function buildTable(lengths: Uint8Array, count: number, table: Int32Array): number {
	const perLength = new Uint16Array(16);
	let maxBits = 1;
	for (let symbol = 0; symbol < count; symbol++) {
		const length = lengths[symbol] ?? 0;
		perLength[length] = (perLength[length] ?? 0) + 1;
		if (length > maxBits) maxBits = length;
	}
	perLength[0] = 0;
	const next = new Uint16Array(16);
	let left = 1;
	let code = 0;
	for (let length = 1; length < 16; length++) {
		left = left * 2 - (perLength[length] ?? 0);
		if (left < 0) throw corrupt();
		code = (code + (perLength[length - 1] ?? 0)) << 1;
		next[length] = code;
	}
	const size = 1 << maxBits;
	table.fill(0, 0, size);
	for (let symbol = 0; symbol < count; symbol++) {
		const length = lengths[symbol] ?? 0;
		if (length === 0) continue;
		const value = next[length] ?? 0;
		next[length] = value + 1;
		// Codes are sent first bit first, so the table is indexed by the code reversed.
		let reversed = 0;
		for (let bit = 0; bit < length; bit++) reversed |= ((value >> bit) & 1) << (length - 1 - bit);
		const entry = (symbol << 4) | length;
		for (let at = reversed; at < size; at += 1 << length) table[at] = entry;
	}
	return maxBits;
}

export const FIXED_LITERALS = new Int32Array(1 << 9);
export const FIXED_DISTANCES = new Int32Array(1 << 5);
export const FIXED_LITERAL_BITS = buildTable(
	Uint8Array.from({ length: 288 }, (_, symbol) => (symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8)),
	288,
	FIXED_LITERALS,
);
export const FIXED_DISTANCE_BITS = buildTable(new Uint8Array(30).fill(5), 30, FIXED_DISTANCES);

/** Adler-32 of `bytes` continued from `adler`. */
export function adler32(adler: number, bytes: Uint8Array, from: number, to: number): number {
	let a = adler & 0xffff;
	let b = adler >>> 16;
	for (let at = from; at < to; ) {
		const end = Math.min(to, at + 5552);
		for (; at < end; at++) {
			a += bytes[at] ?? 0;
			b += a;
		}
		a %= 65521;
		b %= 65521;
	}
	return ((b << 16) | a) >>> 0;
}
