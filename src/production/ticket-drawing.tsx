/**
 * The work ticket's drawing: the finished piece to scale, seen from the front (moulding in the
 * frame's colour with its mitres, each mat in its colour with its opening, the print area dashed),
 * its sizes labelled in inches and fractions, and a legend of the colours.
 */
import type { CutList } from "../framing/cut-list.ts";
import type { Size } from "../framing/dimensions.ts";
import { inchesText, sizeText } from "../framing/words.ts";
import type { Look } from "./ticket-look.ts";

/** The print area's pale blue, in the drawing and its legend. */
const PRINT_FILL = "#dfe8f2";

/** One part of the drawing: a rectangle in inches, from the outside's top left corner (dashed: the whole print). */
function Rect({
	x,
	y,
	size,
	fill,
	dashed = false,
}: {
	x: number;
	y: number;
	size: Size;
	fill: string;
	dashed?: boolean;
}) {
	return (
		<rect
			x={x}
			y={y}
			width={size.width_in}
			height={size.height_in}
			fill={fill}
			stroke="#111"
			stroke-width={dashed ? 0.03 : 0.02}
			stroke-dasharray={dashed ? "0.15 0.1" : undefined}
		/>
	);
}

/** The finished piece to scale, seen from the front, with its dimensions labelled. */
export function Drawing({ cut, look }: { cut: CutList; look: Look }) {
	const { outside } = cut;
	const frameWidth = cut.frame?.width_in ?? 0;
	const font = Math.max(outside.width_in, outside.height_in) / 26;
	const margin = font * 3.2;
	const [top, inner] = cut.mats;
	const view = `${-margin} ${-margin} ${outside.width_in + 2 * margin} ${outside.height_in + 2 * margin}`;
	// Where the print sits: inside the frame, below the top border (the weighted bottom is below it).
	const border = top === undefined ? 0 : top.borders.top_in + (cut.reveal_in ?? 0) - 1 / 8;
	const printAt = frameWidth + border;
	const label = (x: number, y: number, text: string, options: { rotate?: boolean; size?: number } = {}) => (
		<text
			x={x}
			y={y}
			font-size={font * (options.size ?? 1)}
			text-anchor="middle"
			dominant-baseline="middle"
			transform={options.rotate === true ? `rotate(-90 ${x} ${y})` : undefined}
		>
			{text}
		</text>
	);
	return (
		<svg xmlns="http://www.w3.org/2000/svg" viewBox={view} role="img" aria-label="The finished piece, to scale">
			{cut.frame === null ? null : (
				<>
					<Rect x={0} y={0} size={outside} fill={look.color("frame", cut.frame.slug)} />
					{[
						[0, 0, frameWidth, frameWidth],
						[outside.width_in, 0, outside.width_in - frameWidth, frameWidth],
						[0, outside.height_in, frameWidth, outside.height_in - frameWidth],
						[outside.width_in, outside.height_in, outside.width_in - frameWidth, outside.height_in - frameWidth],
					].map(([x1, y1, x2, y2]) => (
						<line x1={x1} y1={y1} x2={x2} y2={y2} stroke="#111" stroke-width={0.03} />
					))}
				</>
			)}
			{top === undefined ? null : (
				<>
					<Rect x={frameWidth} y={frameWidth} size={top.outer} fill={look.color("mat", top.slug)} />
					<Rect
						x={frameWidth + top.borders.sides_in}
						y={frameWidth + top.borders.top_in}
						size={top.opening}
						fill={inner === undefined ? PRINT_FILL : look.color("mat", inner.slug)}
					/>
					{inner === undefined ? null : (
						<Rect
							x={frameWidth + inner.borders.sides_in}
							y={frameWidth + inner.borders.top_in}
							size={inner.opening}
							fill={PRINT_FILL}
						/>
					)}
				</>
			)}
			{top === undefined && cut.frame !== null ? (
				<Rect x={frameWidth} y={frameWidth} size={cut.print} fill={PRINT_FILL} />
			) : null}
			{cut.frame === null && top === undefined ? <Rect x={0} y={0} size={cut.print} fill={PRINT_FILL} /> : null}
			<Rect x={printAt} y={printAt} size={cut.print} fill="none" dashed />
			{label(outside.width_in / 2, -margin / 2, `outside ${inchesText(outside.width_in)} in`)}
			{label(outside.width_in + margin / 2, outside.height_in / 2, `outside ${inchesText(outside.height_in)} in`, {
				rotate: true,
			})}
			{label(
				printAt + cut.print.width_in / 2,
				printAt + cut.print.height_in / 2 - font * 0.8,
				`print ${sizeText(cut.print)}`,
				{
					size: 0.9,
				},
			)}
			{(inner ?? top) === undefined
				? null
				: label(
						printAt + cut.print.width_in / 2,
						printAt + cut.print.height_in / 2 + font * 0.8,
						`opening ${sizeText((inner ?? top)?.opening ?? cut.print)}`,
						{ size: 0.9 },
					)}
			{top === undefined
				? null
				: label(
						outside.width_in / 2,
						frameWidth + top.outer.height_in - top.borders.bottom_in / 2,
						`mat ${sizeText(top.outer)}`,
						{ size: 0.85 },
					)}
		</svg>
	);
}

/** What each colour of the drawing is: the frame, each mat, and the print. */
export function Legend({ cut, look }: { cut: CutList; look: Look }) {
	const entries: [string, string][] = [];
	if (cut.frame !== null) entries.push([look.color("frame", cut.frame.slug), look.name("frame", cut.frame.slug)]);
	for (const mat of cut.mats) entries.push([look.color("mat", mat.slug), look.name("mat", mat.slug)]);
	entries.push([PRINT_FILL, "print area (dashed: the whole print)"]);
	return (
		<div class="legend">
			{entries.map(([color, name]) => (
				<span>
					<span class="swatch" style={`background:${color}`} />
					{name}
				</span>
			))}
		</div>
	);
}
