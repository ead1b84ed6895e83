/**
 * zlib data (PNG's IDAT, a Deflate TIFF strip or tile) inflated in bounded memory, paced by its
 * consumer: `inflate` hands out at most INFLATE_PIECE_BYTES at a time and makes nothing more until
 * that piece is taken, whatever the data's ratio. The runtime's DecompressionStream is not used: in
 * workerd it accepts input without waiting for its output to be read, so data that inflates a
 * thousandfold (a smooth gradient) piled up there as the whole image.
 */
import {
	adler32,
	buildTable,
	CODE_LENGTH_ORDER,
	corrupt,
	DISTANCE_BASE,
	DISTANCE_EXTRA,
	FIXED_DISTANCE_BITS,
	FIXED_DISTANCES,
	FIXED_LITERAL_BITS,
	FIXED_LITERALS,
	LENGTH_BASE,
	LENGTH_EXTRA,
} from "./deflate-codes.ts";

/** Most bytes handed out at a time; nothing more is inflated until they are taken. */
export const INFLATE_PIECE_BYTES = 64 * 1024;
/** How far back a match may reach: deflate's window. */
const WINDOW = 32 * 1024;
/** The longest match: the buffer's slack, so a match never has to stop half-way. */
const MAX_MATCH = 258;
/**
 * Compressed bytes kept ahead of the decoder while the stream goes on: more than any one step reads (a
 * dynamic block's header is at most 600 bytes; a match, 6), so a step never waits for input half-way.
 */
const INPUT_AHEAD = 1024;
/** What the inflater holds besides its input: the window and a piece, and the two code tables. */
export const INFLATE_BUFFER_BYTES = WINDOW + INFLATE_PIECE_BYTES + MAX_MATCH + 2 * 4 * (1 << 15);

/** Where the inflater is in the stream. */
const Mode = { ZlibHeader: 0, BlockHeader: 1, Stored: 2, Codes: 3, Trailer: 4, Done: 5 } as const;
type Mode = (typeof Mode)[keyof typeof Mode];

/**
 * A zlib stream's inflater that works in steps: `push` the compressed pieces as `needsInput` asks,
 * `end` when there are no more, and take each `step`'s output before the next (it is a view of the
 * window, which the next step moves). Holds INFLATE_BUFFER_BYTES and the compressed input not yet read.
 */
class Inflater {
	#input: Uint8Array = new Uint8Array(0);
	/** Next unread byte of `#input`. */
	#at = 0;
	#inputEnded = false;
	/** Bits read from the input and not yet used, the first in the lowest bit. */
	#hold = 0;
	#bits = 0;
	/** The window: the last 32 KiB handed out, then the bytes of the piece being made. */
	readonly #out = new Uint8Array(WINDOW + INFLATE_PIECE_BYTES + MAX_MATCH);
	#position = 0;
	#mode: Mode = Mode.ZlibHeader;
	#finalBlock = false;
	#storedLeft = 0;
	#literals: Int32Array = FIXED_LITERALS;
	#literalBits = FIXED_LITERAL_BITS;
	#distances: Int32Array = FIXED_DISTANCES;
	#distanceBits = FIXED_DISTANCE_BITS;
	#dynamicLiterals: Int32Array | null = null;
	#dynamicDistances: Int32Array | null = null;
	/** The Adler-32 of the bytes made so far, and the one the stream's trailer states. */
	#adler = 1;
	#stated = 0;

	/** Whether the stream's end (its checksum checked) has been reached. */
	get done(): boolean {
		return this.#mode === Mode.Done;
	}

	/** Whether the next step needs more compressed bytes than it has (always false once `end` was called). */
	get needsInput(): boolean {
		return !this.#inputEnded && this.#mode !== Mode.Done && this.#input.length - this.#at < INPUT_AHEAD;
	}

	/** Adds compressed bytes after those not yet read; a view of `piece` is kept until it is read, so it must not change. */
	push(piece: Uint8Array): void {
		const left = this.#input.length - this.#at;
		if (left <= 0) {
			this.#input = piece;
		} else {
			const joined = new Uint8Array(left + piece.length);
			joined.set(this.#input.subarray(this.#at));
			joined.set(piece, left);
			this.#input = joined;
		}
		this.#at = 0;
	}

	/** There is no more compressed input: a stream that needs more is cut short. */
	end(): void {
		this.#inputEnded = true;
	}

	/**
	 * Inflates until a piece is made (at most INFLATE_PIECE_BYTES, the first up to 32 KiB more), the
	 * input runs low, or the stream ends; returns the bytes made, which stay valid until the next step.
	 */
	step(): Uint8Array {
		if (this.#position >= WINDOW + INFLATE_PIECE_BYTES) {
			// The last piece was taken: keep its last 32 KiB as the window.
			this.#out.copyWithin(0, this.#position - WINDOW, this.#position);
			this.#position = WINDOW;
		}
		const from = this.#position;
		while (this.#mode !== Mode.Done && this.#position < WINDOW + INFLATE_PIECE_BYTES && !this.needsInput) {
			if (this.#mode === Mode.Codes) this.#codes();
			else if (this.#mode === Mode.Stored) this.#stored();
			else if (this.#mode === Mode.BlockHeader) this.#blockHeader();
			else if (this.#mode === Mode.ZlibHeader) this.#zlibHeader();
			else this.#trailer();
		}
		// Whole bytes read ahead go back to the input, so what is left of it is exact.
		this.#at -= this.#bits >> 3;
		this.#bits &= 7;
		this.#hold &= (1 << this.#bits) - 1;
		if (this.#at > this.#input.length) throw corrupt();
		this.#adler = adler32(this.#adler, this.#out, from, this.#position);
		if (this.#mode === Mode.Done && this.#adler !== this.#stated) throw corrupt();
		return this.#out.subarray(from, this.#position);
	}

	/** Reads `count` bits (at most 16), past the input's end as zeros (a step's end finds the overrun). */
	#take(count: number): number {
		while (this.#bits < count) {
			this.#hold |= (this.#input[this.#at++] ?? 0) << this.#bits;
			this.#bits += 8;
		}
		const value = this.#hold & ((1 << count) - 1);
		this.#hold >>= count;
		this.#bits -= count;
		return value;
	}

	/** Drops the bits up to the next byte boundary and gives the whole bytes read ahead back to the input. */
	#align(): void {
		this.#at -= this.#bits >> 3;
		this.#hold = 0;
		this.#bits = 0;
	}

	#zlibHeader(): void {
		const method = this.#take(8);
		const flags = this.#take(8);
		// Deflate, a window of at most 32 KiB, the check bits right, no preset dictionary.
		if ((method & 15) !== 8 || method >> 4 > 7 || ((method << 8) | flags) % 31 !== 0 || (flags & 32) !== 0) {
			throw corrupt();
		}
		this.#mode = Mode.BlockHeader;
	}

	#blockHeader(): void {
		this.#finalBlock = this.#take(1) === 1;
		const type = this.#take(2);
		if (type === 0) {
			this.#align();
			const input = this.#input;
			const at = this.#at;
			if (at + 4 > input.length) throw corrupt();
			const length = (input[at] ?? 0) | ((input[at + 1] ?? 0) << 8);
			const check = (input[at + 2] ?? 0) | ((input[at + 3] ?? 0) << 8);
			if ((length ^ 0xffff) !== check) throw corrupt();
			this.#at = at + 4;
			this.#storedLeft = length;
			this.#mode = Mode.Stored;
		} else if (type === 1) {
			this.#literals = FIXED_LITERALS;
			this.#literalBits = FIXED_LITERAL_BITS;
			this.#distances = FIXED_DISTANCES;
			this.#distanceBits = FIXED_DISTANCE_BITS;
			this.#mode = Mode.Codes;
		} else if (type === 2) {
			this.#dynamicTables();
			this.#mode = Mode.Codes;
		} else {
			throw corrupt();
		}
	}

	/** A dynamic block's code lengths, sent with a code of their own, made into its two tables. */
	#dynamicTables(): void {
		const literalCount = this.#take(5) + 257;
		const distanceCount = this.#take(5) + 1;
		const lengthCodes = this.#take(4) + 4;
		if (literalCount > 286 || distanceCount > 30) throw corrupt();
		const codeLengths = new Uint8Array(19);
		for (let index = 0; index < lengthCodes; index++) codeLengths[CODE_LENGTH_ORDER[index] ?? 0] = this.#take(3);
		const lengthTable = new Int32Array(1 << 7);
		const lengthBits = buildTable(codeLengths, 19, lengthTable);
		const lengths = new Uint8Array(literalCount + distanceCount);
		for (let index = 0; index < lengths.length; ) {
			const entry = this.#peekSymbol(lengthTable, lengthBits);
			const symbol = entry >> 4;
			if (symbol < 16) {
				lengths[index++] = symbol;
				continue;
			}
			let repeat: number;
			let value = 0;
			if (symbol === 16) {
				if (index === 0) throw corrupt();
				value = lengths[index - 1] ?? 0;
				repeat = 3 + this.#take(2);
			} else if (symbol === 17) {
				repeat = 3 + this.#take(3);
			} else {
				repeat = 11 + this.#take(7);
			}
			if (index + repeat > lengths.length) throw corrupt();
			lengths.fill(value, index, index + repeat);
			index += repeat;
		}
		// A block without an end-of-block code could never end.
		if ((lengths[256] ?? 0) === 0) throw corrupt();
		this.#dynamicLiterals ??= new Int32Array(1 << 15);
		this.#dynamicDistances ??= new Int32Array(1 << 15);
		this.#literals = this.#dynamicLiterals;
		this.#distances = this.#dynamicDistances;
		this.#literalBits = buildTable(lengths, literalCount, this.#literals);
		this.#distanceBits = buildTable(lengths.subarray(literalCount), distanceCount, this.#distances);
	}

	/** The next symbol's table entry, its bits used. */
	#peekSymbol(table: Int32Array, tableBits: number): number {
		while (this.#bits < tableBits) {
			this.#hold |= (this.#input[this.#at++] ?? 0) << this.#bits;
			this.#bits += 8;
		}
		const entry = table[this.#hold & ((1 << tableBits) - 1)] ?? 0;
		const length = entry & 15;
		if (length === 0) throw corrupt();
		this.#hold >>= length;
		this.#bits -= length;
		return entry;
	}

	#stored(): void {
		const count = Math.min(
			this.#storedLeft,
			this.#input.length - this.#at,
			WINDOW + INFLATE_PIECE_BYTES - this.#position,
		);
		if (count <= 0) {
			if (this.#storedLeft > 0) throw corrupt();
		} else {
			this.#out.set(this.#input.subarray(this.#at, this.#at + count), this.#position);
			this.#at += count;
			this.#position += count;
			this.#storedLeft -= count;
		}
		if (this.#storedLeft === 0) this.#mode = this.#finalBlock ? Mode.Trailer : Mode.BlockHeader;
	}

	/**
	 * A Huffman-coded block's symbols, until its end, a full piece, or the input running low. (The state
	 * lives in locals meanwhile; after a throw the inflater is not used again.)
	 */
	#codes(): void {
		const input = this.#input;
		const out = this.#out;
		const literals = this.#literals;
		const literalMask = (1 << this.#literalBits) - 1;
		const distances = this.#distances;
		const distanceMask = (1 << this.#distanceBits) - 1;
		// Stops with room for a whole match, and with INPUT_AHEAD bytes still there while the input goes on.
		const outEnd = WINDOW + INFLATE_PIECE_BYTES;
		const inputEnd = this.#inputEnded ? 0x7fffffff : input.length - INPUT_AHEAD;
		// `hold` stays under 2^23 (at most 22 bits), so `>>` is exact and keeps it a small integer.
		let hold = this.#hold;
		let bits = this.#bits;
		let at = this.#at;
		let position = this.#position;
		while (position < outEnd && at <= inputEnd) {
			while (bits < 15) {
				hold |= (input[at++] ?? 0) << bits;
				bits += 8;
			}
			let entry = literals[hold & literalMask] ?? 0;
			let length = entry & 15;
			if (length === 0) throw corrupt();
			hold >>= length;
			bits -= length;
			let symbol = entry >> 4;
			if (symbol < 256) {
				out[position++] = symbol;
				continue;
			}
			if (symbol === 256) {
				this.#mode = this.#finalBlock ? Mode.Trailer : Mode.BlockHeader;
				break;
			}
			symbol -= 257;
			if (symbol >= 29) throw corrupt();
			let extra = LENGTH_EXTRA[symbol] ?? 0;
			let matchLength = LENGTH_BASE[symbol] ?? 0;
			if (extra > 0) {
				while (bits < extra) {
					hold |= (input[at++] ?? 0) << bits;
					bits += 8;
				}
				matchLength += hold & ((1 << extra) - 1);
				hold >>= extra;
				bits -= extra;
			}
			while (bits < 15) {
				hold |= (input[at++] ?? 0) << bits;
				bits += 8;
			}
			entry = distances[hold & distanceMask] ?? 0;
			length = entry & 15;
			if (length === 0) throw corrupt();
			hold >>= length;
			bits -= length;
			symbol = entry >> 4;
			if (symbol >= 30) throw corrupt();
			extra = DISTANCE_EXTRA[symbol] ?? 0;
			let distance = DISTANCE_BASE[symbol] ?? 0;
			if (extra > 0) {
				while (bits < extra) {
					hold |= (input[at++] ?? 0) << bits;
					bits += 8;
				}
				distance += hold & ((1 << extra) - 1);
				hold >>= extra;
				bits -= extra;
			}
			// Further back than anything inflated so far.
			if (distance > position) throw corrupt();
			let from = position - distance;
			const end = position + matchLength;
			if (distance === 1) {
				out.fill(out[from] ?? 0, position, end);
				position = end;
			} else if (distance >= matchLength && matchLength > 32) {
				out.copyWithin(position, from, from + matchLength);
				position = end;
			} else {
				while (position < end) out[position++] = out[from++] ?? 0;
			}
		}
		this.#hold = hold;
		this.#bits = bits;
		this.#at = at;
		this.#position = position;
	}

	#trailer(): void {
		this.#align();
		const input = this.#input;
		const at = this.#at;
		if (at + 4 > input.length) throw corrupt();
		// Compared at the end of the step, once its bytes are in the checksum.
		this.#stated = new DataView(input.buffer, input.byteOffset + at, 4).getUint32(0);
		this.#at = at + 4;
		this.#mode = Mode.Done;
	}
}

/**
 * Inflates zlib data as it arrives, at most INFLATE_PIECE_BYTES at a time (each piece valid until the
 * next is asked for): compressed pieces are pulled only as the output is taken, so memory stays
 * INFLATE_BUFFER_BYTES and one compressed piece whatever the ratio. Stops once `expected` bytes came
 * out, when the stream does not end right there (the rest of a longer stream is not read).
 */
export async function* inflate(compressed: AsyncIterable<Uint8Array>, expected: number): AsyncGenerator<Uint8Array> {
	const pieces = compressed[Symbol.asyncIterator]();
	const inflater = new Inflater();
	let given = 0;
	for (;;) {
		while (inflater.needsInput) {
			const next = await pieces.next();
			if (next.done === true) inflater.end();
			else inflater.push(next.value);
		}
		const made = inflater.step();
		if (given < expected) {
			const kept = made.subarray(0, expected - given);
			given += kept.length;
			if (kept.length > 0) yield kept;
		} else if (made.length > 0) {
			// More than the image needs: ignored.
			return;
		}
		if (inflater.done) return;
	}
}
