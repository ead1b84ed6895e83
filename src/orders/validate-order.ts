import { isolateCatalog } from "../catalog/cache.ts";
import { databaseOf } from "../databases.ts";
import { sentFraming, specOf } from "../framing/spec.ts";
import { fetchPrintFile } from "../print-files/fetch.ts";
import { printFileNow } from "../print-files/inspection.ts";
import { findPrintFileById, type PrintFileRow } from "../print-files/store.ts";
import { pieceFactsOf } from "../quotes/facts.ts";
import { cmykChoiceOf, cmykFileProblem, isCmykFile } from "./cmyk-hold.ts";
import { priceOrder, sentDeclaredValue } from "./costs.ts";
import {
	type CatalogFacts,
	catalogFactsOf,
	checkItem,
	type FileFacts,
	type ItemFindings,
	orderVerdict,
} from "./item-checks.ts";
import { fileFacts } from "./order-files.ts";
import type { ItemRow, OrderRow, StoredOrder } from "./rows.ts";
import type { HoldDetail, HoldReason } from "./state-machine.ts";

export type ValidationResult = {
	verdict: { kind: "pass" } | { kind: "fail"; holdReason: HoldReason; holdDetails: HoldDetail[] };
	/** The items with what validation found: their file id (for fetched files), effective DPI and warnings. */
	items: ItemRow[];
	/** The order's new method and charges, when validation priced it again; null when they stand. */
	pricing: OrderCharges | null;
};

/** The order row's pricing columns. */
export type OrderCharges = Pick<OrderRow, "shipping_method" | "costs" | "quote_id">;

/** The catalog as the item check needs it (the isolate's copy, at most a minute old). */
export async function catalogFacts(db: D1Database): Promise<CatalogFacts> {
	const { catalog } = await isolateCatalog.get(db);
	return catalogFactsOf(catalog);
}

/**
 * The validating step: fetches `print_file_url` files into R2 (as print files of the order's
 * owner), inspects every file, and checks every item against the resolution rule and the catalog,
 * and a CMYK file against the account's choice for them (read only when a file is CMYK, and as it is
 * now: an order follows the setting in force when it is validated). Slow network work happens here,
 * outside the order's serialized write. `checkedFiles` are uploaded files the order's create has just
 * checked (read and compared with R2): they are taken as they are.
 */
export async function validateOrder(
	env: Env,
	{ order, items }: StoredOrder,
	now: Date = new Date(),
	checkedFiles: PrintFileRow[] = [],
): Promise<ValidationResult> {
	const catalog = await catalogFacts(databaseOf(env, order.account_id));
	const checkedById = new Map(checkedFiles.map((file) => [file.id, file]));
	const checked: ItemRow[] = [];
	const findings: ItemFindings[] = [];
	const cmykItems: { item: { id: string; fileField: string }; finding: ItemFindings }[] = [];
	for (const item of items) {
		const known = item.print_file_id === null ? undefined : checkedById.get(item.print_file_id);
		const { file, facts } =
			known === undefined ? await resolveFile(env, order, item, now) : { file: known, facts: fileFacts(known) };
		const fileField = item.print_file_url === null ? "print_file_id" : "print_file_url";
		const finding = checkItem(
			{ ...specOf(item), id: item.id, width_in: item.width_in, height_in: item.height_in, fileField },
			facts,
			catalog,
		);
		findings.push(finding);
		if (isCmykFile(file)) cmykItems.push({ item: { id: item.id, fileField }, finding });
		checked.push({
			...item,
			print_file_id: file?.id ?? item.print_file_id,
			effective_dpi: finding.effectiveDpi,
			cropped_percent: finding.croppedPercent,
			warnings: finding.warnings,
		});
	}
	if (cmykItems.length > 0 && (await cmykChoiceOf(env, order.account_id)) === "hold") {
		for (const { item, finding } of cmykItems) finding.problems.push(cmykFileProblem(item));
	}
	const pricing = await repriced(databaseOf(env, order.account_id), order, checked);
	return { verdict: orderVerdict(findings), items: pricing?.items ?? checked, pricing: pricing?.charges ?? null };
}

/**
 * Prices the order again with the book in force when one of its items has no price: a PATCH changed
 * what the item is, or it could not be priced before (an unknown part, fixed since). The quote no
 * longer applies then. Where the order's method is no longer offered (the piece now needs freight),
 * the order gets the method it would have had without asking.
 */
async function repriced(
	db: D1Database,
	order: OrderRow,
	items: ItemRow[],
): Promise<{ items: ItemRow[]; charges: OrderCharges } | null> {
	if (items.every((item) => item.priced !== null)) return null;
	// An order keeps its own currency, whatever the account's is now.
	const facts = await pieceFactsOf(db, order.account_id, new Date(), order.costs?.currency);
	const pieces = items.map((item) => ({
		...sentFraming(specOf(item)),
		width_in: item.width_in,
		height_in: item.height_in,
		quantity: item.quantity,
	}));
	const country = order.ship_to.country;
	const border = {
		terms: order.duty_terms ?? facts.billing.duty_terms,
		region: order.ship_to.state ?? null,
		sent: items.map((item) => sentDeclaredValue(item.declared_value)),
	};
	const asked = priceOrder(pieces, country, order.shipping_method, facts, border);
	const outcome = asked.ok ? asked : priceOrder(pieces, country, null, facts, border);
	if (!outcome.ok) return null;
	const { pricing } = outcome;
	return {
		items: items.map((item, index) => ({
			...item,
			priced: pricing.items[index] ?? null,
			declared_value: pricing.declared[index] ?? null,
		})),
		charges: {
			shipping_method: pricing.shippingMethod,
			costs: pricing.costs,
			quote_id: null,
		},
	};
}

/** The item's print file as it is now, fetching it from its URL the first time, and what it tells the check. */
async function resolveFile(
	env: Env,
	order: OrderRow,
	item: ItemRow,
	now: Date,
): Promise<{ file: PrintFileRow | null; facts: FileFacts }> {
	const owner = { accountId: order.account_id, mode: order.mode };
	if (item.print_file_id !== null) {
		// Compared with R2 on every use: bytes replaced since the check make the file invalid (file_changed).
		const id = item.print_file_id;
		const file = await printFileNow(env, { owner, id, row: findPrintFileById(databaseOf(env, owner.accountId), id) });
		// An uploaded file keeps its id; a file fetched earlier for this item is reused.
		if (item.print_file_url === null || file !== null) return { file, facts: fileFacts(file) };
	}
	if (item.print_file_url === null) return { file: null, facts: fileFacts(null) };
	const fetched = await fetchPrintFile(env, owner, item.print_file_url, now);
	if (!fetched.ok) return { file: null, facts: { kind: "fetch_failed", message: fetched.message } };
	return { file: fetched.file, facts: fileFacts(fetched.file) };
}
