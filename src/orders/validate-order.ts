import { isolateCatalog } from "../catalog/cache.ts";
import { fetchPrintFile } from "../print-files/fetch.ts";
import { currentPrintFileById } from "../print-files/inspection.ts";
import type { PrintFileRow } from "../print-files/store.ts";
import { type CatalogFacts, checkItem, type FileFacts, orderVerdict } from "./item-checks.ts";
import type { ItemRow, StoredOrder } from "./rows.ts";
import type { HoldDetail, HoldReason } from "./state-machine.ts";

export type ValidationResult = {
	verdict: { kind: "pass" } | { kind: "fail"; holdReason: HoldReason; holdDetails: HoldDetail[] };
	/** The items with what validation found: their file id (for fetched files), effective DPI and warnings. */
	items: ItemRow[];
};

/** The catalog as the item check needs it (the isolate's copy, at most a minute old). */
export async function catalogFacts(db: D1Database): Promise<CatalogFacts> {
	const { catalog } = await isolateCatalog.get(db);
	return {
		frames: new Set(catalog.frames.map((frame) => frame.slug)),
		mats: new Set(catalog.mats.map((mat) => mat.slug)),
		minIn: catalog.sizes.min_in,
		maxIn: catalog.sizes.max_in,
	};
}

/** What an inspected (or failed) print file tells the item check. */
export function fileFacts(file: PrintFileRow | null): FileFacts {
	if (file === null) return { kind: "missing", message: "The print file no longer exists." };
	if (file.status === "ready" && file.width_px !== null && file.height_px !== null) {
		return { kind: "ready", widthPx: file.width_px, heightPx: file.height_px };
	}
	if (file.status === "invalid" && file.invalid_reason !== null) {
		return {
			kind: "invalid",
			reason: file.invalid_reason,
			message: file.invalid_message ?? "The file is not a usable image.",
		};
	}
	return { kind: "missing", message: "The print file has not been uploaded." };
}

/**
 * The validating step: fetches `print_file_url` files into R2 (as print files of the order's
 * owner), inspects every file, and checks every item against the resolution rule and the catalog.
 * Slow network work happens here, outside the order's serialized write.
 */
export async function validateOrder(
	env: Env,
	{ order, items }: StoredOrder,
	now: Date = new Date(),
): Promise<ValidationResult> {
	const catalog = await catalogFacts(env.DB);
	const checked: ItemRow[] = [];
	const findings = [];
	for (const item of items) {
		const { file, facts } = await resolveFile(env, order, item, now);
		const finding = checkItem(
			{
				id: item.id,
				width_in: item.width_in,
				height_in: item.height_in,
				frame: item.frame,
				mat: item.mat,
				fileField: item.print_file_url === null ? "print_file_id" : "print_file_url",
			},
			facts,
			catalog,
		);
		findings.push(finding);
		checked.push({
			...item,
			print_file_id: file?.id ?? item.print_file_id,
			effective_dpi: finding.effectiveDpi,
			warnings: JSON.stringify(finding.warnings),
		});
	}
	return { verdict: orderVerdict(findings), items: checked };
}

async function resolveFile(
	env: Env,
	order: StoredOrder["order"],
	item: ItemRow,
	now: Date,
): Promise<{ file: PrintFileRow | null; facts: FileFacts }> {
	if (item.print_file_id !== null) {
		// Compared with R2 on every use: bytes replaced since the check make the file invalid (file_changed).
		const file = await currentPrintFileById(env, item.print_file_id);
		// Creation (or the PATCH) already measured these very bytes at this size.
		if (item.print_file_url === null && item.effective_dpi !== null && file?.status === "ready") {
			return { file: null, facts: { kind: "checked", effectiveDpi: item.effective_dpi } };
		}
		// A file fetched earlier for this item is reused.
		if (item.print_file_url === null || file !== null) {
			return { file, facts: fileFacts(file) };
		}
	}
	if (item.print_file_url === null) return { file: null, facts: fileFacts(null) };
	const fetched = await fetchPrintFile(
		env,
		{ accountId: order.account_id, mode: order.mode },
		item.print_file_url,
		now,
	);
	if (!fetched.ok) return { file: null, facts: { kind: "fetch_failed", message: fetched.message } };
	return { file: fetched.file, facts: fileFacts(fetched.file) };
}
