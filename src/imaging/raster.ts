/**
 * What a streaming decoder hands on: the image's size once, then its rows top to bottom as 8-bit RGB
 * (and, to a sink that asks, the alpha the RGB was composited with). A sink never receives the whole
 * image at once, so memory stays bounded by what the sink keeps.
 */
export interface RasterSink {
	/** Called once, before any rows, with the size of the raster the decoder delivers (a DC-only JPEG: 1/8). */
	start(width: number, height: number): void;
	/**
	 * `count` rows from row `y`, `width * count * 3` bytes of 8-bit RGB, transparency already composited on
	 * white. Rows arrive in order, each once. The decoder may reuse `rgb` once the call returns.
	 */
	rows(y: number, count: number, rgb: Uint8Array): void;
	/**
	 * Optional: the alpha of the same rows, `width * count` bytes (0 clear to 255 opaque), handed just before
	 * `rows(y, count, …)` by a decoder whose image can be transparent (an alpha channel, a PNG's tRNS); never
	 * for one that cannot. A decoder works the alpha out only for a sink that has this method, and may reuse
	 * `values` once the call returns.
	 */
	alpha?(y: number, count: number, values: Uint8Array): void;
}

/**
 * Hands every call on to each of `sinks` in turn: one decoding, several uses. It asks for the alpha only
 * when one of them does, and hands it only to those.
 */
export function teeSink(...sinks: RasterSink[]): RasterSink {
	const tee: RasterSink = {
		start(width, height) {
			for (const sink of sinks) sink.start(width, height);
		},
		rows(y, count, rgb) {
			for (const sink of sinks) sink.rows(y, count, rgb);
		},
	};
	if (sinks.some((sink) => sink.alpha !== undefined)) {
		tee.alpha = (y, count, values) => {
			for (const sink of sinks) sink.alpha?.(y, count, values);
		};
	}
	return tee;
}

/** What a decoder learned besides the rows: the EXIF orientation (1 to 8; 1 when none) to apply afterwards. */
export interface Decoded {
	readonly orientation: number;
}
