import type { Catalog } from "./schema.ts";

type SizesRow = { min_in: number; max_in: number; custom: number };
type FrameRow = {
	slug: string;
	name: string;
	width_in: number;
	color_name: string;
	color_hex: string;
	material: string;
	profile: string;
	max_united_inches: number;
	weight_lb_per_foot: number;
};
type MatRow = { slug: string; name: string; color_name: string; color_hex: string; core: "white" | "cream" | "black" };

/**
 * The whole catalog, in listing order, and each moulding's weight per foot in ten-thousandths of a
 * pound (the shipping module's unit; not part of the published catalog), read in one D1 round trip.
 */
export async function readCatalog(
	database: D1Database,
): Promise<{ catalog: Catalog; mouldingWeights: Map<string, number> }> {
	// Any read replica may answer: the catalog changes only by migration, no request writes it, and an
	// isolate serves the copy it read for a minute anyway.
	const db = database.withSession("first-unconstrained");
	const [frames, mats, glazings, papers, sizes] = await db.batch([
		db.prepare(
			`SELECT slug, name, width_in, color_name, color_hex, material, profile, max_united_inches, weight_lb_per_foot
			   FROM catalog_frames ORDER BY position`,
		),
		db.prepare("SELECT slug, name, color_name, color_hex, core FROM catalog_mats ORDER BY position"),
		db.prepare("SELECT slug, name, description FROM catalog_glazings ORDER BY position"),
		db.prepare("SELECT slug, name, description FROM catalog_papers ORDER BY position"),
		db.prepare("SELECT min_in, max_in, custom FROM catalog_sizes WHERE id = 1"),
	]);
	const sizesRow = sizes?.results[0] as SizesRow | undefined;
	if (
		frames === undefined ||
		mats === undefined ||
		glazings === undefined ||
		papers === undefined ||
		sizesRow === undefined
	) {
		throw new Error("catalog tables are empty: have the migrations been applied?");
	}
	const frameRows = frames.results as FrameRow[];
	return {
		catalog: {
			frames: frameRows.map(({ color_name, color_hex, weight_lb_per_foot: _weight, ...frame }) => ({
				...frame,
				color: { name: color_name, hex: color_hex },
			})),
			mats: (mats.results as MatRow[]).map(({ color_name, color_hex, ...mat }) => ({
				...mat,
				color: { name: color_name, hex: color_hex },
			})),
			glazings: glazings.results as Catalog["glazings"],
			papers: papers.results as Catalog["papers"],
			sizes: { min_in: sizesRow.min_in, max_in: sizesRow.max_in, custom: sizesRow.custom === 1 },
		},
		mouldingWeights: new Map(frameRows.map((row) => [row.slug, Math.round(row.weight_lb_per_foot * 10_000)])),
	};
}
