/**
 * The framed preview: a picture of the finished piece drawn to scale from the cut list (the
 * dimensions module's numbers, the ones the framer cuts to), in the catalog's colours, with the
 * print's image cropped or letterboxed exactly as it will print (turned a quarter when its orientation
 * is not the print's, as the resolution and crop figures judge it). Pure: the routes find the
 * colours and the image; this draws and encodes.
 */
import { type CutList, cutList } from "../framing/cut-list.ts";
import { turnedToPrint } from "../framing/fit-figures.ts";
import type { FramingSpec } from "../framing/spec.ts";
import type { Thumbnail } from "../imaging/area-reducer.ts";
import { encodeRgbPng } from "../imaging/png/encode.ts";
import { drawResampled, type PixelRect, type SourceWindow } from "./resample.ts";

/** The narrowest and widest preview, and the width when none is asked for. */
export const PREVIEW_WIDTH = { min: 200, max: 2000, default: 1200 } as const;

/** The tallest preview: a piece much taller than wide is drawn narrower so its PNG stays within memory. */
const MAX_PREVIEW_HEIGHT_PX = 3000;

/** A mat board's core, which its bevel shows. */
export type MatCore = "white" | "cream" | "black";

/** The catalog's colours of a piece, as `#RRGGBB`: the moulding's (null unframed) and each mat's, top mat first. */
export type PreviewColours = { frame: string | null; mats: { face: string; core: MatCore }[] };

/** What the preview is of: the print's size, its framing and its moulding's face width (null unframed). */
export type PreviewPiece = {
	print: { width_in: number; height_in: number };
	spec: FramingSpec;
	frameWidthIn: number | null;
};

/** An encoded preview and its size; `placeholder` when there was no image to draw in the opening. */
export type FramedPreview = { png: Uint8Array<ArrayBuffer>; width: number; height: number; placeholder: boolean };

type Rgb = readonly [number, number, number];

/** How each rail of the moulding is shaded, so its four mitres show: lit from the top left. */
export const RAIL_SHADES = { top: 0.22, left: 0.1, right: -0.1, bottom: -0.22 } as const;

/** What the bevel of a mat shows: its core's colour. */
const CORE_COLOURS: Record<MatCore, string> = { white: "#FFFFFF", cream: "#F4ECD8", black: "#1C1C1C" };

/** The letterbox of `fit`, the unframed print's outline and the opening without an image. */
export const PAPER_WHITE = "#FFFFFF";
export const OUTLINE_GREY = "#9A9A9A";
export const PLACEHOLDER_GREY = "#D9D9D6";

/** `#RRGGBB` as three bytes. */
export function rgbOf(hex: string): Rgb {
	const value = Number.parseInt(hex.slice(1, 7), 16);
	if (!/^#[0-9A-Fa-f]{6}$/.test(hex) || Number.isNaN(value)) throw new RangeError(`${hex} is not #RRGGBB`);
	return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** `colour` moved towards white (amount > 0) or black (amount < 0) by |amount|. */
export function shade(colour: Rgb, amount: number): Rgb {
	const toward = amount > 0 ? 255 : 0;
	const by = Math.abs(amount);
	const move = (channel: number) => Math.round(channel + (toward - channel) * by);
	return [move(colour[0]), move(colour[1]), move(colour[2])];
}

/**
 * The bevel's colour: the core's; where the core is the face's colour (a white core in a white mat)
 * it would not show, so it is drawn a shade darker, as a bevel in the shadow of the glazing reads.
 */
export function bevelColour(face: Rgb, core: MatCore): Rgb {
	const coreRgb = rgbOf(CORE_COLOURS[core]);
	const apart = Math.max(...coreRgb.map((channel, index) => Math.abs(channel - (face[index] ?? 0))));
	return apart >= 16 ? coreRgb : shade(face, -0.12);
}

/** The preview's width and height in pixels for a piece whose outside is `outside`, asked `widthPx` wide. */
export function previewSize(outside: { width_in: number; height_in: number }, widthPx: number) {
	const scale = Math.min(widthPx / outside.width_in, MAX_PREVIEW_HEIGHT_PX / outside.height_in);
	return {
		scale,
		width: Math.max(1, Math.round(outside.width_in * scale)),
		height: Math.max(1, Math.round(outside.height_in * scale)),
	};
}

/** The cut list a preview is drawn from, or null when the piece cannot be built (the routes refuse it first). */
export function previewCutList(piece: PreviewPiece): CutList | null {
	return cutList(piece.print, piece.spec, piece.frameWidthIn);
}

/** Draws the piece `widthPx` wide and encodes it as an 8-bit RGB PNG; `source` null draws a neutral placeholder. */
export function renderFramedPreview(
	piece: PreviewPiece,
	colours: PreviewColours,
	source: Thumbnail | null,
	widthPx: number,
): FramedPreview {
	const cut = previewCutList(piece);
	if (cut === null) throw new RangeError("a piece that cannot be built has no preview");
	const { scale, width, height } = previewSize(cut.outside, widthPx);
	const px = (inches: number) => Math.round(inches * scale);
	const rect = (left: number, top: number, size: { width_in: number; height_in: number }): PixelRect => ({
		x0: px(left),
		y0: px(top),
		x1: px(left + size.width_in),
		y1: px(top + size.height_in),
	});
	const canvas = new Uint8Array(width * height * 3);
	const frameWidth = cut.frame?.width_in ?? 0;
	if (cut.frame !== null && colours.frame !== null) {
		drawMoulding(canvas, width, height, rgbOf(colours.frame), rect(frameWidth, frameWidth, cut.backing ?? cut.print));
	}
	const bevel = Math.max(1, Math.round(scale / 16));
	cut.mats.forEach((mat, index) => {
		const look = colours.mats[index];
		if (look === undefined) throw new RangeError(`no colour for the ${mat.layer} mat`);
		const face = rgbOf(look.face);
		if (index === 0) fill(canvas, width, rect(frameWidth, frameWidth, mat.outer), face);
		const opening = rect(frameWidth + mat.borders.sides_in, frameWidth + mat.borders.top_in, mat.opening);
		const bevelled = { x0: opening.x0 - bevel, y0: opening.y0 - bevel, x1: opening.x1 + bevel, y1: opening.y1 + bevel };
		fill(canvas, width, bevelled, bevelColour(face, look.core));
		const next = colours.mats[index + 1];
		// The next mat shows through this one's opening; the innermost opening is filled below.
		if (index + 1 < cut.mats.length && next !== undefined) fill(canvas, width, opening, rgbOf(next.face));
	});
	const innermost = cut.mats.at(-1);
	// The print lies under the innermost mat's opening, overlapping it equally on each side.
	const printRect =
		innermost === undefined
			? rect(frameWidth, frameWidth, cut.print)
			: rect(
					frameWidth + innermost.borders.sides_in - (cut.print.width_in - innermost.opening.width_in) / 2,
					frameWidth + innermost.borders.top_in - (cut.print.height_in - innermost.opening.height_in) / 2,
					cut.print,
				);
	const window =
		innermost === undefined
			? printRect
			: rect(frameWidth + innermost.borders.sides_in, frameWidth + innermost.borders.top_in, innermost.opening);
	fill(canvas, width, window, rgbOf(source === null ? PLACEHOLDER_GREY : PAPER_WHITE));
	if (source !== null) drawImage(canvas, width, source, printRect, window, cut.fit, cut.print);
	if (cut.frame === null) outline(canvas, width, height, Math.max(1, Math.round(width / 1000)));
	return { png: encodeRgbPng(canvas, width, height), width, height, placeholder: source === null };
}

/**
 * The image turned a quarter clockwise: its left edge becomes the top. The print's figures judge a
 * landscape image on a portrait print (and the other way round) turned, long side to long side, so the
 * preview draws it turned too and shows the crop those figures give.
 */
export function quarterTurn(image: Thumbnail): Thumbnail {
	const width = image.height;
	const height = image.width;
	const rgb = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const from = ((image.height - 1 - x) * image.width + y) * 3;
			rgb.set(image.rgb.subarray(from, from + 3), (y * width + x) * 3);
		}
	}
	return { width, height, rgb };
}

/**
 * The image in the print's area, turned to the print's orientation when it lies the other way: `fill`
 * covers the area, cropped centred; `fit` shows it whole, centred on white.
 */
function drawImage(
	canvas: Uint8Array,
	canvasWidth: number,
	image: Thumbnail,
	print: PixelRect,
	window: PixelRect,
	fit: FramingSpec["fit"],
	printSize: { width_in: number; height_in: number },
): void {
	const source = turnedToPrint(image.width, image.height, printSize.width_in, printSize.height_in)
		? quarterTurn(image)
		: image;
	const printAspect = printSize.width_in / printSize.height_in;
	const sourceAspect = source.width / source.height;
	if (fit === "fill") {
		const crop: SourceWindow =
			sourceAspect > printAspect
				? {
						x: (source.width - source.height * printAspect) / 2,
						y: 0,
						width: source.height * printAspect,
						height: source.height,
					}
				: {
						x: 0,
						y: (source.height - source.width / printAspect) / 2,
						width: source.width,
						height: source.width / printAspect,
					};
		drawResampled(canvas, canvasWidth, source, crop, print, window);
		return;
	}
	const areaWidth = print.x1 - print.x0;
	const areaHeight = print.y1 - print.y0;
	const fitScale = Math.min(areaWidth / source.width, areaHeight / source.height);
	const drawnWidth = Math.max(1, Math.round(source.width * fitScale));
	const drawnHeight = Math.max(1, Math.round(source.height * fitScale));
	const x0 = print.x0 + Math.floor((areaWidth - drawnWidth) / 2);
	const y0 = print.y0 + Math.floor((areaHeight - drawnHeight) / 2);
	const whole = { x: 0, y: 0, width: source.width, height: source.height };
	drawResampled(canvas, canvasWidth, source, whole, { x0, y0, x1: x0 + drawnWidth, y1: y0 + drawnHeight }, window);
}

/** The moulding: every pixel outside `opening`, shaded by the rail it lies on (the nearest outer edge). */
function drawMoulding(canvas: Uint8Array, width: number, height: number, colour: Rgb, opening: PixelRect): void {
	const rails = {
		top: shade(colour, RAIL_SHADES.top),
		left: shade(colour, RAIL_SHADES.left),
		right: shade(colour, RAIL_SHADES.right),
		bottom: shade(colour, RAIL_SHADES.bottom),
	};
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			if (x >= opening.x0 && x < opening.x1 && y >= opening.y0 && y < opening.y1) continue;
			// The mitres run from each outer corner at 45°: a pixel belongs to the rail whose edge is nearest.
			const vertical = Math.min(y, height - 1 - y);
			const horizontal = Math.min(x, width - 1 - x);
			const rail =
				vertical <= horizontal
					? y <= height - 1 - y
						? rails.top
						: rails.bottom
					: x <= width - 1 - x
						? rails.left
						: rails.right;
			put(canvas, (y * width + x) * 3, rail);
		}
	}
}

function outline(canvas: Uint8Array, width: number, height: number, thickness: number): void {
	const grey = rgbOf(OUTLINE_GREY);
	fill(canvas, width, { x0: 0, y0: 0, x1: width, y1: thickness }, grey);
	fill(canvas, width, { x0: 0, y0: height - thickness, x1: width, y1: height }, grey);
	fill(canvas, width, { x0: 0, y0: 0, x1: thickness, y1: height }, grey);
	fill(canvas, width, { x0: width - thickness, y0: 0, x1: width, y1: height }, grey);
}

function fill(canvas: Uint8Array, width: number, area: PixelRect, colour: Rgb): void {
	const height = canvas.length / 3 / width;
	for (let y = Math.max(0, area.y0); y < Math.min(height, area.y1); y++) {
		for (let x = Math.max(0, area.x0); x < Math.min(width, area.x1); x++) put(canvas, (y * width + x) * 3, colour);
	}
}

function put(canvas: Uint8Array, at: number, colour: Rgb): void {
	canvas[at] = colour[0];
	canvas[at + 1] = colour[1];
	canvas[at + 2] = colour[2];
}
