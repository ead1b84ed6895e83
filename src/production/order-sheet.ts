import { findAccount } from "../accounts/store.ts";
import { type BrandProfileRow, findBrandProfile, returnAddressOf } from "../branding/store.ts";
import { isolateCatalog } from "../catalog/cache.ts";
import { findOrder, type OrderRow, type ShipTo, type StoredOrder } from "../orders/store.ts";
import { findAccountPrintFiles, type PrintFileRow } from "../print-files/store.ts";

/** What the floor needs of an item's print file. */
export type SheetFile = Pick<PrintFileRow, "id" | "status" | "format" | "width_px" | "height_px" | "size_bytes">;

/** An item with the catalog's names for its frame and mat, and its print file once known. */
export type SheetItem = {
	id: string;
	position: number;
	widthIn: number;
	heightIn: number;
	frame: { slug: string; name: string } | null;
	mat: { slug: string; name: string } | null;
	quantity: number;
	effectiveDpi: number | null;
	warnings: string[];
	file: SheetFile | null;
	printFileUrl: string | null;
};

/**
 * One order as the production floor sees it: the order, its partner, the partner's brand (only
 * ever the order's own account's), the ship-to and return addresses, and each item resolved
 * against the catalog and its print file.
 */
export type OrderSheet = {
	/** The order and its items as stored (for the API's order shape). */
	stored: StoredOrder;
	order: OrderRow;
	shipTo: ShipTo;
	account: { id: string; name: string };
	brand: BrandProfileRow | null;
	/** The shipping label's return address: the partner's, or none (never the service's). */
	returnAddress: ShipTo | null;
	items: SheetItem[];
};

/** The sheet of an order, or null when there is no such order. */
export async function loadOrderSheet(env: Env, orderId: string): Promise<OrderSheet | null> {
	const stored = await findOrder(env.DB, orderId);
	if (stored === null) return null;
	return sheetOf(env, stored);
}

async function sheetOf(env: Env, stored: StoredOrder): Promise<OrderSheet> {
	const { order } = stored;
	const fileIds = stored.items.flatMap((item) => (item.print_file_id === null ? [] : [item.print_file_id]));
	const [account, brand, files, snapshot] = await Promise.all([
		findAccount(env.DB, order.account_id),
		findBrandProfile(env.DB, order.account_id),
		// The order's own account's files only: an item never shows another account's file.
		findAccountPrintFiles(env.DB, order.account_id, fileIds),
		isolateCatalog.get(env.DB),
	]);
	const frames = new Map(snapshot.catalog.frames.map((frame) => [frame.slug, frame.name]));
	const mats = new Map(snapshot.catalog.mats.map((mat) => [mat.slug, mat.name]));
	const named = (slug: string | null, names: Map<string, string>) =>
		slug === null ? null : { slug, name: names.get(slug) ?? slug };
	return {
		stored,
		order,
		shipTo: JSON.parse(order.ship_to) as ShipTo,
		account: account ?? { id: order.account_id, name: order.account_id },
		brand,
		returnAddress: brand === null ? null : returnAddressOf(brand),
		items: stored.items.map((item) => ({
			id: item.id,
			position: item.position,
			widthIn: item.width_in,
			heightIn: item.height_in,
			frame: named(item.frame, frames),
			mat: named(item.mat, mats),
			quantity: item.quantity,
			effectiveDpi: item.effective_dpi === null ? null : Math.round(item.effective_dpi * 10) / 10,
			warnings: JSON.parse(item.warnings) as string[],
			file: item.print_file_id === null ? null : (files.get(item.print_file_id) ?? null),
			printFileUrl: item.print_file_url,
		})),
	};
}
