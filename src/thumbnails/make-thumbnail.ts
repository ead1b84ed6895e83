import { AreaReducer } from "../imaging/area-reducer.ts";
import type { ByteSource } from "../imaging/byte-source.ts";
import { planSrgbConversion, SrgbConvertingSink, type SrgbPlan } from "../imaging/colour/convert.ts";
import type { ColourFacts, Conversion } from "../imaging/colour/facts.ts";
import { parseIccProfile } from "../imaging/colour/icc.ts";
import type { ContentStats } from "../imaging/content-stats.ts";
import { ContentStatsSink } from "../imaging/content-stats-sink.ts";
import { decodeImage } from "../imaging/decode.ts";
import type { ImageFormat } from "../imaging/formats.ts";
import { encodeRgbPng } from "../imaging/png/encode.ts";
import { readColourProfile } from "../imaging/probe.ts";
import { teeSink } from "../imaging/raster.ts";

/**
 * A thumbnail ready to store: the PNG's bytes, its size, how its colours were brought to sRGB, and what
 * the file's pixels say.
 */
export type ThumbnailPng = {
	png: Uint8Array;
	width: number;
	height: number;
	conversion: Conversion;
	contentStats: ContentStats;
};

/**
 * A file's thumbnail, in sRGB: its rows streamed through the decoder, converted from the file's own
 * colour space (colour/convert.ts says how, and when only approximately), area-averaged, turned to the
 * image's orientation and encoded as an 8-bit RGB PNG. The same converted rows are measured for the
 * content's statistics (the mean colour is the thumbnail's). `colour` is what the inspection stored of the
 * file's colour (PNG's gamma chunks, the model; null for a file inspected before it was kept). Throws
 * ImageFault for a file the decoder cannot read.
 */
export async function makeThumbnail(
	format: ImageFormat,
	source: ByteSource,
	colour: ColourFacts | null = null,
): Promise<ThumbnailPng> {
	const plan = await srgbPlanOf(format, source, colour);
	const reducer = new AreaReducer();
	const measure = new ContentStatsSink();
	const measured = teeSink(reducer, measure);
	const sink = plan.transform === null ? measured : new SrgbConvertingSink(measured, plan.transform);
	const { orientation } = await decodeImage(format, source, sink);
	const { width, height, rgb } = reducer.finish(orientation);
	return {
		png: encodeRgbPng(rgb, width, height),
		width,
		height,
		conversion: plan.conversion,
		contentStats: measure.finish(rgb),
	};
}

/**
 * The conversion of a file's rows. The stored facts already say whether there is anything to convert;
 * only an exact conversion (or a file whose facts were not kept) reads the embedded profile.
 */
async function srgbPlanOf(format: ImageFormat, source: ByteSource, colour: ColourFacts | null): Promise<SrgbPlan> {
	if (colour !== null && colour.conversion !== "exact") return { conversion: colour.conversion, transform: null };
	const bytes = colour === null || colour.tagging === "icc_profile" ? await readColourProfile(format, source) : null;
	return planSrgbConversion({
		profile: bytes === null ? null : parseIccProfile(bytes),
		png: colour?.png ?? null,
		model: colour?.model ?? null,
		exifColourSpace: colour?.exif_colour_space ?? null,
	});
}
