/**
 * TIFF's LZW (MSB-first codes of 9 to 12 bits, "early change"), decoded piece by piece so a strip
 * of any size streams: `push` takes compressed bytes and returns what they decode to.
 */
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
	#out = new Uint8Array(64 * 1024);
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

	/**
	 * The bytes `input` decodes to; throws a RangeError on a code that cannot occur. The result is a
	 * view of a buffer the next call reuses: copy what must outlive it.
	 */
	push(input: Uint8Array): Uint8Array {
		this.#filled = 0;
		for (let i = 0; i < input.length && !this.#ended; i++) {
			this.#bits = ((this.#bits << 8) | (input[i] ?? 0)) & 0xffffff;
			this.#bitCount += 8;
			while (this.#bitCount >= this.#width && !this.#ended) {
				const code = (this.#bits >>> (this.#bitCount - this.#width)) & ((1 << this.#width) - 1);
				this.#bitCount -= this.#width;
				this.#take(code);
			}
		}
		return this.#out.subarray(0, this.#filled);
	}

	/** Room for `count` more output bytes. */
	#reserve(count: number): void {
		if (this.#filled + count <= this.#out.length) return;
		const grown = new Uint8Array(Math.max(this.#out.length * 2, this.#filled + count));
		grown.set(this.#out.subarray(0, this.#filled));
		this.#out = grown;
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
			this.#reserve(1);
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
			this.#reserve(1);
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
		this.#reserve(length);
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
	#out = new Uint8Array(64 * 1024);

	/** The bytes `input` decodes to. */
	push(input: Uint8Array): Uint8Array {
		// Each input byte yields at most 128 bytes.
		if (this.#out.length < input.length * 128) this.#out = new Uint8Array(input.length * 128);
		const out = this.#out;
		let filled = 0;
		for (let i = 0; i < input.length; i++) {
			const byte = input[i] ?? 0;
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
