import { ImageFault } from "../fault.ts";
import type { RasterSink } from "../raster.ts";
import type { BlockLane } from "./dc-scan.ts";
import type { Frame } from "./segments.ts";

/** How the decoded components become RGB. */
type ColorModel = "gray" | "ycbcr" | "rgb" | "cmyk" | "inverted-cmyk" | "ycck";

/**
 * Most bytes of DC values held when the first scans carry one component each, so that every plane
 * must be kept until the last arrives (2 bytes a block): 24 MiB, some 530 megapixels at 4:2:0.
 */
const MAX_PLANE_BYTES = 24 * 1024 * 1024;

/**
 * The raster's rows, made one row of MCUs at a time from each component's lane of samples: at 1/8 scale
 * a block's DC value (its mean), at 1/4, 1/2 or 1/1 the `size` × `size` samples of its reduced inverse DCT.
 */
export class DcRaster {
	readonly lanes: BlockLane[];
	readonly size: number;
	readonly #frame: Frame;
	readonly #plans: SamplePlan[];
	readonly #model: ColorModel;
	readonly #sink: RasterSink;
	readonly #width: number;
	readonly #height: number;
	readonly #rgb: Uint8Array;
	readonly #values = new Float64Array(4);

	/**
	 * Lanes of whole planes (`whole`, checked against MAX_PLANE_BYTES) or a ring of three MCU rows: the
	 * row being emitted and its neighbours, which the chroma interpolation reads. `size` is the samples
	 * a block gives on a side: 1 for DC values (scaled by the DC step), 2, 4 or 8 for the level-shifted
	 * samples of a reduced inverse DCT.
	 */
	constructor(
		frame: Frame,
		dcSteps: Int32Array,
		adobe: number | undefined,
		sink: RasterSink,
		whole: boolean,
		size = 1,
	) {
		this.#frame = frame;
		this.#sink = sink;
		this.size = size;
		this.#model = colorModel(frame, adobe);
		this.#width = Math.ceil((frame.widthPx * size) / 8);
		this.#height = Math.ceil((frame.heightPx * size) / 8);
		const mcusPerLine = Math.ceil(frame.widthPx / (8 * frame.hMax));
		const mcuRows = Math.ceil(frame.heightPx / (8 * frame.vMax));
		const blocks = frame.components.reduce((sum, { h, v }) => sum + mcusPerLine * h * mcuRows * v, 0);
		if (whole && blocks * 2 > MAX_PLANE_BYTES) {
			throw new ImageFault(
				"exceeds_memory_budget",
				"The JPEG's first scans carry one component each, and its planes of DC values would pass the memory allowed.",
			);
		}
		this.#plans = frame.components.map(({ h, v, quantTable }) => {
			const rows = (whole ? mcuRows * v : 3 * v) * size;
			const width = mcusPerLine * h * size;
			return {
				lane: { h, v, width, rows, size: 1, values: new Int16Array(width * rows) },
				scale: size === 1 ? (dcSteps[quantTable] ?? 0) / 8 : 1,
				lastX: Math.ceil((Math.ceil((frame.widthPx * h) / frame.hMax) * size) / 8) - 1,
				lastY: Math.ceil((Math.ceil((frame.heightPx * v) / frame.vMax) * size) / 8) - 1,
				xRatio: frame.hMax / h,
				yRatio: frame.vMax / v,
			};
		});
		this.lanes = this.#plans.map((plan) => plan.lane);
		this.#rgb = new Uint8Array(this.#width * frame.vMax * size * 3);
		sink.start(this.#width, this.#height);
	}

	/** How many rows of MCUs the raster has. */
	get mcuRows(): number {
		return Math.ceil(this.#height / (this.#frame.vMax * this.size));
	}

	/**
	 * Hands the sink the output rows of MCU row `row`. A subsampled component's value is interpolated
	 * between its samples' centres (as decoders upsample chroma), so it needs MCU rows `row - 1` and
	 * `row + 1` in the lanes too.
	 */
	emit(row: number): void {
		const band = this.#frame.vMax * this.size;
		const first = row * band;
		const count = Math.min(band, this.#height - first);
		if (count <= 0) return;
		const values = this.#values;
		let out = 0;
		for (let y = first; y < first + count; y++) {
			for (let x = 0; x < this.#width; x++) {
				for (let c = 0; c < this.lanes.length; c++) values[c] = this.#sample(c, x, y);
				out = toRgb(this.#model, values, this.#rgb, out);
			}
		}
		this.#sink.rows(first, count, this.#rgb.subarray(0, out));
	}

	/** Component `c`'s mean at output pixel (x, y). */
	#sample(c: number, x: number, y: number): number {
		const plan = this.#plans[c];
		if (plan === undefined) return 0;
		let mean: number;
		if (plan.xRatio === 1 && plan.yRatio === 1) {
			mean = blockMean(plan, x, y);
		} else {
			const px = (x + 0.5) / plan.xRatio - 0.5;
			const py = (y + 0.5) / plan.yRatio - 0.5;
			const x0 = Math.floor(px);
			const y0 = Math.floor(py);
			const tx = px - x0;
			const ty = py - y0;
			const top = blockMean(plan, x0, y0) * (1 - tx) + blockMean(plan, x0 + 1, y0) * tx;
			const bottom = blockMean(plan, x0, y0 + 1) * (1 - tx) + blockMean(plan, x0 + 1, y0 + 1) * tx;
			mean = top * (1 - ty) + bottom * ty;
		}
		return Math.max(0, Math.min(255, mean));
	}
}

/** How one component's output values are read from its lane. */
type SamplePlan = {
	lane: BlockLane;
	/** DC × step is 8 × (mean − 128); an inverse DCT's sample is already (value − 128). */
	scale: number;
	/** The component's own last sample column and row: those past them only pad the last MCU. */
	lastX: number;
	lastY: number;
	/** Output pixels per sample of the component, across and down. */
	xRatio: number;
	yRatio: number;
};

/** The value of sample (x, y) (a block's mean at 1/8), clamped to the component's own samples. */
function blockMean(plan: SamplePlan, x: number, y: number): number {
	const { lane } = plan;
	const column = x < 0 ? 0 : Math.min(x, plan.lastX);
	const row = y < 0 ? 0 : Math.min(y, plan.lastY);
	return (lane.values[(row % lane.rows) * lane.width + column] ?? 0) * plan.scale + 128;
}

function colorModel(frame: Frame, adobe: number | undefined): ColorModel {
	const count = frame.components.length;
	if (count === 1) return "gray";
	if (count === 3) {
		const ids = frame.components.map((component) => String.fromCharCode(component.id)).join("");
		return adobe === 0 || (adobe === undefined && ids === "RGB") ? "rgb" : "ycbcr";
	}
	if (adobe === 2) return "ycck";
	return adobe === undefined ? "cmyk" : "inverted-cmyk";
}

function clamp(value: number): number {
	return Math.max(0, Math.min(255, Math.round(value)));
}

function toRgb(model: ColorModel, values: Float64Array, rgb: Uint8Array, at: number): number {
	const [a = 0, b = 0, c = 0, k = 0] = values;
	let red = a;
	let green = a;
	let blue = a;
	if (model === "rgb") {
		green = b;
		blue = c;
	} else if (model === "ycbcr" || model === "ycck") {
		red = a + 1.402 * (c - 128);
		green = a - 0.344136 * (b - 128) - 0.714136 * (c - 128);
		blue = a + 1.772 * (b - 128);
		if (model === "ycck") {
			// YCCK holds the inverted CMY as YCbCr: the colour conversion gives 255 − stored value.
			red = ((255 - clamp(red)) * k) / 255;
			green = ((255 - clamp(green)) * k) / 255;
			blue = ((255 - clamp(blue)) * k) / 255;
		}
	} else if (model === "inverted-cmyk") {
		red = (a * k) / 255;
		green = (b * k) / 255;
		blue = (c * k) / 255;
	} else if (model === "cmyk") {
		red = ((255 - a) * (255 - k)) / 255;
		green = ((255 - b) * (255 - k)) / 255;
		blue = ((255 - c) * (255 - k)) / 255;
	}
	rgb[at] = clamp(red);
	rgb[at + 1] = clamp(green);
	rgb[at + 2] = clamp(blue);
	return at + 3;
}
