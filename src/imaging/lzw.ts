/**
 * TIFF's LZW (MSB-first codes of 9 to 12 bits, "early change") and PackBits, decoded piece by piece so
 * a strip of any size streams, paced by the consumer: `push` hands over compressed bytes, and each
 * `next` returns at most about CODED_PIECE_BYTES of what they decode to (empty once they are used up),
 * so data that expands a thousandfold never turns into a large buffer at once.
 */

/** Most bytes `next` returns at once (LZW may add one string of up to 4 KiB, PackBits one run of 128). */
export const CODED_PIECE_BYTES = 64 * 1024;

/** LZW's longest string: a table of 4096 codes, each one byte longer than the one before at most. */
const LONGEST_STRING = 4096;

export class LzwDecoder {
	static readonly #CLEAR = 256;
	static readonly #END = 257;
	readonly #prefix = new Int32Array(4096);
	readonly #suffix = new Uint8Array(4096);
	readonly #firstByte = new Uint8Array(4096);
	readonly #length = new Uint16Array(4096);
	#nextCode = 258;
	#width = 9;
	#previous = -1;
	#bits = 0;
	#bitCount = 0;
	#ended = false;
	#input: Uint8Array = new Uint8Array(0);
	#at = 0;
	readonly #out = new Uint8Array(CODED_PIECE_BYTES + LONGEST_STRING + 1);
	#filled = 0;

	constructor() {
		for (let code = 0; code < 256; code++) {
			this.#suffix[code] = code;
			this.#firstByte[code] = code;
			this.#length[code] = 1;
			this.#prefix[code] = -1;
		}
	}

	/** Whether the end-of-information code was read (anything after it is ignored). */
	get ended(): boolean {
		return this.#ended;
	}

	/** The next compressed bytes, once `next` has used up the ones before (it returns empty then). */
	push(input: Uint8Array): void {
		this.#input = input;
		this.#at = 0;
	}

	/**
	 * Up to CODED_PIECE_BYTES (and one string) of what the pushed bytes decode to; empty once they are
	 * used up or the end code was read. Throws a RangeError on a code that cannot occur. The result is a
	 * view of a buffer the next call reuses: copy what must outlive it.
	 */
	next(): Uint8Array {
		this.#filled = 0;
		const input = this.#input;
		while (!this.#ended && this.#filled < CODED_PIECE_BYTES) {
			if (this.#bitCount < this.#width) {
				if (this.#at >= input.length) break;
				this.#bits = ((this.#bits << 8) | (input[this.#at++] ?? 0)) & 0xffffff;
				this.#bitCount += 8;
				continue;
			}
			const code = (this.#bits >>> (this.#bitCount - this.#width)) & ((1 << this.#width) - 1);
			this.#bitCount -= this.#width;
			this.#take(code);
		}
		return this.#out.subarray(0, this.#filled);
	}

	#take(code: number): void {
		if (code === LzwDecoder.#CLEAR) {
			this.#nextCode = 258;
			this.#width = 9;
			this.#previous = -1;
			return;
		}
		if (code === LzwDecoder.#END) {
			this.#ended = true;
			return;
		}
		const previous = this.#previous;
		if (previous === -1) {
			if (code > 255) throw new RangeError(`LZW code ${code} right after a clear`);
			this.#out[this.#filled++] = code;
			this.#previous = code;
			return;
		}
		let first: number;
		if (code < this.#nextCode) {
			first = this.#firstByte[code] ?? 0;
			this.#emit(code);
		} else if (code === this.#nextCode) {
			first = this.#firstByte[previous] ?? 0;
			this.#emit(previous);
			this.#out[this.#filled++] = first;
		} else {
			throw new RangeError(`LZW code ${code} beyond the table (${this.#nextCode})`);
		}
		if (this.#nextCode < 4096) {
			const added = this.#nextCode++;
			this.#prefix[added] = previous;
			this.#suffix[added] = first;
			this.#firstByte[added] = this.#firstByte[previous] ?? 0;
			this.#length[added] = (this.#length[previous] ?? 0) + 1;
		}
		// Early change: the width grows one code before the table fills it.
		if (this.#nextCode + 1 >= 1 << this.#width && this.#width < 12) this.#width++;
		this.#previous = code;
	}

	#emit(code: number): void {
		const length = this.#length[code] ?? 0;
		// The string is written back to front by walking its prefixes.
		let at = this.#filled + length;
		let walk = code;
		while (walk >= 0 && at > this.#filled) {
			this.#out[--at] = this.#suffix[walk] ?? 0;
			walk = this.#prefix[walk] ?? -1;
		}
		this.#filled += length;
	}
}

/** PackBits (TIFF compression 32773), decoded piece by piece like LzwDecoder (its result is reused likewise). */
export class PackBitsDecoder {
	/** Literal bytes still to copy, or the count of a run waiting for its byte (as a negative number). */
	#pending = 0;
	#input: Uint8Array = new Uint8Array(0);
	#at = 0;
	readonly #out = new Uint8Array(CODED_PIECE_BYTES + 128);

	/** The next compressed bytes, once `next` has used up the ones before. */
	push(input: Uint8Array): void {
		this.#input = input;
		this.#at = 0;
	}

	/** Up to CODED_PIECE_BYTES (and one run) of what the pushed bytes decode to; empty once they are used up. */
	next(): Uint8Array {
		const input = this.#input;
		const out = this.#out;
		let filled = 0;
		while (this.#at < input.length && filled < CODED_PIECE_BYTES) {
			const byte = input[this.#at++] ?? 0;
			if (this.#pending > 0) {
				out[filled++] = byte;
				this.#pending--;
			} else if (this.#pending < 0) {
				out.fill(byte, filled, filled - this.#pending);
				filled -= this.#pending;
				this.#pending = 0;
			} else {
				const header = byte > 127 ? byte - 256 : byte;
				if (header >= 0) this.#pending = header + 1;
				else if (header !== -128) this.#pending = header - 1;
			}
		}
		return out.subarray(0, filled);
	}
}
