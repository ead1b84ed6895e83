/** Shared by the decoder tests: decode while recording the source's reads, and the reason a decoder gives up. */

import { AreaReducer, type Thumbnail } from "../../src/previews/area-reducer.ts";
import { type Decoded, type RasterSink, UndecodableImage, type UndecodableReason } from "../../src/previews/raster.ts";
import { type ByteSource, memorySource } from "../../src/print-files/byte-source.ts";

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

/** Why the decoder gave up on `bytes`, or "decoded" when it did not; anything else it throws fails the test. */
export async function undecodableReason(decode: Decoder, bytes: Uint8Array): Promise<UndecodableReason | "decoded"> {
	try {
		const reducer = new AreaReducer();
		await decode(memorySource(bytes), reducer);
		reducer.finish();
		return "decoded";
	} catch (error) {
		if (error instanceof UndecodableImage) return error.reason;
		throw error;
	}
}
