import type { ByteSource } from "./byte-source.ts";
import { ImageFault } from "./fault.ts";

/**
 * Tuning of a ByteReader. The defaults are a probe's: a header read from R2, where a request costs far
 * more than a few KiB, within a budget. A decoder reads with DECODER_READING.
 */
export type ReaderOptions = {
	/** Bytes per aligned block (default 4 KiB). */
	blockSize?: number;
	/** How many recent blocks to keep (default 16); 0 keeps none and reads exactly what is asked. */
	cachedBlocks?: number;
	/** Most bytes the reader may take from the source (default 1 MiB). */
	readLimit?: number;
};

/** 4 KiB: a JPEG segment header, a PNG IHDR or a TIFF IFD usually fits in one block. */
const DEFAULT_BLOCK_SIZE = 4096;
/** 16 blocks (64 KiB) kept, enough for a TIFF IFD and its arrays side by side. */
const DEFAULT_CACHED_BLOCKS = 16;
/** 1 MiB: far more than any honest header needs, far less than a print file. */
const DEFAULT_READ_LIMIT = 1024 * 1024;
/** 1 MiB: the most a decoder asks of the source in one read, a band of the file, never the file. */
export const MAX_READ_BYTES = 1024 * 1024;

/**
 * How a decoder reads: its reads are large and in order (the image data) or small and few (a header, a
 * TIFF's directory), so nothing is worth caching, and it reads the whole file, so no limit.
 */
export const DECODER_READING: ReaderOptions = { cachedBlocks: 0, readLimit: Number.POSITIVE_INFINITY };

/**
 * The one reader of a ByteSource, for the probes and the decoders alike: it counts the bytes and
 * requests it costs, stops with `read_limit_exceeded` once the total read would pass its limit
 * (whatever the file claims) and turns a failing source into `read_failed`. Random reads go through a
 * cache of aligned blocks, so walking many small segments costs few source reads while skipping a
 * large one reads nothing of its body; a ByteCursor walks the file front to back through it.
 */
export class ByteReader {
	readonly size: number;
	#bytesRead = 0;
	#reads = 0;
	readonly #source: ByteSource;
	readonly #blockSize: number;
	readonly #cachedBlocks: number;
	readonly #readLimit: number;
	// Insertion order doubles as recency: a hit is re-inserted, the first key is the eviction victim.
	readonly #blocks = new Map<number, Uint8Array>();
	/** The block right after the last fetch, and how many blocks a fetch continuing from it takes. */
	#nextSequential = -1;
	#streak = 1;

	constructor(source: ByteSource, options: ReaderOptions = {}) {
		this.#source = source;
		this.size = source.size;
		this.#blockSize = options.blockSize ?? DEFAULT_BLOCK_SIZE;
		this.#cachedBlocks = options.cachedBlocks ?? DEFAULT_CACHED_BLOCKS;
		this.#readLimit = options.readLimit ?? DEFAULT_READ_LIMIT;
	}

	/** Bytes fetched from the source so far. */
	get bytesRead(): number {
		return this.#bytesRead;
	}

	/** Requests made to the source so far. */
	get reads(): number {
		return this.#reads;
	}

	/** The bytes at [offset, offset + length), fewer only where the file ends. */
	async read(offset: number, length: number): Promise<Uint8Array> {
		if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
			throw new RangeError(`Bad read range ${offset}+${length}`);
		}
		const end = Math.min(offset + length, this.size);
		if (end <= offset) return new Uint8Array(0);
		if (this.#cachedBlocks === 0) return this.#fetch(offset, end - offset);
		const first = Math.floor(offset / this.#blockSize);
		const last = Math.floor((end - 1) / this.#blockSize);
		const blocks = await this.#blocksBetween(first, last);
		const start = offset - first * this.#blockSize;
		const only = blocks[0];
		if (blocks.length === 1 && only !== undefined) return only.subarray(start, start + (end - offset));
		const out = new Uint8Array(end - offset);
		let written = 0;
		for (const [index, block] of blocks.entries()) {
			const from = index === 0 ? start : 0;
			const part = block.subarray(from, from + (out.length - written));
			out.set(part, written);
			written += part.length;
			// A short block means the source ended early; what follows it is not there.
			if (block.length < this.#blockSize) break;
		}
		return out.subarray(0, written);
	}

	async #blocksBetween(first: number, last: number): Promise<Uint8Array[]> {
		const found = new Map<number, Uint8Array>();
		let runStart: number | null = null;
		for (let index = first; index <= last + 1; index++) {
			const cached = index <= last ? this.#blocks.get(index) : undefined;
			if (index <= last && cached === undefined) {
				runStart ??= index;
				continue;
			}
			if (runStart !== null) {
				await this.#fetchRun(runStart, index - 1, found);
				runStart = null;
			}
			if (cached !== undefined) {
				this.#remember(index, cached);
				found.set(index, cached);
			}
		}
		const blocks: Uint8Array[] = [];
		for (let index = first; index <= last; index++) {
			const block = found.get(index);
			if (block === undefined) break;
			blocks.push(block);
		}
		return blocks;
	}

	/**
	 * One source read for the missing blocks [first, last], split into blocks. A read that carries on
	 * from the previous one (many small segments back to back) fetches ahead, doubling each time up
	 * to the cache's size, so a dense header costs a few requests rather than one per block.
	 */
	async #fetchRun(first: number, last: number, into: Map<number, Uint8Array>): Promise<void> {
		this.#streak = first === this.#nextSequential ? Math.min(this.#streak * 2, this.#cachedBlocks) : 1;
		const lastBlock = Math.floor((this.size - 1) / this.#blockSize);
		let end = last;
		while (end < Math.min(first + this.#streak - 1, lastBlock) && !this.#blocks.has(end + 1)) end++;
		const offset = first * this.#blockSize;
		const lengthOf = (through: number) => Math.min((through + 1) * this.#blockSize, this.size) - offset;
		// Fetching ahead must never be what trips the limit.
		if (this.#bytesRead + lengthOf(end) > this.#readLimit) end = last;
		const bytes = await this.#fetch(offset, lengthOf(end));
		this.#nextSequential = end + 1;
		for (let index = first; index <= end; index++) {
			const from = (index - first) * this.#blockSize;
			if (from >= bytes.length) break;
			const block = bytes.subarray(from, from + this.#blockSize);
			if (index <= last) into.set(index, block);
			this.#remember(index, block);
		}
	}

	/** One request to the source, within the limit, counted; a failing source is `read_failed`. */
	async #fetch(offset: number, length: number): Promise<Uint8Array> {
		if (this.#bytesRead + length > this.#readLimit) {
			throw new ImageFault(
				"read_limit_exceeded",
				`Reading the header would take more than ${this.#readLimit} bytes of the file: its header is unusually large or corrupt.`,
			);
		}
		let bytes: Uint8Array;
		try {
			bytes = await this.#source.read(offset, length);
		} catch {
			throw new ImageFault("read_failed", "The stored file could not be read; reading it can be retried.");
		}
		this.#reads += 1;
		this.#bytesRead += bytes.length;
		return bytes;
	}

	#remember(index: number, block: Uint8Array): void {
		this.#blocks.delete(index);
		this.#blocks.set(index, block);
		while (this.#blocks.size > this.#cachedBlocks) {
			const oldest = this.#blocks.keys().next();
			if (oldest.done === true) break;
			this.#blocks.delete(oldest.value);
		}
	}

	/**
	 * The bytes [offset, offset + length) as pieces of at most 1 MiB, read in order, each once (a TIFF's
	 * strip); a file that ends before them is truncated.
	 */
	async *pieces(offset: number, length: number): AsyncGenerator<Uint8Array> {
		if (offset + length > this.size) {
			throw new ImageFault("truncated", `The file ends at byte ${this.size}, before the data it declares.`);
		}
		for (let at = offset; at < offset + length; at += MAX_READ_BYTES) {
			const wanted = Math.min(MAX_READ_BYTES, offset + length - at);
			const piece = await this.read(at, wanted);
			if (piece.length < wanted) {
				throw new ImageFault("truncated", `The file ends at byte ${at + piece.length}, inside its data.`);
			}
			yield piece;
		}
	}

	/** A cursor walking the file front to back from `offset`, reading on `chunkBytes` at a time (at most 1 MiB). */
	cursor(offset = 0, chunkBytes = MAX_READ_BYTES): ByteCursor {
		return new ByteCursor(this, offset, chunkBytes);
	}
}

/**
 * A window onto a ByteReader's file, read front to back in chunks. Bytes before `position` are dropped
 * at the next refill, so memory is one chunk plus what was not yet consumed. A JPEG's entropy decoder
 * reads `window` at `position` directly; everything else goes through `take`, `next` and `skip`.
 */
export class ByteCursor {
	/** The window's bytes; `position` indexes into it. */
	window: Uint8Array = new Uint8Array(0);
	position = 0;
	/** Where the window starts in the file. */
	#windowAt: number;
	readonly #reader: ByteReader;
	readonly #chunkBytes: number;

	constructor(reader: ByteReader, offset: number, chunkBytes: number) {
		this.#reader = reader;
		this.#windowAt = offset;
		this.#chunkBytes = Math.max(64, Math.min(MAX_READ_BYTES, Math.floor(chunkBytes)));
	}

	/** The file's size in bytes. */
	get size(): number {
		return this.#reader.size;
	}

	/** Where the next unconsumed byte is in the file. */
	get offset(): number {
		return this.#windowAt + this.position;
	}

	/** Whether the window reaches the end of the file. */
	get atFileEnd(): boolean {
		return this.#windowAt + this.window.length >= this.#reader.size;
	}

	/** Appends the next chunk to the unconsumed bytes; false at the end of the file. */
	async refill(): Promise<boolean> {
		const fileAt = this.#windowAt + this.window.length;
		if (fileAt >= this.#reader.size) return false;
		const chunk = await this.#reader.read(fileAt, this.#chunkBytes);
		if (chunk.length === 0) return false;
		const kept = this.window.subarray(this.position);
		let next = chunk;
		if (kept.length > 0) {
			next = new Uint8Array(kept.length + chunk.length);
			next.set(kept, 0);
			next.set(chunk, kept.length);
		}
		this.#windowAt += this.position;
		this.window = next;
		this.position = 0;
		return true;
	}

	/** Makes `count` bytes available from `position`; false when the file ends first. */
	async ensure(count: number): Promise<boolean> {
		while (this.window.length - this.position < count) {
			if (!(await this.refill())) return false;
		}
		return true;
	}

	/** `count` bytes from `position` (a view, valid until the next refill), or `truncated` naming `what`. */
	async take(count: number, what: string): Promise<Uint8Array> {
		if (!(await this.ensure(count))) {
			throw new ImageFault("truncated", `The file ends inside ${what}: the file is truncated.`);
		}
		const bytes = this.window.subarray(this.position, this.position + count);
		this.position += count;
		return bytes;
	}

	/** Up to `max` bytes (at least one) from `position`, as they are in the window: a body streamed through. */
	async next(max: number): Promise<Uint8Array> {
		if (this.position >= this.window.length && !(await this.refill())) {
			throw new ImageFault("truncated", `The file ends at byte ${this.offset}, before its data does.`);
		}
		const piece = this.window.subarray(
			this.position,
			this.position + Math.min(max, this.window.length - this.position),
		);
		this.position += piece.length;
		return piece;
	}

	/** Moves past `count` bytes without reading the ones beyond the window; past the file's end is `truncated`. */
	skip(count: number): void {
		if (this.offset + count > this.#reader.size) {
			throw new ImageFault("truncated", `The file ends at byte ${this.#reader.size}, inside a part it declares.`);
		}
		const inWindow = this.window.length - this.position;
		if (count <= inWindow) {
			this.position += count;
			return;
		}
		this.#windowAt += this.window.length + (count - inWindow);
		this.window = new Uint8Array(0);
		this.position = 0;
	}
}
