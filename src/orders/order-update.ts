/**
 * A partner's change of an order (`PATCH /v1/orders/{id}`): the recipient and the shipping method
 * while the order allows it (until the floor starts it: order-actions.ts), the metadata at any time. Shipping is priced again
 * from the order's own price book and the items keep their prices. Run inside the order's Durable
 * Object, so it is serialized with every move of the order and written over the version it read.
 */
import type { Owner } from "../accounts/owner.ts";
import type { ShipTo } from "../addresses/schema.ts";
import { shipToWarnings } from "../addresses/ship-to-warnings.ts";
import { isolateCatalog } from "../catalog/cache.ts";
import { landedCostTables } from "../customs/store.ts";
import { databaseOf } from "../databases.ts";
import { sentFraming, specOf } from "../framing/spec.ts";
import { randomBase62 } from "../ids.ts";
import { rateSheets } from "../money/store.ts";
import { shippingTablesOf } from "../pricing/book.ts";
import { safeSum } from "../pricing/money.ts";
import { type ShippingMethod, zoneOf } from "../pricing/shipping.ts";
import { findPriceBook } from "../pricing/store.ts";
import { type Refusal, refusal } from "../problem.ts";
import { BOOK_CURRENCY, parcelFactsWith } from "../quotes/facts.ts";
import { cartShippingOptions, notOffered, pricePiece } from "../quotes/price-quote.ts";
import { landedCostAgain, type OrderCosts, shownCosts } from "./costs.ts";
import type { OrderUpdateSubject } from "./events.ts";
import { mergeMetadata } from "./metadata.ts";
import type { MoveStep } from "./move-store.ts";
import { shippingChange } from "./order-actions.ts";
import type { OrderRow, StoredOrder } from "./rows.ts";
import { findOwnedOrder } from "./store.ts";
import type { UpdateOrderInput } from "./update-schema.ts";

/** What the change did to the costs, or null when they stayed as they were. */
export type CostsChanged = { shipping: { from: number; to: number }; total: { from: number; to: number } } | null;

/** What a change came to: the order after it, or why not (404, 409 with the order's status, 422). */
export type UpdateOutcome =
	| { ok: true; order: StoredOrder; costsChanged: CostsChanged }
	| { ok: false; kind: "not_found"; message: string }
	| { ok: false; kind: "refused"; message: string; status: string }
	| { ok: false; kind: "invalid"; problem: Refusal };

/** A partner's change: whose order, which, and the fields sent. */
export type UpdateRequest = { owner: Owner; orderId: string; input: UpdateOrderInput };

type Change = OrderUpdateSubject["changes"][number];

/** Whether two JSON values are the same, whatever the order of their keys. */
function sameValue(a: unknown, b: unknown): boolean {
	const canonical = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.map(canonical);
		if (typeof value !== "object" || value === null) return value;
		return Object.fromEntries(
			Object.entries(value)
				.filter(([, entry]) => entry !== undefined)
				.sort(([x], [y]) => (x < y ? -1 : 1))
				.map(([key, entry]) => [key, canonical(entry)]),
		);
	};
	return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/**
 * A change as planned, before it is written: the order as read and, unless nothing changes, the step
 * that writes it (the row at its new version and its `order.updated` event), with what it did to the
 * costs. The order's Durable Object writes the step over the version read.
 */
export type PlannedUpdate =
	| { ok: true; stored: StoredOrder; step: MoveStep | null; costsChanged: CostsChanged }
	| Exclude<UpdateOutcome, { ok: true }>;

/**
 * Applies `input` to `owner`'s order `orderId` as it is now in D1: the step that writes it, or none
 * when nothing changes (then the order is answered as it is, and no event is recorded), or why not.
 */
export async function planUpdate(env: Env, { owner, orderId, input }: UpdateRequest): Promise<PlannedUpdate> {
	const stored = await findOwnedOrder(databaseOf(env, owner.accountId), owner, orderId, env.PRINT_FILES);
	if (stored === null) return { ok: false, kind: "not_found", message: `No order ${orderId}.` };
	const { order } = stored;
	const changes: Change[] = [];
	let after: OrderRow = order;
	const shipTo = input.ship_to ?? order.ship_to;
	const method = input.shipping_method ?? order.shipping_method;
	const recipientChanged = !sameValue(shipTo, order.ship_to);
	const methodChanged = method !== order.shipping_method;
	for (const [changed, what] of [
		[recipientChanged, "recipient"],
		[methodChanged, "shipping method"],
	] as const) {
		const allowed = changed ? shippingChange(order, what) : null;
		if (allowed !== null && !allowed.available) {
			return { ok: false, kind: "refused", message: allowed.reason ?? "", status: order.status };
		}
	}
	if (recipientChanged || methodChanged) {
		const priced = await repricedShipping(databaseOf(env, owner.accountId), stored, shipTo, method);
		if (!priced.ok) return { ok: false, kind: "invalid", problem: priced };
		after = {
			...after,
			ship_to: shipTo,
			shipping_method: method,
			ship_to_warnings: shipToWarnings(shipTo, method),
			costs: priced.costs,
			quote_id: priced.costs === null ? (priced.keepsQuote ? order.quote_id : null) : priced.costs.quote_id,
		};
		if (recipientChanged) changes.push({ field: "ship_to", from: order.ship_to, to: shipTo });
		if (methodChanged) changes.push({ field: "shipping_method", from: order.shipping_method, to: method });
	}
	if (input.metadata !== undefined) {
		const merged = mergeMetadata(order.metadata, input.metadata);
		if (!merged.ok) return { ok: false, kind: "invalid", problem: merged };
		if (!sameValue(merged.metadata, order.metadata)) {
			changes.push({ field: "metadata", from: order.metadata, to: merged.metadata });
			after = { ...after, metadata: merged.metadata };
		}
	}
	if (changes.length === 0) return { ok: true, stored, step: null, costsChanged: null };
	// A new version at the same status: the time the status was entered stays.
	after = { ...after, version: order.version + 1, write_token: randomBase62(16) };
	const step: MoveStep = {
		after,
		event: "order.updated",
		itemUpdates: [],
		made: { move: { kind: "update", update: { changes, costs: shownCosts(after.costs) } }, actor: "partner" },
	};
	return { ok: true, stored, step, costsChanged: costsChangedBy(order.costs, after.costs) };
}

/** What a planned change came to: `written`, the order after it, or null when another move overtook it. */
export function updateOutcome(
	planned: Extract<PlannedUpdate, { ok: true }>,
	written: StoredOrder | null,
): UpdateOutcome {
	if (written !== null) return { ok: true, order: written, costsChanged: planned.costsChanged };
	return {
		ok: false,
		kind: "refused",
		message: "The order changed meanwhile; read it and retry.",
		status: planned.stored.order.status,
	};
}

/** Shipping and total before and after, when either moved. */
function costsChangedBy(before: OrderCosts | null, after: OrderCosts | null): CostsChanged {
	if (before === null || after === null) return null;
	if (before.shipping === after.shipping && before.total === after.total) return null;
	return { shipping: { from: before.shipping, to: after.shipping }, total: { from: before.total, to: after.total } };
}

/**
 * The order's costs with shipping priced again for `shipTo` and `method`, by the price book that
 * priced the order; the items keep their prices. A change within the country at the same method
 * costs the same and keeps a quote; a change of country or method drops the quote (its shipping was
 * for another destination or method). Unpriced orders (an item cannot be priced yet) only need the
 * method offered to the destination by the book in force; validation prices them after the fix.
 */
async function repricedShipping(
	db: D1Database,
	{ order, items }: StoredOrder,
	shipTo: ShipTo,
	method: ShippingMethod,
): Promise<{ ok: true; costs: OrderCosts | null; keepsQuote: boolean } | Refusal> {
	// Where the border's charges turn on the region (Canada's provinces), a new region prices them again.
	const sameRegion =
		order.costs?.landed_cost?.coverage !== "estimated" || (shipTo.state ?? null) === (order.ship_to.state ?? null);
	const keepsQuote = shipTo.country === order.ship_to.country && method === order.shipping_method && sameRegion;
	if (keepsQuote) return { ok: true, costs: order.costs, keepsQuote };
	const costs = order.costs;
	const book = await findPriceBook(db, costs?.price_book_version);
	if (book === null) throw new Error(`price book ${costs?.price_book_version ?? "in force"} is missing`);
	// An unpriced order has no shipping to price again: its method need only be offered there.
	if (costs === null) {
		const offered = shippingTablesOf(book).rates[zoneOf(shipTo.country)];
		if (offered[method] !== undefined) return { ok: true, costs, keepsQuote };
		const methods = Object.keys(offered).join(", ");
		return refusal(
			"shipping_method_not_offered",
			"shipping_method",
			`${method} is not offered to ${shipTo.country} (offered: ${methods})`,
		);
	}
	// Only the parcels are wanted here, which the account's discount does not change.
	const facts = parcelFactsWith(await isolateCatalog.get(db), book);
	const parcels = [];
	for (const item of items) {
		const priced = pricePiece(
			{ ...sentFraming(specOf(item)), width_in: item.width_in, height_in: item.height_in, quantity: item.quantity },
			facts,
		);
		if (!priced.ok) {
			return refusal("invalid_field", "shipping_method", `cannot be priced again: ${priced.message}`);
		}
		parcels.push(priced.parcel);
	}
	// In the order's own currency, at the rates and under the table that priced it.
	const sheet =
		costs.exchange_rate === undefined ? null : await rateSheets.version(db, costs.exchange_rate.sheet_version);
	const money =
		sheet === null
			? BOOK_CURRENCY
			: { currency: costs.currency, rates: sheet.per_usd_micros, sheetVersion: sheet.version };
	const options = cartShippingOptions(parcels, shipTo.country, book, money);
	const option = options.find((candidate) => candidate.method === method);
	if (option === undefined) {
		return refusal("shipping_method_not_offered", "shipping_method", notOffered(method, shipTo.country, options));
	}
	const shipping = option.cost;
	const table =
		costs.landed_cost === undefined ? null : await landedCostTables.version(db, costs.landed_cost.table_version);
	const again =
		table === null
			? { ok: true as const, landed: null }
			: landedCostAgain({ costs, duty_terms: order.duty_terms }, items, shipTo, shipping, {
					table,
					rates: money.rates,
				});
	if (!again.ok) return again;
	const taxes = again.landed?.charged_to_partner ?? costs.taxes_and_duties ?? 0;
	const total = safeSum([costs.items, shipping, taxes], "order total");
	const border = again.landed === null ? {} : { taxes_and_duties: taxes, landed_cost: again.landed };
	return { ok: true, costs: { ...costs, shipping, ...border, total, quote_id: null }, keepsQuote };
}
