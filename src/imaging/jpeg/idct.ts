/**
 * A reduced inverse DCT, as libjpeg's scaled decoding does it: a block's `size` × `size` lowest-frequency
 * coefficients (size 2, 4 or 8) give `size` × `size` samples, the full 8 × 8 inverse DCT evaluated at
 * the centres of a `size` × `size` grid over the block. The DC coefficient alone gives its mean in every
 * sample, so a flat block keeps its value at every scale.
 */
export class ReducedIdct {
	readonly size: number;
	/** basis[i * size + u]: C(u) cos((2i + 1) u π / 2 size) / 2, for sample i and frequency u. */
	readonly #basis: Float64Array;
	readonly #rows: Float64Array;

	constructor(size: number) {
		this.size = size;
		this.#basis = new Float64Array(size * size);
		for (let i = 0; i < size; i++) {
			for (let u = 0; u < size; u++) {
				const weight = u === 0 ? Math.SQRT1_2 : 1;
				this.#basis[i * size + u] = (weight * Math.cos(((2 * i + 1) * u * Math.PI) / (2 * size))) / 2;
			}
		}
		this.#rows = new Float64Array(size * size);
	}

	/**
	 * Dequantises the block at `coefficients[at]` (size × size, natural order) with `steps` (64, natural
	 * order) and writes its samples, level-shifted (value − 128) and clamped, to `out` from `outAt`, rows
	 * `stride` apart.
	 */
	transform(
		coefficients: Int16Array,
		at: number,
		steps: Int32Array,
		out: Int16Array,
		outAt: number,
		stride: number,
	): void {
		const size = this.size;
		const basis = this.#basis;
		const rows = this.#rows;
		// Rows first: each frequency row v becomes `size` values across (most rows of a block are all zero).
		for (let v = 0; v < size; v++) {
			let zero = true;
			for (let u = 0; u < size && zero; u++) zero = coefficients[at + v * size + u] === 0;
			if (zero) {
				rows.fill(0, v * size, (v + 1) * size);
				continue;
			}
			for (let x = 0; x < size; x++) {
				let sum = 0;
				for (let u = 0; u < size; u++) {
					sum += (coefficients[at + v * size + u] ?? 0) * (steps[v * 8 + u] ?? 0) * (basis[x * size + u] ?? 0);
				}
				rows[v * size + x] = sum;
			}
		}
		for (let y = 0; y < size; y++) {
			for (let x = 0; x < size; x++) {
				let sum = 0;
				for (let v = 0; v < size; v++) sum += (basis[y * size + v] ?? 0) * (rows[v * size + x] ?? 0);
				const sample = Math.round(sum);
				out[outAt + y * stride + x] = Math.max(-128, Math.min(127, sample));
			}
		}
	}
}
