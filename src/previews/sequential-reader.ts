import type { ByteSource } from "../print-files/byte-source.ts";
import { UndecodableImage } from "./raster.ts";

/** The most a decoder asks of its source in one read: a band of the file, never the file. */
export const READ_CHUNK = 1024 * 1024;

/** Reads a source's bytes in at most 1 MiB pieces, failing as truncated where the file ends early. */
async function readPiece(source: ByteSource, offset: number, length: number): Promise<Uint8Array> {
	if (offset + length > source.size) {
		throw new UndecodableImage("truncated", `The file ends at byte ${source.size}, before the data it declares.`);
	}
	const bytes = await source.read(offset, length);
	if (bytes.length < length) {
		throw new UndecodableImage("truncated", `The file ends at byte ${offset + bytes.length}, inside its data.`);
	}
	return bytes;
}

/** The bytes [offset, offset + length) as pieces of at most 1 MiB, read in order, each once. */
export async function* readRange(source: ByteSource, offset: number, length: number): AsyncGenerator<Uint8Array> {
	for (let at = offset; at < offset + length; at += READ_CHUNK) {
		yield await readPiece(source, at, Math.min(READ_CHUNK, offset + length - at));
	}
}

/** Small reads at any offset (a TIFF's directory and its arrays), checked against the file's end. */
export function readAt(source: ByteSource, offset: number, length: number): Promise<Uint8Array> {
	if (!Number.isSafeInteger(offset) || offset < 0 || length > READ_CHUNK) {
		throw new UndecodableImage("corrupt", `The file points at byte ${offset}, outside it.`);
	}
	return readPiece(source, offset, length);
}

/**
 * Walks a source front to back, one buffered piece of at most 1 MiB at a time: small exact reads for
 * headers, larger pieces for bodies, and skips that read nothing.
 */
export class SequentialReader {
	readonly #source: ByteSource;
	#buffer: Uint8Array = new Uint8Array(0);
	/** File offset of `#buffer[0]`. */
	#bufferAt = 0;
	#position: number;

	constructor(source: ByteSource, position = 0) {
		this.#source = source;
		this.#position = position;
	}

	/** The file offset of the next byte. */
	get position(): number {
		return this.#position;
	}

	/** Whether the file has bytes left. */
	get atEnd(): boolean {
		return this.#position >= this.#source.size;
	}

	/** Up to `max` bytes (at least one) from the current position. */
	async next(max: number): Promise<Uint8Array> {
		let start = this.#position - this.#bufferAt;
		if (start < 0 || start >= this.#buffer.length) {
			const length = Math.min(READ_CHUNK, this.#source.size - this.#position);
			if (length <= 0) throw new UndecodableImage("truncated", "The file ends before its data does.");
			this.#buffer = await readPiece(this.#source, this.#position, length);
			this.#bufferAt = this.#position;
			start = 0;
		}
		const piece = this.#buffer.subarray(start, start + Math.min(max, this.#buffer.length - start));
		this.#position += piece.length;
		return piece;
	}

	/** Exactly `length` bytes (a header: small). */
	async exact(length: number): Promise<Uint8Array> {
		const first = await this.next(length);
		if (first.length === length) return first;
		const out = new Uint8Array(length);
		out.set(first);
		let filled = first.length;
		while (filled < length) {
			const piece = await this.next(length - filled);
			out.set(piece, filled);
			filled += piece.length;
		}
		return out;
	}

	/** Moves past `length` bytes without reading what is not already buffered. */
	skip(length: number): void {
		if (this.#position + length > this.#source.size) {
			throw new UndecodableImage("truncated", "The file ends inside a part it declares.");
		}
		this.#position += length;
	}
}
