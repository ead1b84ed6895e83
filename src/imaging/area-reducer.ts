import type { RasterSink } from "./raster.ts";

/** A thumbnail's longest side; smaller images keep their size (never upscaled). */
export const THUMBNAIL_LONGEST_SIDE = 1024;

/** A finished thumbnail: 8-bit RGB, `width * height * 3` bytes, orientation applied. */
export interface Thumbnail {
	readonly width: number;
	readonly height: number;
	readonly rgb: Uint8Array;
}

/** The thumbnail's size for a raster: the longest side at most 1024 px, the aspect kept, at least 1 px each way. */
export function thumbnailSize(width: number, height: number): { width: number; height: number } {
	const longest = Math.max(width, height);
	if (longest <= THUMBNAIL_LONGEST_SIDE) return { width, height };
	const scale = THUMBNAIL_LONGEST_SIDE / longest;
	return {
		width: width === longest ? THUMBNAIL_LONGEST_SIDE : Math.max(1, Math.round(width * scale)),
		height: height === longest ? THUMBNAIL_LONGEST_SIDE : Math.max(1, Math.round(height * scale)),
	};
}

/**
 * An exact box filter along one axis, from `source` pixels down to `target`: source pixel i covers
 * [i * target / source, (i + 1) * target / source) of the target axis, so it falls on target pixel
 * `first[i]` with the weight `near[i]` and on the next one with `total - near[i]`. The weights of
 * every target pixel add up to 1, which makes the result an area average like ImageMagick's -scale.
 */
export class BoxAxis {
	readonly first: Int32Array;
	readonly near: Float32Array;
	/** Each source pixel's whole weight: target / source. */
	readonly total: number;

	constructor(source: number, target: number) {
		this.first = new Int32Array(source);
		this.near = new Float32Array(source);
		this.total = target / source;
		for (let i = 0; i < source; i++) {
			// Positions in units of 1/source of a target pixel, exact in integers.
			const start = i * target;
			const index = Math.floor(start / source);
			const split = Math.min((index + 1) * source - start, target);
			this.first[i] = index;
			this.near[i] = split / source;
		}
	}
}

/**
 * A RasterSink that averages the rows it receives into a thumbnail as they arrive and keeps only
 * two rows of sums besides the thumbnail itself, so a decoder's rows are dropped once reduced.
 */
export class AreaReducer implements RasterSink {
	#width = 0;
	#height = 0;
	#size = { width: 0, height: 0 };
	#xAxis = new BoxAxis(0, 0);
	#yAxis = new BoxAxis(0, 0);
	#rgb = new Uint8Array(0);
	#reduced = new Float64Array(0);
	#current = new Float64Array(0);
	#next = new Float64Array(0);
	#nextRow = 0;
	#started = false;

	/** Sizes the thumbnail for a `width` × `height` raster. */
	start(width: number, height: number): void {
		if (this.#started) throw new Error("AreaReducer.start called twice");
		if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width < 1 || height < 1) {
			throw new Error(`AreaReducer given a ${width} × ${height} raster`);
		}
		this.#started = true;
		this.#width = width;
		this.#height = height;
		this.#size = thumbnailSize(width, height);
		this.#xAxis = new BoxAxis(width, this.#size.width);
		this.#yAxis = new BoxAxis(height, this.#size.height);
		this.#rgb = new Uint8Array(this.#size.width * this.#size.height * 3);
		this.#reduced = new Float64Array(this.#size.width * 3);
		this.#current = new Float64Array(this.#size.width * 3);
		this.#next = new Float64Array(this.#size.width * 3);
	}

	/** Adds `count` rows from row `y` to the sums; a thumbnail row is written as soon as it is complete. */
	rows(y: number, count: number, rgb: Uint8Array): void {
		if (!this.#started || y !== this.#nextRow || count < 0 || y + count > this.#height) {
			throw new Error(`AreaReducer given rows ${y}..${y + count} out of order (expected ${this.#nextRow})`);
		}
		const rowBytes = this.#width * 3;
		if (rgb.length < rowBytes * count) throw new Error("AreaReducer given fewer bytes than its rows");
		for (let row = 0; row < count; row++) this.#addRow(y + row, rgb.subarray(row * rowBytes, (row + 1) * rowBytes));
		this.#nextRow = y + count;
	}

	/** The thumbnail once every row has arrived, turned to the image's `orientation` (1 to 8). */
	finish(orientation = 1): Thumbnail {
		if (!this.#started || this.#nextRow !== this.#height) {
			throw new Error(`AreaReducer finished after ${this.#nextRow} of ${this.#height} rows`);
		}
		return orient({ ...this.#size, rgb: this.#rgb }, orientation);
	}

	#addRow(y: number, row: Uint8Array): void {
		const reduced = this.#reduced;
		reduced.fill(0);
		const { first, near, total } = this.#xAxis;
		const lastTarget = this.#size.width - 1;
		for (let x = 0, at = 0; x < this.#width; x++, at += 3) {
			const index = first[x] ?? 0;
			const wNear = near[x] ?? 0;
			const wFar = total - wNear;
			const r = row[at] ?? 0;
			const g = row[at + 1] ?? 0;
			const b = row[at + 2] ?? 0;
			const to = index * 3;
			reduced[to] = (reduced[to] ?? 0) + r * wNear;
			reduced[to + 1] = (reduced[to + 1] ?? 0) + g * wNear;
			reduced[to + 2] = (reduced[to + 2] ?? 0) + b * wNear;
			if (wFar > 1e-9 && index < lastTarget) {
				reduced[to + 3] = (reduced[to + 3] ?? 0) + r * wFar;
				reduced[to + 4] = (reduced[to + 4] ?? 0) + g * wFar;
				reduced[to + 5] = (reduced[to + 5] ?? 0) + b * wFar;
			}
		}
		const target = this.#yAxis.first[y] ?? 0;
		const wNear = this.#yAxis.near[y] ?? 0;
		const wFar = this.#yAxis.total - wNear;
		for (let i = 0; i < reduced.length; i++) {
			const value = reduced[i] ?? 0;
			this.#current[i] = (this.#current[i] ?? 0) + value * wNear;
			if (wFar > 1e-9) this.#next[i] = (this.#next[i] ?? 0) + value * wFar;
		}
		// Target row `target` is complete once this source row reaches its lower edge.
		if ((y + 1) * this.#size.height >= (target + 1) * this.#height) {
			const out = this.#rgb.subarray(target * reduced.length, (target + 1) * reduced.length);
			for (let i = 0; i < out.length; i++) out[i] = Math.min(255, Math.max(0, Math.round(this.#current[i] ?? 0)));
			const done = this.#current;
			this.#current = this.#next;
			this.#next = done;
			this.#next.fill(0);
		}
	}
}

/** `image` as it is meant to be seen: EXIF orientation 1 to 8 (anything else counts as 1). */
export function orient(image: Thumbnail, orientation: number): Thumbnail {
	if (orientation < 2 || orientation > 8 || !Number.isInteger(orientation)) return image;
	const { width, height, rgb } = image;
	const swaps = orientation >= 5;
	const outWidth = swaps ? height : width;
	const outHeight = swaps ? width : height;
	const out = new Uint8Array(rgb.length);
	for (let oy = 0; oy < outHeight; oy++) {
		for (let ox = 0; ox < outWidth; ox++) {
			const [sx, sy] = sourceOf(orientation, ox, oy, width, height);
			const from = (sy * width + sx) * 3;
			const to = (oy * outWidth + ox) * 3;
			out[to] = rgb[from] ?? 0;
			out[to + 1] = rgb[from + 1] ?? 0;
			out[to + 2] = rgb[from + 2] ?? 0;
		}
	}
	return { width: outWidth, height: outHeight, rgb: out };
}

/** The stored pixel shown at (x, y) of the turned image. */
function sourceOf(orientation: number, x: number, y: number, width: number, height: number): [number, number] {
	switch (orientation) {
		case 2:
			return [width - 1 - x, y];
		case 3:
			return [width - 1 - x, height - 1 - y];
		case 4:
			return [x, height - 1 - y];
		case 5:
			return [y, x];
		case 6:
			return [y, height - 1 - x];
		case 7:
			return [width - 1 - y, height - 1 - x];
		default:
			return [width - 1 - y, x];
	}
}
