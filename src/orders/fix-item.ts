/**
 * A partner's fix of an item of an order on hold, or in production until the floor starts it: a new
 * file, size, frame or mat. The item as changed must be buildable and its uploaded file print at its size; the order is then validated again.
 */

import type { Owner } from "../accounts/owner.ts";
import { allowsLocalUrls } from "../config.ts";
import { databaseOf } from "../databases.ts";
import {
	completeFraming,
	FRAMING_FIELDS,
	type FramingInput,
	framingProblem,
	sentFraming,
	specOf,
} from "../framing/spec.ts";
import { outboundUrlProblem } from "../http/outbound-url.ts";
import { expiredSinceChecked } from "../print-files/retention.ts";
import { type Refusal, refusal, refusalOf } from "../problem.ts";
import { moveResult, type OrderMoved, orderMachine } from "./machine.ts";
import { itemsChange } from "./order-actions.ts";
import { checkUploadedFile } from "./order-files.ts";
import type { ItemRow } from "./rows.ts";
import type { PatchItemInput } from "./schema.ts";
import { findOwnedOrder } from "./store.ts";

/**
 * Changes item `itemId` of `owner`'s order `orderId` as `patch` says and hands the order back to
 * validation; or why not: an unknown order or item, items that can no longer change (order-actions.ts
 * says when they can), or a change that is refused, on the field at fault.
 */
export async function fixItem(
	env: Env,
	owner: Owner,
	orderId: string,
	itemId: string,
	patch: PatchItemInput,
): Promise<OrderMoved> {
	const found = await findOwnedOrder(databaseOf(env, owner.accountId), owner, orderId, env.PRINT_FILES);
	if (found === null) return refusal("order_not_found", "id", `No order ${orderId}.`);
	const item = found.items.find((candidate) => candidate.id === itemId);
	if (item === undefined) return refusal("order_item_not_found", "item_id", `Order ${orderId} has no item ${itemId}.`);
	const allowed = itemsChange(found);
	if (!allowed.available) {
		return refusalOf("order_not_editable", `${allowed.reason ?? ""} (current status: ${found.order.status})`);
	}
	if (found.shipments.some((shipment) => shipment.items.some((unit) => unit.item_id === itemId))) {
		return refusalOf("order_not_editable", `Item ${itemId} has units shipped already: it cannot change.`);
	}
	if (patch.print_file_url !== undefined) {
		const message = outboundUrlProblem(patch.print_file_url, { allowLocal: allowsLocalUrls(env) });
		if (message !== null) return refusal("url_not_allowed", "print_file_url", message);
	}
	const patched = patchedItem(item, patch);
	if (!patched.ok) return patched;
	let changed = patched.item;
	// An uploaded file is judged now, at the item's new size; a URL is fetched by validation.
	if (changed.print_file_id !== null && changed.print_file_url === null) {
		const checked = await checkUploadedFile(env, owner, changed.print_file_id, changed, "print_file_id");
		if (!checked.ok) return checked;
		const { effectiveDpi, croppedPercent, warnings } = checked;
		changed = { ...changed, effective_dpi: effectiveDpi, cropped_percent: croppedPercent, warnings };
	}
	const changes = [{ field: "items" as const, ...itemChange(item, changed) }];
	const fileId = changed.print_file_id;
	try {
		return moveResult(
			await orderMachine(env, orderId).move(orderId, { kind: "fix_items", changes }, "partner", [changed]),
		);
	} catch (error) {
		// The file may have expired between its check and the write: the database then refused the change.
		const uses = fileId === null ? [] : [{ fileId, field: "print_file_id" }];
		const expired = await expiredSinceChecked(databaseOf(env, owner.accountId), owner.accountId, uses);
		if (expired === null) throw error;
		return expired;
	}
}

/** The item's fields the fix changed, before and after, each with the item's id. */
function itemChange(before: ItemRow, after: ItemRow): { from: Record<string, unknown>; to: Record<string, unknown> } {
	const fields = ["print_file_id", "print_file_url", "width_in", "height_in", ...FRAMING_FIELDS] as const;
	const changed = fields.filter((field) => before[field] !== after[field]);
	return {
		from: { item_id: before.id, ...Object.fromEntries(changed.map((field) => [field, before[field]])) },
		to: { item_id: after.id, ...Object.fromEntries(changed.map((field) => [field, after[field]])) },
	};
}

/**
 * The item as a PATCH leaves it: the fields sent replace the stored ones, a framing field sent as
 * null goes back to its default, and the result must be buildable (else a refusal on the field at fault).
 * A change of size or of anything but `fit` drops the item's price, so validation prices the order
 * again with the book in force; a new file alone changes no price.
 */
function patchedItem(item: ItemRow, patch: PatchItemInput): { ok: true; item: ItemRow } | Refusal {
	const before = specOf(item);
	const sent: FramingInput = sentFraming(before);
	for (const key of FRAMING_FIELDS) {
		const value = patch[key];
		if (value === null) delete sent[key];
		else if (value !== undefined) Object.assign(sent, { [key]: value });
	}
	const problem = framingProblem(sent);
	if (problem !== null) return refusal("invalid_field", problem.field, problem.message);
	const spec = completeFraming(sent);
	const width = patch.width_in ?? item.width_in;
	const height = patch.height_in ?? item.height_in;
	const repriced =
		width !== item.width_in ||
		height !== item.height_in ||
		FRAMING_FIELDS.some((key) => key !== "fit" && spec[key] !== before[key]);
	const changed: ItemRow = {
		...item,
		...spec,
		width_in: width,
		height_in: height,
		...(patch.print_file_id !== undefined ? { print_file_id: patch.print_file_id, print_file_url: null } : {}),
		...(patch.print_file_url !== undefined ? { print_file_id: null, print_file_url: patch.print_file_url } : {}),
		effective_dpi: null,
		cropped_percent: null,
		warnings: [],
		priced: repriced ? null : item.priced,
	};
	return { ok: true, item: changed };
}
