/**
 * A sheet of orders judged and then placed: the dry run checks and prices each order exactly as a
 * create would (nothing is stored), and names what would hold it; the create then places, through
 * `createOrder`, the orders the dry run found ready, judged again as they are now. An external id
 * already placed with the same content is that order (a re-upload places nothing twice).
 */
import { isolateCatalog } from "../catalog/cache.ts";
import { databaseOf } from "../databases.ts";
import { sha256Hex } from "../ids.ts";
import type { Refusal } from "../problem.ts";
import type { OrderCosts } from "./costs.ts";
import { checkNewOrder, createOrder, type OrderCreated, type OrderOwner } from "./create-order.ts";
import { buildProblems, catalogFactsOf } from "./item-checks.ts";
import type { SheetOrder } from "./order-sheet.ts";
import { type CreateOrderInput, canonicalOrderRequest } from "./schema.ts";
import { findOrderByExternalId } from "./store.ts";

/** A sheet's order as judged: its rows' and its own problems, its price, and the order an earlier upload placed. */
export type CheckedOrder = SheetOrder & {
	costs: OrderCosts | null;
	/** The order already placed under this external id with the same content, if any. */
	placedOrderId: string | null;
	/** Whether the create would place it: no problem anywhere, and not placed before. */
	ready: boolean;
};

/** The item index and the item's own field of a refusal's field (`items[2].print_file_id`), or null for an order field. */
function itemFieldOf(field: string | undefined): { index: number; field: string } | null {
	const match = /^items\[(\d+)\]\.?(.*)$/.exec(field ?? "");
	if (match === null) return null;
	return { index: Number(match[1]), field: match[2] ?? "" };
}

function refusalWords(refused: Refusal, field: string): string {
	return field === "" ? refused.message : `${field}: ${refused.message}`;
}

/** Judges one order of a sheet as a create would, storing nothing. */
async function checkOrder(env: Env, owner: OrderOwner, order: SheetOrder): Promise<CheckedOrder> {
	const unready = { ...order, costs: null, placedOrderId: null, ready: false };
	const input = order.input;
	if (input === null) return unready;
	const placed = await findOrderByExternalId(
		databaseOf(env, owner.accountId),
		owner,
		input.external_id,
		env.PRINT_FILES,
	);
	if (placed !== null) {
		if (placed.order.request_hash === (await sha256Hex(canonicalOrderRequest(input)))) {
			return { ...unready, costs: placed.order.costs, placedOrderId: placed.order.id };
		}
		const message = `external_id "${input.external_id}" is already used by order ${placed.order.id} with different content.`;
		return { ...unready, problems: [...order.problems, message] };
	}
	const rows = order.rows.map((row) => ({ ...row, problems: [...row.problems] }));
	const problems = [...order.problems];
	const checked = await checkNewOrder(env, owner, input);
	if (!checked.ok) {
		const onItem = itemFieldOf(checked.field);
		const row = onItem === null ? undefined : rows[onItem.index];
		if (onItem === null || row === undefined) problems.push(refusalWords(checked, checked.field ?? ""));
		else {
			row.problems.push(refusalWords(checked, onItem.field));
			await checkEachItem(env, owner, input, rows, onItem.index);
		}
		return { ...unready, rows, problems };
	}
	const catalog = catalogFactsOf((await isolateCatalog.get(databaseOf(env, owner.accountId))).catalog);
	checked.order.items.forEach((item, index) => {
		for (const held of buildProblems(item, catalog)) {
			rows[index]?.problems.push(`${held.detail.field}: ${held.detail.message} (the order would be held)`);
		}
	});
	const ready = rows.every((row) => row.problems.length === 0);
	return { ...order, rows, problems, costs: checked.order.order.costs, placedOrderId: null, ready };
}

/** Each item but `skipped` checked on its own, so every row's file refusal is named, not only the first. */
async function checkEachItem(
	env: Env,
	owner: OrderOwner,
	input: CreateOrderInput,
	rows: { problems: string[] }[],
	skipped: number,
): Promise<void> {
	await Promise.all(
		input.items.map(async (item, index) => {
			if (index === skipped) return;
			const alone = await checkNewOrder(env, owner, { ...input, items: [item] });
			const onItem = alone.ok ? null : itemFieldOf(alone.field);
			if (!alone.ok && onItem !== null) rows[index]?.problems.push(refusalWords(alone, onItem.field));
		}),
	);
}

/** The dry run: every order of the sheet judged and priced; nothing is created. */
export async function checkSheet(env: Env, owner: OrderOwner, orders: readonly SheetOrder[]): Promise<CheckedOrder[]> {
	const checked: CheckedOrder[] = [];
	// One order after another: each check reads the account's database, and a sheet has at most 200 rows.
	for (const order of orders) checked.push(await checkOrder(env, owner, order));
	return checked;
}

/** What the create did with one order of the sheet. */
export type PlacedOrder =
	| { externalId: string; kind: "created"; created: OrderCreated & { replayed: false } }
	| { externalId: string; kind: "already_placed"; orderId: string }
	| { externalId: string; kind: "not_placed" };

/**
 * The create: the sheet judged again now, and each order found ready created through `createOrder`
 * (an order placed meanwhile under its external id answers as the API does: the same order, or a
 * refusal). Orders with a problem are not placed.
 */
export async function placeSheet(
	env: Env,
	owner: OrderOwner,
	orders: readonly SheetOrder[],
): Promise<{
	checked: CheckedOrder[];
	placed: PlacedOrder[];
}> {
	const checked = await checkSheet(env, owner, orders);
	const placed: PlacedOrder[] = [];
	for (const order of checked) {
		const { externalId } = order;
		if (order.placedOrderId !== null) {
			placed.push({ externalId, kind: "already_placed", orderId: order.placedOrderId });
			continue;
		}
		if (!order.ready || order.input === null) {
			placed.push({ externalId, kind: "not_placed" });
			continue;
		}
		const created = await createOrder(env, owner, order.input);
		if (!created.ok) {
			order.problems.push(created.message);
			placed.push({ externalId, kind: "not_placed" });
		} else if (created.replayed) placed.push({ externalId, kind: "already_placed", orderId: created.order.order.id });
		else placed.push({ externalId, kind: "created", created });
	}
	return { checked, placed };
}
