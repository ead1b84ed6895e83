import { findAccount } from "../accounts/store.ts";
import type { ShipTo } from "../addresses/schema.ts";
import { type BrandProfileRow, findBrandProfile, returnAddressOf } from "../branding/store.ts";
import { isolateCatalog } from "../catalog/cache.ts";
import { catalogNames } from "../catalog/names.ts";
import { databaseOf, directoryDatabase, findInEveryDatabase } from "../databases.ts";
import { cutList } from "../framing/cut-list.ts";
import type { Size } from "../framing/dimensions.ts";
import { type FramingSpec, specOf } from "../framing/spec.ts";
import { dimensionsInWords, framingInWords, type PartNames, type SpecLine } from "../framing/words.ts";
import type { Currency } from "../money/currencies.ts";
import type { OrderCosts } from "../orders/costs.ts";
import { buildProblems, type CatalogFacts, catalogFactsOf } from "../orders/item-checks.ts";
import { orderMachine } from "../orders/machine.ts";
import { type ItemRow, type OrderRow, type StoredOrder, shownDpi } from "../orders/rows.ts";
import type { HoldDetail } from "../orders/state-machine.ts";
import { findOrder } from "../orders/store.ts";
import { printFileNow } from "../print-files/inspection.ts";
import type { PrintFileThumbnail } from "../print-files/schema.ts";
import { findAccountPrintFiles, type PrintFileRow } from "../print-files/store.ts";
import { servableThumbnail } from "../print-files/thumbnail-read.ts";
import { itemName } from "./item-words.ts";

/** What the floor needs of an item's print file. */
export type SheetFile = Pick<
	PrintFileRow,
	"id" | "status" | "expired_at" | "format" | "width_px" | "height_px" | "size_bytes"
>;

/** An item with the catalog's names for its frame and mat, and its print file once known. */
export type SheetItem = {
	id: string;
	/** How the floor names it: `Item 2 of 3 · 16 × 20 in`. */
	name: string;
	position: number;
	widthIn: number;
	heightIn: number;
	frame: { slug: string; name: string } | null;
	mat: { slug: string; name: string } | null;
	quantity: number;
	effectiveDpi: number | null;
	warnings: string[];
	file: SheetFile | null;
	/** The file's thumbnail as it can be shown now (a thumbnail of replaced bytes is unavailable); null without a file. */
	thumbnail: PrintFileThumbnail | null;
	printFileUrl: string | null;
	/** The complete framing specification, as stored. */
	spec: FramingSpec;
	/** The framing specification in the framer's words (print and paper, mat, frame, glazing). */
	framing: SpecLine[];
	/**
	 * Why the item cannot be built from the catalog as it is now (a size not offered, a part the
	 * catalog lacks, a frame too small), in words; empty when it can. The floor shows these instead
	 * of drawing or cutting a piece that cannot exist.
	 */
	cannotBuild: string[];
	/** The finished piece's outside size, which a framed preview is drawn to; null when it cannot be built. */
	outside: Size | null;
	/** The bench's dimensions in inches and fractions; null until the item can be built. */
	dimensions: SpecLine[] | null;
	/** One unit's price and the line's, in the order's currency; null until priced. For the console only, never the slip. */
	price: { unit: number; line: number; currency: Currency } | null;
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
	/** What the order costs the partner; null until priced. For the console only, never the slip. */
	costs: OrderCosts | null;
};

/**
 * The sheet of an order, or null when there is no such order. Each print file is compared with
 * R2 as the sheet is made: bytes replaced since the check make the file invalid (`file_changed`)
 * and put an order in production on hold, so the floor never works from bytes nobody checked.
 */
export async function loadOrderSheet(env: Env, orderId: string): Promise<OrderSheet | null> {
	const found = await findInEveryDatabase(env, (database) => findOrder(database, orderId, env.PRINT_FILES));
	if (found === null) return null;
	return sheetFromStored(env, found);
}

/** The sheet of an order already read (a page of the queue, say), its files checked as loadOrderSheet does. */
export async function sheetFromStored(env: Env, found: StoredOrder): Promise<OrderSheet> {
	const files = await currentFilesOf(env, found);
	const stored = await holdIfFilesChanged(env, found, files);
	return sheetOf(env, stored, files);
}

/** The order's print files (its own account's only: an item never shows another account's file), checked against R2. */
async function currentFilesOf(env: Env, { order, items }: StoredOrder): Promise<Map<string, PrintFileRow>> {
	const fileIds = items.flatMap((item) => (item.print_file_id === null ? [] : [item.print_file_id]));
	const found = await findAccountPrintFiles(databaseOf(env, order.account_id), order.account_id, fileIds);
	const current = await Promise.all([...found.values()].map((file) => printFileNow(env, file)));
	return new Map(current.map((file) => [file.id, file]));
}

/** An order in production with a changed file goes on hold (`file_unreadable`, naming each item); else as it is. */
async function holdIfFilesChanged(
	env: Env,
	stored: StoredOrder,
	files: Map<string, PrintFileRow>,
): Promise<StoredOrder> {
	if (stored.order.status !== "in_production") return stored;
	const holdDetails: HoldDetail[] = stored.items.flatMap((item) => {
		const file = item.print_file_id === null ? undefined : files.get(item.print_file_id);
		if (file?.invalid_reason !== "file_changed") return [];
		const field = item.print_file_url === null ? "print_file_id" : "print_file_url";
		return [
			{
				item_id: item.id,
				field,
				code: "file_unreadable",
				message: `${file.invalid_message ?? "The file changed."} (${file.id})`,
			},
		];
	});
	if (holdDetails.length === 0) return stored;
	const outcome = await orderMachine(env, stored.order.id).move(
		stored.order.id,
		{ kind: "file_changed", holdDetails },
		"system",
	);
	// Refused only when the order moved on meanwhile (shipped, canceled): the sheet then shows it as it is now.
	return outcome.ok
		? outcome.order
		: ((await findOrder(databaseOf(env, stored.order.account_id), stored.order.id, env.PRINT_FILES)) ?? stored);
}

async function sheetOf(env: Env, stored: StoredOrder, files: Map<string, PrintFileRow>): Promise<OrderSheet> {
	const { order } = stored;
	const [account, brand, snapshot] = await Promise.all([
		findAccount(directoryDatabase(env), order.account_id),
		// The profile of the order's mode: a test key's branding never reaches a live order's slip.
		findBrandProfile(databaseOf(env, order.account_id), { accountId: order.account_id, mode: order.mode }),
		isolateCatalog.get(databaseOf(env, order.account_id)),
	]);
	const names = catalogNames(snapshot.catalog);
	const facts = catalogFactsOf(snapshot.catalog);
	return {
		stored,
		order,
		shipTo: order.ship_to,
		account: account ?? { id: order.account_id, name: order.account_id },
		brand,
		returnAddress: brand === null ? null : returnAddressOf(brand),
		costs: order.costs,
		items: stored.items.map((item) =>
			sheetItem(item, stored.items.length, files, names, facts, order.costs?.currency ?? null),
		),
	};
}

function sheetItem(
	item: ItemRow,
	itemCount: number,
	files: Map<string, PrintFileRow>,
	names: PartNames,
	catalog: CatalogFacts,
	currency: Currency | null,
): SheetItem {
	const named = (kind: "frame" | "mat", slug: string | null) =>
		slug === null ? null : { slug, name: names(kind, slug) };
	const price = item.priced;
	const spec = specOf(item);
	const file = item.print_file_id === null ? null : (files.get(item.print_file_id) ?? null);
	const cannotBuild = buildProblems(item, catalog).map((problem) => problem.detail.message);
	const frameWidthIn = spec.frame === null ? null : (catalog.frames.get(spec.frame)?.widthIn ?? null);
	const cut =
		cannotBuild.length > 0 ? null : cutList({ width_in: item.width_in, height_in: item.height_in }, spec, frameWidthIn);
	return {
		id: item.id,
		name: itemName({ position: item.position, widthIn: item.width_in, heightIn: item.height_in }, itemCount),
		position: item.position,
		widthIn: item.width_in,
		heightIn: item.height_in,
		frame: named("frame", item.frame),
		mat: named("mat", item.mat),
		quantity: item.quantity,
		effectiveDpi: shownDpi(item),
		warnings: item.warnings,
		file,
		thumbnail: file === null ? null : servableThumbnail(file),
		printFileUrl: item.print_file_url,
		spec,
		framing: framingInWords(item, spec, names),
		cannotBuild,
		outside: cut?.outside ?? null,
		dimensions: price === null ? null : dimensionsInWords({ ...price.dimensions, unitedInches: price.united_inches }),
		price:
			price === null ? null : { unit: price.unit_price.total, line: price.line_total, currency: currency ?? "USD" },
	};
}
