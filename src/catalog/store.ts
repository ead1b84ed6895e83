import type { Catalog } from "./schema.ts";

type SizesRow = { min_in: number; max_in: number; custom: number };

/** The whole catalog, in listing order, read in one D1 round trip. */
export async function readCatalog(db: D1Database): Promise<Catalog> {
	const [frames, mats, sizes] = await db.batch([
		db.prepare("SELECT slug, name, width_in FROM catalog_frames ORDER BY position"),
		db.prepare("SELECT slug, name FROM catalog_mats ORDER BY position"),
		db.prepare("SELECT min_in, max_in, custom FROM catalog_sizes WHERE id = 1"),
	]);
	const sizesRow = sizes?.results[0] as SizesRow | undefined;
	if (frames === undefined || mats === undefined || sizesRow === undefined) {
		throw new Error("catalog tables are empty: have the migrations been applied?");
	}
	return {
		frames: frames.results as Catalog["frames"],
		mats: mats.results as Catalog["mats"],
		sizes: { min_in: sizesRow.min_in, max_in: sizesRow.max_in, custom: sizesRow.custom === 1 },
	};
}
