import type { ImageFormat, Inspection, InvalidReason } from "./image-types.ts";

/** Random access to a stored file's bytes. */
export interface ByteSource {
	readonly size: number;
	/** Bytes from `offset`; fewer than `length` only at the end of the file. */
	read(offset: number, length: number): Promise<Uint8Array>;
}

/** A ByteSource over bytes in memory that counts what is read from it (for tests and benchmarks). */
export function memorySource(bytes: Uint8Array): ByteSource & { bytesRead: number; reads: number } {
	const source = {
		size: bytes.length,
		bytesRead: 0,
		reads: 0,
		read(offset: number, length: number): Promise<Uint8Array> {
			const chunk = bytes.slice(offset, offset + length);
			source.bytesRead += chunk.length;
			source.reads += 1;
			return Promise.resolve(chunk);
		},
	};
	return source;
}

/** Why a header is invalid, thrown by the reader and the parsers and turned into an invalid Inspection. */
export class InspectionFault extends Error {
	readonly reason: InvalidReason;

	constructor(reason: InvalidReason, message: string) {
		super(message);
		this.name = "InspectionFault";
		this.reason = reason;
	}
}

/** Runs a header parser, turning an InspectionFault it throws into an invalid result for `format`. */
export async function settle(format: ImageFormat, parse: () => Promise<Inspection>): Promise<Inspection> {
	try {
		return await parse();
	} catch (error) {
		if (error instanceof InspectionFault) return { ok: false, format, reason: error.reason, message: error.message };
		throw error;
	}
}

/** Tuning of a BlockReader; the defaults suit R2, where a request costs far more than a few KiB. */
export type BlockReaderOptions = {
	/** Bytes per aligned block (default 4 KiB). */
	blockSize?: number;
	/** How many recent blocks to keep (default 16). */
	cachedBlocks?: number;
	/** Most bytes one inspection may read from the source (default 1 MiB). */
	readLimit?: number;
};

/** 4 KiB: a JPEG segment header, a PNG IHDR or a TIFF IFD usually fits in one block. */
export const DEFAULT_BLOCK_SIZE = 4096;
/** 16 blocks (64 KiB) kept, enough for a TIFF IFD and its arrays side by side. */
export const DEFAULT_CACHED_BLOCKS = 16;
/** 1 MiB: far more than any honest header needs, far less than a print file. */
export const DEFAULT_READ_LIMIT = 1024 * 1024;

/**
 * Reads a ByteSource in aligned blocks and keeps the most recent ones, so walking many small
 * segments costs few source reads while skipping a large one reads nothing of its body. Stops with
 * `read_limit_exceeded` once the total read would pass the limit, whatever the file claims.
 */
export class BlockReader {
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

	constructor(source: ByteSource, options: BlockReaderOptions = {}) {
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
		const length = lengthOf(end);
		if (this.#bytesRead + length > this.#readLimit) {
			throw new InspectionFault(
				"read_limit_exceeded",
				`Reading the header would take more than ${this.#readLimit} bytes of the file: its header is unusually large or corrupt.`,
			);
		}
		let bytes: Uint8Array;
		try {
			bytes = await this.#source.read(offset, length);
		} catch {
			throw new InspectionFault("read_failed", "The stored file could not be read; the inspection can be retried.");
		}
		this.#reads += 1;
		this.#bytesRead += bytes.length;
		this.#nextSequential = end + 1;
		for (let index = first; index <= end; index++) {
			const from = (index - first) * this.#blockSize;
			if (from >= bytes.length) break;
			const block = bytes.subarray(from, from + this.#blockSize);
			if (index <= last) into.set(index, block);
			this.#remember(index, block);
		}
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
}
