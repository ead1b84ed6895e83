import type { Thumbnail } from "../imaging/area-reducer.ts";

/** The source pixels one target pixel reads along an axis: the first one and each one's weight (they add up to 1). */
type Tap = { first: number; weights: number[] };

/** A rectangle of whole pixels, `x0`/`y0` inclusive, `x1`/`y1` exclusive. */
export type PixelRect = { x0: number; y0: number; x1: number; y1: number };

/** A part of the source image in source pixels (fractional where a crop falls between pixels). */
export type SourceWindow = { x: number; y: number; width: number; height: number };

/**
 * The taps of `targetLength` pixels covering source pixels [windowStart, windowStart + windowLength).
 * Shrinking (a target pixel covers a source pixel or more), a target pixel is the exact area average of
 * what it covers, as the thumbnail's reducer does. Enlarging (a 1024 px thumbnail behind a 2000 px
 * preview), it is bilinear between the two nearest source centres, kept inside the window so a
 * cropped-away pixel never bleeds in.
 */
function axisTaps(sourceLength: number, windowStart: number, windowLength: number, targetLength: number): Tap[] {
	const step = windowLength / targetLength;
	const taps: Tap[] = [];
	for (let target = 0; target < targetLength; target++) {
		if (step >= 1) {
			const from = windowStart + target * step;
			const to = from + step;
			const first = Math.max(0, Math.floor(from));
			const last = Math.min(sourceLength - 1, Math.ceil(to) - 1);
			const weights: number[] = [];
			let total = 0;
			for (let index = first; index <= last; index++) {
				const overlap = Math.min(to, index + 1) - Math.max(from, index);
				weights.push(overlap);
				total += overlap;
			}
			taps.push({ first, weights: weights.map((weight) => weight / total) });
		} else {
			const low = Math.max(0, Math.ceil(windowStart - 1e-9));
			const high = Math.min(sourceLength - 1, Math.floor(windowStart + windowLength - 1 + 1e-9));
			const centre = Math.min(Math.max(windowStart + (target + 0.5) * step - 0.5, low), Math.max(low, high));
			const first = Math.floor(centre);
			const fraction = centre - first;
			taps.push(
				fraction === 0 || first + 1 >= sourceLength
					? { first, weights: [1] }
					: { first, weights: [1 - fraction, fraction] },
			);
		}
	}
	return taps;
}

/**
 * Draws `window` of `source` resampled to fill `target` on an RGB `canvas` `canvasWidth` pixels wide,
 * writing only the pixels inside `clip`. Separable: each source row is resampled across once, kept
 * while target rows still read it, then the rows are combined down.
 */
export function drawResampled(
	canvas: Uint8Array,
	canvasWidth: number,
	source: Thumbnail,
	window: SourceWindow,
	target: PixelRect,
	clip: PixelRect,
): void {
	const targetWidth = target.x1 - target.x0;
	const targetHeight = target.y1 - target.y0;
	if (targetWidth <= 0 || targetHeight <= 0) return;
	const across = axisTaps(source.width, window.x, window.width, targetWidth);
	const down = axisTaps(source.height, window.y, window.height, targetHeight);
	const x0 = Math.max(target.x0, clip.x0);
	const x1 = Math.min(target.x1, clip.x1);
	const rows = new Map<number, Float32Array>();
	for (let y = Math.max(target.y0, clip.y0); y < Math.min(target.y1, clip.y1); y++) {
		const tap = down[y - target.y0];
		if (tap === undefined) continue;
		for (const kept of rows.keys()) if (kept < tap.first) rows.delete(kept);
		const out = new Float32Array(targetWidth * 3);
		tap.weights.forEach((weight, offset) => {
			const row = resampledRow(rows, source, tap.first + offset, across);
			for (let index = 0; index < out.length; index++) out[index] = (out[index] ?? 0) + weight * (row[index] ?? 0);
		});
		for (let x = x0; x < x1; x++) {
			const from = (x - target.x0) * 3;
			const to = (y * canvasWidth + x) * 3;
			for (let channel = 0; channel < 3; channel++) {
				canvas[to + channel] = Math.min(255, Math.max(0, Math.round(out[from + channel] ?? 0)));
			}
		}
	}
}

function resampledRow(rows: Map<number, Float32Array>, source: Thumbnail, y: number, across: Tap[]): Float32Array {
	const cached = rows.get(y);
	if (cached !== undefined) return cached;
	const row = new Float32Array(across.length * 3);
	const start = y * source.width * 3;
	across.forEach((tap, x) => {
		tap.weights.forEach((weight, offset) => {
			const from = start + (tap.first + offset) * 3;
			for (let channel = 0; channel < 3; channel++) {
				row[x * 3 + channel] = (row[x * 3 + channel] ?? 0) + weight * (source.rgb[from + channel] ?? 0);
			}
		});
	});
	rows.set(y, row);
	return row;
}
