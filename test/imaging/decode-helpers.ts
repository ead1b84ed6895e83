/** Shared by the decoder tests: decode while recording the source's reads, and the reason a decoder gives up. */

import { AreaReducer, type Thumbnail } from "../../src/imaging/area-reducer.ts";
import { type ByteSource, memorySource } from "../../src/imaging/byte-source.ts";
import { ImageFault } from "../../src/imaging/fault.ts";
import type { Decoded, RasterSink } from "../../src/imaging/raster.ts";
import type { ThumbnailUnavailableReason } from "../../src/print-files/thumbnail-store.ts";
import { UNAVAILABLE_REASON_OF } from "../../src/thumbnails/unavailable-reason.ts";

export type Decoder = (source: ByteSource, sink: RasterSink) => Promise<Decoded>;

export type Read = { offset: number; length: number; end: number };

/** A memorySource that records each read asked of it. */
export function recordingSource(bytes: Uint8Array): ByteSource & { reads: Read[] } {
	const inner = memorySource(bytes);
	const reads: Read[] = [];
	return {
		size: inner.size,
		reads,
		read(offset, length) {
			reads.push({ offset, length, end: offset + length });
			return inner.read(offset, length);
		},
	};
}

/** Decodes `bytes` into a thumbnail, with the reads it took. */
export async function decodeWithReads(
	decode: Decoder,
	bytes: Uint8Array,
): Promise<{ thumbnail: Thumbnail; reads: Read[]; orientation: number }> {
	const source = recordingSource(bytes);
	const reducer = new AreaReducer();
	const { orientation } = await decode(source, reducer);
	return { thumbnail: reducer.finish(orientation), reads: source.reads, orientation };
}

/**
 * Why the decoder gave up on `bytes`, as the thumbnail's reason its fault is stored as, or "decoded" when
 * it did not; anything else it throws (a storage failure, a bug) fails the test.
 */
export async function undecodableReason(
	decode: Decoder,
	bytes: Uint8Array,
): Promise<ThumbnailUnavailableReason | "decoded"> {
	try {
		const reducer = new AreaReducer();
		await decode(memorySource(bytes), reducer);
		reducer.finish();
		return "decoded";
	} catch (error) {
		return thumbnailReasonOf(error);
	}
}

/** The thumbnail's reason for what a decoder threw: its fault as stored; anything else (a storage failure, a bug) is rethrown. */
export function thumbnailReasonOf(error: unknown): ThumbnailUnavailableReason {
	const reason = error instanceof ImageFault ? UNAVAILABLE_REASON_OF[error.reason] : null;
	if (reason === null) throw error;
	return reason;
}

/**
 * Decodes `bytes` with a sink that takes the alpha: every pixel's alpha in raster order, or null when the
 * decoder handed none. Throws when alpha arrives out of order or not just before the rows it belongs to.
 */
export async function decodedAlpha(decode: Decoder, bytes: Uint8Array): Promise<number[] | null> {
	let width = 0;
	let alpha: number[] | null = null;
	let handed: string | null = null;
	const sink: RasterSink = {
		start(w) {
			width = w;
		},
		alpha(y, count, values) {
			const soFar = alpha ?? [];
			if (y * width !== soFar.length) throw new Error(`alpha for row ${y} after ${soFar.length / width} rows`);
			for (const value of values.subarray(0, width * count)) soFar.push(value);
			alpha = soFar;
			handed = `${y}+${count}`;
		},
		rows(y, count) {
			if (alpha !== null && handed !== `${y}+${count}`) throw new Error(`rows ${y}+${count} without their alpha`);
			handed = null;
		},
	};
	await decode(memorySource(bytes), sink);
	return alpha;
}
