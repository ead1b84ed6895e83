/**
 * The commercial invoice of an order, read from its sheet: the order's own terms, landed cost, declared
 * values and tariff codes, the brand its packing slip prints, the boxes its work tickets name, and the
 * service's facility and IOSS number from the configuration. The API's route and the console's serve it.
 */
import { configOf } from "../config.ts";
import type { LandedCost } from "../customs/landed-cost.ts";
import { itemCustoms } from "../orders/costs.ts";
import { type Refusal, refusalOf } from "../problem.ts";
import { type CommercialInvoiceContent, type InvoiceItem, renderCommercialInvoice } from "./commercial-invoice.tsx";
import type { OrderSheet } from "./order-sheet.ts";
import type { PaperSize } from "./packing-slip.tsx";
import { type ItemBoxes, ticketBoxes } from "./ticket-boxes.ts";

/** Whether an order's costs say it crosses a border (a landed cost other than domestic): only then has it an invoice. */
export function crossesBorder(costs: { landed_cost?: Pick<LandedCost, "coverage"> } | null): boolean {
	const coverage = costs?.landed_cost?.coverage;
	return coverage === "estimated" || coverage === "not_covered";
}

/** The packed weight of each item's boxes and of the order's, or nulls where the model gives no sizes. */
function weightsOf(
	sheet: OrderSheet,
	boxes: Map<string, ItemBoxes>,
): { byItem: Map<string, InvoiceItem["weight"]>; packages: CommercialInvoiceContent["packages"] } {
	const byItem = new Map<string, InvoiceItem["weight"]>();
	let count = 0;
	let weightLb = 0;
	let sized = true;
	let flatCounted = false;
	for (const item of sheet.items) {
		const itemBoxes = boxes.get(item.id);
		if (itemBoxes === undefined || itemBoxes.packages.length === 0) {
			sized = false;
			byItem.set(item.id, null);
			continue;
		}
		const lb = itemBoxes.packages.reduce((sum, box) => sum + box.billable_weight_lb, 0);
		byItem.set(item.id, { lb, sharedBox: itemBoxes.sharedWith.length > 0 });
		// The flat box is every unframed item's: counted once.
		if (itemBoxes.flat && flatCounted) continue;
		flatCounted ||= itemBoxes.flat;
		count += itemBoxes.packages.length;
		weightLb += lb;
	}
	return { byItem, packages: sized && count > 0 ? { count, weightLb } : null };
}

/**
 * What the invoice of an order prints; refused when the order crosses no border (domestic, or not yet
 * priced) or when the configuration lacks the facility's address, or the IOSS number an order under
 * IOSS must show.
 */
export async function invoiceContentOf(
	env: Env,
	sheet: OrderSheet,
): Promise<{ ok: true; content: CommercialInvoiceContent } | Refusal> {
	const { order, costs } = sheet;
	const landedCost = costs?.landed_cost;
	if (costs === null || landedCost === undefined || !crossesBorder(costs)) {
		return refusalOf(
			"no_commercial_invoice",
			`Order ${order.id} crosses no border (its ship-to is ${order.ship_to.country}${costs === null ? " and it is not priced yet" : ""}): it ships without a commercial invoice.`,
		);
	}
	const config = configOf(env);
	if (config.SHIP_FROM_ADDRESS === undefined) {
		return refusalOf(
			"invoice_settings_unset",
			"The service's ship-from address (SHIP_FROM_ADDRESS) is not set: no commercial invoice can be printed.",
		);
	}
	if (landedCost.ioss && config.IOSS_NUMBER === undefined) {
		return refusalOf(
			"invoice_settings_unset",
			`Order ${order.id}'s import VAT was charged under the service's IOSS, but its number (IOSS_NUMBER) is not set.`,
		);
	}
	const weights = weightsOf(sheet, await ticketBoxes(env, [sheet]));
	const stored = new Map(sheet.stored.items.map((item) => [item.id, item]));
	const items = sheet.items.flatMap((item): InvoiceItem[] => {
		const row = stored.get(item.id);
		if (row === undefined) return [];
		return [
			{
				position: item.position,
				widthIn: item.widthIn,
				heightIn: item.heightIn,
				frame: item.frame,
				mat: item.mat,
				quantity: item.quantity,
				declaredValue:
					row.declared_value === null
						? null
						: { amount: row.declared_value.amount, currency: row.declared_value.currency },
				customs: itemCustoms(row, costs),
				weight: weights.byItem.get(item.id) ?? null,
			},
		];
	});
	return {
		ok: true,
		content: {
			order: {
				id: order.id,
				external_id: order.external_id,
				created_at: order.created_at,
				duty_terms: order.duty_terms ?? landedCost.terms,
			},
			brandName: sheet.brand?.brand_name ?? null,
			shipFrom: config.SHIP_FROM_ADDRESS,
			shipTo: sheet.shipTo,
			landedCost,
			iossNumber: config.IOSS_NUMBER ?? null,
			shipping: { amount: costs.shipping, currency: costs.currency },
			items,
			packages: weights.packages,
		},
	};
}

/** The commercial invoice of an order's sheet as a complete HTML document, or why it has none. */
export async function renderOrderInvoice(
	env: Env,
	sheet: OrderSheet,
	paper: PaperSize | null,
): Promise<{ ok: true; html: string } | Refusal> {
	const read = await invoiceContentOf(env, sheet);
	if (!read.ok) return read;
	return { ok: true, html: await renderCommercialInvoice(read.content, paper) };
}
