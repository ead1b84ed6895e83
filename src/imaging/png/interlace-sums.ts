/**
 * An interlaced PNG's pixels averaged straight into the thumbnail, pass by pass, since no whole row
 * exists before the last pass.
 */
import { BoxAxis, thumbnailSize } from "../area-reducer.ts";
import type { RasterSink } from "../raster.ts";

/**
 * An interlaced PNG's passes arrive one after another, so no full row exists before the last pass.
 * Each pass's pixels are instead averaged straight into the thumbnail's sums with the same box
 * weights the AreaReducer uses, and the thumbnail-sized result is handed on at the end.
 */
export class InterlaceSums {
	readonly #size: { width: number; height: number };
	readonly #xAxis: BoxAxis;
	readonly #yAxis: BoxAxis;
	readonly #sums: Float64Array;
	/** The alpha's sums, kept only when the sink takes the alpha of an image that has one. */
	readonly #alphaSums: Float64Array | null;

	constructor(width: number, height: number, withAlpha = false) {
		this.#size = thumbnailSize(width, height);
		this.#xAxis = new BoxAxis(width, this.#size.width);
		this.#yAxis = new BoxAxis(height, this.#size.height);
		this.#sums = new Float64Array(this.#size.width * this.#size.height * 3);
		this.#alphaSums = withAlpha ? new Float64Array(this.#size.width * this.#size.height) : null;
	}

	/** Adds one pass's row of RGB pixels (and their alpha) into the sums, each pixel at its place in the full image. */
	add(
		pass: { x0: number; y0: number; dx: number; dy: number; width: number },
		row: number,
		rgb: Uint8Array,
		alpha: Uint8Array | null = null,
	): void {
		const y = pass.y0 + row * pass.dy;
		const ty = this.#yAxis.first[y] ?? 0;
		const yNear = this.#yAxis.near[y] ?? 0;
		const yFar = this.#yAxis.total - yNear;
		const stride = this.#size.width * 3;
		const hasNextRow = yFar > 1e-9 && ty + 1 < this.#size.height;
		const alphaSums = alpha === null ? null : this.#alphaSums;
		for (let i = 0; i < pass.width; i++) {
			const x = pass.x0 + i * pass.dx;
			const tx = this.#xAxis.first[x] ?? 0;
			const xNear = this.#xAxis.near[x] ?? 0;
			const xFar = this.#xAxis.total - xNear;
			const hasNextColumn = xFar > 1e-9 && tx + 1 < this.#size.width;
			for (let c = 0; c < 3; c++) {
				const value = rgb[i * 3 + c] ?? 0;
				const at = ty * stride + tx * 3 + c;
				this.#sums[at] = (this.#sums[at] ?? 0) + value * xNear * yNear;
				if (hasNextColumn) this.#sums[at + 3] = (this.#sums[at + 3] ?? 0) + value * xFar * yNear;
				if (hasNextRow) {
					this.#sums[at + stride] = (this.#sums[at + stride] ?? 0) + value * xNear * yFar;
					if (hasNextColumn) this.#sums[at + stride + 3] = (this.#sums[at + stride + 3] ?? 0) + value * xFar * yFar;
				}
			}
			if (alphaSums !== null) {
				// The same four weights as a colour channel, over a plane of one value a pixel.
				const value = alpha?.[i] ?? 0;
				const at = ty * this.#size.width + tx;
				const next = this.#size.width;
				alphaSums[at] = (alphaSums[at] ?? 0) + value * xNear * yNear;
				if (hasNextColumn) alphaSums[at + 1] = (alphaSums[at + 1] ?? 0) + value * xFar * yNear;
				if (hasNextRow) {
					alphaSums[at + next] = (alphaSums[at + next] ?? 0) + value * xNear * yFar;
					if (hasNextColumn) alphaSums[at + next + 1] = (alphaSums[at + next + 1] ?? 0) + value * xFar * yFar;
				}
			}
		}
	}

	/** Hands the sink the thumbnail: its size, then its rows of rounded averages. */
	deliver(sink: RasterSink): void {
		const { width, height } = this.#size;
		sink.start(width, height);
		const row = new Uint8Array(width * 3);
		const alphaRow = this.#alphaSums === null ? null : new Uint8Array(width);
		for (let y = 0; y < height; y++) {
			for (let i = 0; i < row.length; i++) {
				row[i] = Math.min(255, Math.max(0, Math.round(this.#sums[y * row.length + i] ?? 0)));
			}
			if (alphaRow !== null && this.#alphaSums !== null) {
				for (let i = 0; i < width; i++) {
					alphaRow[i] = Math.min(255, Math.max(0, Math.round(this.#alphaSums[y * width + i] ?? 0)));
				}
				sink.alpha?.(y, 1, alphaRow);
			}
			sink.rows(y, 1, row);
		}
	}
}
