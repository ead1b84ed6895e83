import { isolateCatalog } from "../catalog/cache.ts";
import { allowsLocalUrls } from "../config.ts";
import { newId } from "../ids.ts";
import { currentPrintFile } from "../print-files/inspection.ts";
import { findPrintFileById, insertPrintFile, type PrintFileRow } from "../print-files/store.ts";
import { fetchPrintFileIntoR2 } from "./fetch-print-file.ts";
import { type CatalogFacts, checkItem, type FileFacts, orderVerdict } from "./item-checks.ts";
import type { HoldDetail, HoldReason } from "./state-machine.ts";
import type { ItemRow, StoredOrder } from "./store.ts";

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
		const known = await findPrintFileById(env.DB, item.print_file_id);
		// Compared with R2 on every use: bytes replaced since the check make the file invalid (file_changed).
		const file = known === null ? null : await currentPrintFile(env, known);
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
	const id = newId("pf");
	const r2Key = `print-files/${order.mode}/${order.account_id}/${id}`;
	const fetched = await fetchPrintFileIntoR2(env.PRINT_FILES, r2Key, item.print_file_url, {
		allowLocal: allowsLocalUrls(env),
	});
	// Only a fetched file becomes a print file of the account; a failed fetch leaves no row behind.
	if (!fetched.ok) return { file: null, facts: { kind: "fetch_failed", message: fetched.message } };
	await insertPrintFile(env.DB, {
		id,
		account_id: order.account_id,
		mode: order.mode,
		filename: fileNameOf(item.print_file_url),
		content_type: "application/octet-stream",
		declared_size_bytes: null,
		r2_key: r2Key,
		created_at: now.toISOString(),
		// No upload URL is issued for a fetched file: the service fetched it itself.
		expires_at: now.toISOString(),
	});
	const row = await findPrintFileById(env.DB, id);
	const file = row === null ? null : await currentPrintFile(env, row);
	return { file, facts: fileFacts(file) };
}

function fileNameOf(url: string): string | null {
	const last = new URL(url).pathname.split("/").pop() ?? "";
	if (last === "") return null;
	try {
		return decodeURIComponent(last).slice(0, 255);
	} catch {
		return last.slice(0, 255);
	}
}
