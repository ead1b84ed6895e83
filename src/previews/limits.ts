import { MAX_PIXELS, MAX_SIDE_PX } from "../print-files/inspect.ts";
import { UndecodableImage } from "./raster.ts";

/** Refuses the sizes the inspector refuses, before anything is allocated for them. */
export function checkSize(width: number, height: number): void {
	if (width < 1 || height < 1 || width > MAX_SIDE_PX || height > MAX_SIDE_PX || width * height > MAX_PIXELS) {
		throw new UndecodableImage("too_large", `A ${width} × ${height} image is beyond the accepted sizes.`);
	}
}
