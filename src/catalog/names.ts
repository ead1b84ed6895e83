import type { Catalog } from "./schema.ts";

/** The catalog's name of a part by its kind and slug; a slug the catalog lacks is shown as itself. */
export type CatalogNames = (kind: "frame" | "mat" | "glazing" | "paper", slug: string) => string;

/** The names of the catalog's frames, mats, glazings and papers, looked up by slug. */
export function catalogNames(catalog: Catalog): CatalogNames {
	const byKind = {
		frame: new Map(catalog.frames.map((frame) => [frame.slug, frame.name])),
		mat: new Map(catalog.mats.map((mat) => [mat.slug, mat.name])),
		glazing: new Map(catalog.glazings.map((glazing) => [glazing.slug, glazing.name])),
		paper: new Map(catalog.papers.map((paper) => [paper.slug, paper.name])),
	};
	return (kind, slug) => byKind[kind].get(slug) ?? slug;
}
