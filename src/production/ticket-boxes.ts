/**
 * Which box each unit of an order goes in, as the product model packs it (one box per framed unit, in
 * item order; one flat box, last, for every unframed print) and the boxes' sizes and billable weights
 * where the model gives them: the work ticket's pack-out line.
 */

import { directoryDatabase } from "../databases.ts";
import { inchesText } from "../framing/words.ts";
import { log } from "../log.ts";
import { boxingFacts, packagerWith } from "../orders/shipment-packages.ts";
import type { ShipmentPackage } from "../orders/shipments.ts";
import type { OrderSheet, SheetItem } from "./order-sheet.ts";

/** An item's boxes: their numbers among the order's, whether it is the shared flat box, and their sizes if known. */
export type ItemBoxes = {
	numbers: number[];
	total: number;
	/** The other items whose prints share the flat box, by name. */
	sharedWith: string[];
	flat: boolean;
	/** The item's boxes' sizes and weights, in the order of `numbers`; empty when the model gives none. */
	packages: ShipmentPackage[];
};

/** The boxes of each of an order's items, numbered as `packages` (the order's, as the model packs them) lists them. */
export function boxesOfOrder(
	items: ReadonlyArray<Pick<SheetItem, "id" | "name" | "quantity" | "frame">>,
	packages: readonly ShipmentPackage[],
): Map<string, ItemBoxes> {
	const framedUnits = items.reduce((sum, item) => sum + (item.frame === null ? 0 : item.quantity), 0);
	const flats = items.filter((item) => item.frame === null && item.quantity > 0);
	const total = framedUnits + (flats.length > 0 ? 1 : 0);
	const sized = packages.length === total;
	const boxes = new Map<string, ItemBoxes>();
	let next = 1;
	for (const item of items) {
		if (item.frame === null) {
			const shared = flats.filter((other) => other.id !== item.id).map((other) => other.name);
			const packed = sized ? packages.slice(total - 1, total) : [];
			boxes.set(item.id, { numbers: [total], total, sharedWith: shared, flat: true, packages: packed });
			continue;
		}
		const numbers = Array.from({ length: item.quantity }, (_, index) => next + index);
		const packed = sized ? packages.slice(next - 1, next - 1 + item.quantity) : [];
		boxes.set(item.id, { numbers, total, sharedWith: [], flat: false, packages: packed });
		next += item.quantity;
	}
	return boxes;
}

/**
 * The boxes of every item of `sheets`, by item id. The price book and the catalog are read once for
 * the whole batch; without them the boxes are numbered without sizes.
 */
export async function ticketBoxes(env: Env, sheets: readonly OrderSheet[]): Promise<Map<string, ItemBoxes>> {
	let facts: Awaited<ReturnType<typeof boxingFacts>> | null = null;
	try {
		facts = await boxingFacts(directoryDatabase(env));
	} catch (error) {
		log.warn("work_ticket.boxes_unsized", { message: error instanceof Error ? error.message : String(error) });
	}
	const boxes = new Map<string, ItemBoxes>();
	for (const sheet of sheets) {
		const { items } = sheet.stored;
		const packages =
			facts === null
				? []
				: packagerWith(facts, items)(items.map((item) => ({ item_id: item.id, quantity: item.quantity })));
		for (const [itemId, itemBoxes] of boxesOfOrder(sheet.items, packages)) boxes.set(itemId, itemBoxes);
	}
	return boxes;
}

/** `12 1/4 × 14 1/4 × 4 in, 5 lb billable`. */
export function packageText(box: ShipmentPackage): string {
	return `${inchesText(box.length_in)} × ${inchesText(box.width_in)} × ${inchesText(box.depth_in)} in, ${box.billable_weight_lb} lb billable`;
}

/** The pack-out line: `Box 2 of 3`, `Boxes 1–2 of 3, one unit each`, or the flat box and who shares it. */
export function boxesText(boxes: ItemBoxes): string {
	const [first] = boxes.numbers;
	const last = boxes.numbers.at(-1);
	if (first === undefined || last === undefined) return "No box: nothing to make.";
	if (boxes.flat) {
		const shared = boxes.sharedWith.length === 0 ? "" : `, with ${boxes.sharedWith.join(" and ")}`;
		return `Box ${first} of ${boxes.total}: the flat box for the unframed prints${shared}`;
	}
	if (first === last) return `Box ${first} of ${boxes.total}`;
	const range = last === first + 1 ? `${first} and ${last}` : `${first}–${last}`;
	return `Boxes ${range} of ${boxes.total}, one unit in each`;
}
