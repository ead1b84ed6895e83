/** What a work ticket takes from the catalog: each part's name and colour, and a frame's face width. */
import { type CatalogNames, catalogNames } from "../catalog/names.ts";
import type { Catalog } from "../catalog/schema.ts";

/** Names and colours the ticket shows, from the catalog. */
export type Look = {
	name: CatalogNames;
	color: (kind: "frame" | "mat", slug: string) => string;
	frameWidth: (slug: string) => number | null;
};

/** The look of every part in `catalog`; a part the catalog lacks is drawn grey (its name is shown as sent). */
export function lookOf(catalog: Catalog): Look {
	const frames = new Map(catalog.frames.map((frame) => [frame.slug, frame]));
	const mats = new Map(catalog.mats.map((mat) => [mat.slug, mat]));
	return {
		name: catalogNames(catalog),
		color: (kind, slug) => (kind === "frame" ? frames.get(slug)?.color.hex : mats.get(slug)?.color.hex) ?? "#cccccc",
		frameWidth: (slug) => frames.get(slug)?.width_in ?? null,
	};
}
