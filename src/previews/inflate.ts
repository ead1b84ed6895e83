import { UndecodableImage } from "./raster.ts";

/** Compressed bytes handed to the inflater at a time. */
const INPUT_PIECE = 16 * 1024;

/**
 * Inflates zlib data (PNG's IDAT, a Deflate TIFF strip) as it arrives, through the runtime's
 * DecompressionStream: compressed pieces are pulled only as output is consumed, so neither side is
 * ever held whole. Stops once `expected` bytes came out (the rest of a larger stream is not read).
 */
export async function* inflate(compressed: AsyncIterable<Uint8Array>, expected: number): AsyncGenerator<Uint8Array> {
	const pieces = compressed[Symbol.asyncIterator]();
	let sourceError: unknown = null;
	let pending: Uint8Array = new Uint8Array(0);
	const input = new ReadableStream<Uint8Array>(
		{
			async pull(controller) {
				try {
					if (pending.length === 0) {
						const piece = await pieces.next();
						if (piece.done === true) {
							controller.close();
							return;
						}
						pending = piece.value;
					}
					// Small inputs: deflate expands up to ~1032 times, so 16 KiB in is at most ~16 MiB out.
					controller.enqueue(pending.subarray(0, INPUT_PIECE));
					pending = pending.subarray(INPUT_PIECE);
				} catch (error) {
					sourceError = error;
					controller.error(error);
				}
			},
		},
		{ highWaterMark: 0 },
	);
	const reader = input.pipeThrough(new DecompressionStream("deflate")).getReader();
	let produced = 0;
	try {
		while (produced < expected) {
			let result: Awaited<ReturnType<typeof reader.read>>;
			try {
				result = await reader.read();
			} catch (error) {
				if (sourceError !== null) throw sourceError;
				if (error instanceof UndecodableImage) throw error;
				throw new UndecodableImage("corrupt", "The compressed data is damaged or cut short.");
			}
			if (result.done) break;
			const piece = result.value.subarray(0, expected - produced);
			produced += piece.length;
			if (piece.length > 0) yield piece;
		}
	} finally {
		await reader.cancel().catch(() => undefined);
	}
}
