/**
 * What a streaming decoder hands on: the image's size once, then its rows top to bottom as 8-bit RGB.
 * A sink never receives the whole image at once, so memory stays bounded by what the sink keeps.
 */
export interface RasterSink {
	/** Called once, before any rows, with the size of the raster the decoder delivers (a DC-only JPEG: 1/8). */
	start(width: number, height: number): void;
	/**
	 * `count` rows from row `y`, `width * count * 3` bytes of 8-bit RGB, transparency already composited on
	 * white. Rows arrive in order, each once. The decoder may reuse `rgb` once the call returns.
	 */
	rows(y: number, count: number, rgb: Uint8Array): void;
}

/** What a decoder learned besides the rows: the EXIF orientation (1 to 8; 1 when none) to apply afterwards. */
export interface Decoded {
	readonly orientation: number;
}
