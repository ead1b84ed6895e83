/**
 * JPEG's entropy-coded data: a bit reader over a ByteCursor's window, and the Huffman tables it
 * decodes with.
 */
import { ImageFault } from "../fault.ts";
import type { ByteCursor } from "../reader.ts";

/**
 * Thrown by the bit reader should the window run out while the file goes on. The scan walker makes
 * more than an MCU's largest coding available before each one, so this is a bug, never a file's fault.
 */
class WindowExhausted extends Error {
	constructor() {
		super("The read window is used up inside an MCU");
		this.name = "WindowExhausted";
	}
}

const WINDOW_EXHAUSTED = new WindowExhausted();

/**
 * Reads entropy-coded bits out of a ByteCursor's window: 0xFF 0x00 is a data 0xFF, and a marker stops
 * the data (zeros are fed after it, counted as `phantom` bytes so that using them is an error).
 */
export class BitReader {
	readonly reader: ByteCursor;
	/** Up to 32 bits, the newest in the low end; only the low `count` bits are unread. */
	bits = 0;
	count = 0;
	/** Zero bytes fed after a marker or the file's end; any of them consumed means the data ran out. */
	phantom = 0;

	constructor(reader: ByteCursor) {
		this.reader = reader;
	}

	/** Forgets the buffered bits, as at a restart marker (the encoder padded to a byte boundary). */
	reset(): void {
		this.bits = 0;
		this.count = 0;
		this.phantom = 0;
	}

	/** Whether bits fed after the data's end were consumed: the data was cut short. */
	get overran(): boolean {
		return this.count < this.phantom * 8;
	}

	/** Tops the buffer up to at least 25 bits. */
	fill(): void {
		const reader = this.reader;
		while (this.count <= 24) {
			let byte = 0;
			if (this.phantom > 0) {
				this.phantom++;
			} else if (reader.position >= reader.window.length) {
				if (!reader.atFileEnd) throw WINDOW_EXHAUSTED;
				this.phantom++;
			} else {
				byte = reader.window[reader.position] ?? 0;
				if (byte === 0xff) {
					if (reader.position + 1 >= reader.window.length && !reader.atFileEnd) throw WINDOW_EXHAUSTED;
					const next = reader.window[reader.position + 1];
					if (next === 0x00) {
						reader.position += 2;
					} else {
						// A marker (or the file's end): leave it for the caller and feed zeros.
						byte = 0;
						this.phantom++;
					}
				} else {
					reader.position++;
				}
			}
			this.bits = (this.bits << 8) | byte;
			this.count += 8;
		}
	}

	/** The next `length` bits (at most 16) as an unsigned number. */
	receive(length: number): number {
		if (length === 0) return 0;
		if (this.count < length) this.fill();
		this.count -= length;
		return (this.bits >>> this.count) & ((1 << length) - 1);
	}

	/** Skips `length` bits (at most 16). */
	skipBits(length: number): void {
		if (this.count < length) this.fill();
		this.count -= length;
	}

	/** A `length`-bit magnitude as the signed value JPEG's EXTEND gives it. */
	receiveExtended(length: number): number {
		if (length === 0) return 0;
		const value = this.receive(length);
		return value < 1 << (length - 1) ? value - (1 << length) + 1 : value;
	}

	/** One Huffman-coded symbol. */
	decode(table: HuffmanTable): number {
		if (this.count < 16) this.fill();
		const entry = table.lookup[(this.bits >>> (this.count - LOOKUP_BITS)) & LOOKUP_MASK] ?? 0;
		if (entry !== 0) {
			this.count -= entry >> 8;
			return entry & 0xff;
		}
		for (let length = LOOKUP_BITS + 1; length <= 16; length++) {
			const code = (this.bits >>> (this.count - length)) & ((1 << length) - 1);
			const max = table.maxCode[length] ?? -1;
			if (code <= max) {
				this.count -= length;
				const index = (table.valueOffset[length] ?? 0) + code;
				return table.values[index] ?? 0;
			}
		}
		throw new ImageFault("corrupt_data", "The JPEG's image data holds a code its Huffman table does not have.");
	}
}

const LOOKUP_BITS = 9;
const LOOKUP_MASK = (1 << LOOKUP_BITS) - 1;

/** A Huffman table: codes up to 9 bits by one lookup, longer ones by the canonical code ranges. */
export type HuffmanTable = {
	/** (length << 8 | symbol) for each 9-bit prefix of a short code, 0 elsewhere. */
	lookup: Uint16Array;
	/** Per code length, the largest code (-1 when none) and the offset to add to a code for its value's index. */
	maxCode: Int32Array;
	valueOffset: Int32Array;
	values: Uint8Array;
};

/** Builds a table from DHT's 16 code counts and its symbols; a table whose codes overflow is corrupt. */
export function huffmanTable(counts: Uint8Array, values: Uint8Array): HuffmanTable {
	const lookup = new Uint16Array(1 << LOOKUP_BITS);
	const maxCode = new Int32Array(17).fill(-1);
	const valueOffset = new Int32Array(17);
	let code = 0;
	let index = 0;
	for (let length = 1; length <= 16; length++) {
		const count = counts[length - 1] ?? 0;
		if (count > 0) {
			valueOffset[length] = index - code;
			for (let n = 0; n < count; n++) {
				if (length <= LOOKUP_BITS) {
					const shift = LOOKUP_BITS - length;
					const entry = (length << 8) | (values[index] ?? 0);
					lookup.fill(entry, code << shift, (code + 1) << shift);
				}
				code++;
				index++;
			}
			maxCode[length] = code - 1;
		}
		if (code > 1 << length) throw new ImageFault("corrupt_header", "The JPEG has a Huffman table with too many codes.");
		code <<= 1;
	}
	return { lookup, maxCode, valueOffset, values };
}
