import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { KeyMode } from "../../src/accounts/scopes.ts";
import type { NewAccount } from "../../src/admin/provisioning.ts";
import { completeFraming } from "../../src/framing/spec.ts";
import { newId } from "../../src/ids.ts";
import type { Order } from "../../src/orders/response.ts";
import { type ItemRow, newOrderRow, type OrderRow, type StoredOrder } from "../../src/orders/rows.ts";
import type { OrderStatus } from "../../src/orders/state-machine.ts";
import { insertOrder } from "../../src/orders/store.ts";
import { api, createAdminKey, createKeyWithScopes, createPartner, send } from "../helpers.ts";
import { pngClaiming, uploadedFile } from "../print-files/upload-helpers.ts";

/** A ready print file whose header says `widthPx` × `heightPx` (see pngClaiming). */
export function readyFile(key: string, widthPx: number, heightPx: number): Promise<string> {
	return uploadedFile(key, pngClaiming(widthPx, heightPx));
}

/** A partner with a ready print file, as partnerWithFile makes it. */
export type PartnerWithFile = { partner: NewAccount; key: string; file: string };

/** What partnerWithFile makes: the account's name, the file's pixel size, the account's order burst. */
export type PartnerWithFileOptions = { name?: string; widthPx?: number; heightPx?: number; orderBurst?: number };

/**
 * A fresh partner (`name`, else createPartner's), its live key and a ready file of `widthPx` × `heightPx`
 * (2400 × 3000 unless told: 300 DPI at 8 × 10 in); `orderBurst` sets its order bucket's size, and
 * `opsKey: true` adds a new `ops` key.
 */
export function partnerWithFile(
	options: PartnerWithFileOptions & { opsKey: true },
): Promise<PartnerWithFile & { opsKey: string }>;
export function partnerWithFile(options?: PartnerWithFileOptions): Promise<PartnerWithFile>;
export async function partnerWithFile(
	options: PartnerWithFileOptions & { opsKey?: boolean } = {},
): Promise<PartnerWithFile & { opsKey?: string }> {
	const { name, widthPx = 2400, heightPx = 3000, orderBurst } = options;
	const partner = await createPartner(name);
	if (orderBurst !== undefined) {
		await env.DB.prepare("UPDATE accounts SET order_burst = ?2 WHERE id = ?1")
			.bind(partner.account.id, orderBurst)
			.run();
	}
	const key = partner.keys.live.key;
	const file = await readyFile(key, widthPx, heightPx);
	if (options.opsKey !== true) return { partner, key, file };
	return { partner, key, file, opsKey: await createKeyWithScopes(["ops"]) };
}

/** Tracking a shipping move can give: a well-formed UPS number. */
export const TRACKING = {
	carrier: "UPS",
	number: "1Z999AA10123456784",
	url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
};

/** A valid US shipping address. */
export const SHIP_TO = {
	name: "Ada Lovelace",
	address1: "12 Harbour Street",
	city: "Portland",
	state: "ME",
	zip: "04101",
	country: "US",
};

let counter = 0;
/** A unique external id. */
export function externalId(prefix = "PO"): string {
	counter += 1;
	return `${prefix}-${Date.now()}-${counter}`;
}

/**
 * An order of `owner` in `status`, made at `now`, with one unframed 8 × 10 in item from
 * `printFileUrl`: the rows only, not written.
 */
export function rawOrder(
	owner: { accountId: string; mode: KeyMode },
	status: OrderStatus,
	printFileUrl: string,
	options: { externalId?: string; now?: Date } = {},
): StoredOrder {
	const id = newId("ord");
	const order = newOrderRow({
		id,
		accountId: owner.accountId,
		mode: owner.mode,
		externalId: options.externalId ?? externalId("RAW"),
		requestHash: "0".repeat(64),
		shipTo: SHIP_TO,
		callbackUrl: null,
		now: options.now ?? new Date(),
		status,
	});
	const item: ItemRow = {
		id: newId("itm"),
		order_id: id,
		position: 0,
		print_file_id: null,
		print_file_url: printFileUrl,
		width_in: 8,
		height_in: 10,
		...completeFraming({}),
		quantity: 1,
		effective_dpi: null,
		cropped_percent: null,
		warnings: [],
		priced: null,
		declared_value: null,
	};
	return { order, items: [item], shipments: [] };
}

/**
 * `rawOrder` written straight to D1 without waking its Durable Object: the state of an order whose
 * machine was never reached, so no alarm moves it on under the test. Its id and external id.
 */
export async function insertRawOrder(
	owner: { accountId: string; mode: KeyMode },
	status: OrderStatus,
	printFileUrl: string,
	options: { externalId?: string; now?: Date } = {},
): Promise<{ id: string; externalId: string }> {
	const { order, items } = rawOrder(owner, status, printFileUrl, options);
	await insertOrder(env.DB, order, items, new Date(order.created_at));
	return { id: order.id, externalId: order.external_id };
}

/** An 8 × 10 in item whose file comes from `url`, `overrides` changing any field. */
export function urlItem(url: string, overrides: Record<string, unknown> = {}) {
	return { print_file_url: url, width_in: 8, height_in: 10, ...overrides };
}

/** A create body with these items, SHIP_TO and a fresh external_id starting with `prefix`. */
export function bodyWithItems(items: Record<string, unknown>[], prefix = "PO") {
	return { external_id: externalId(prefix), ship_to: SHIP_TO, items };
}

/** A create body with one 8 × 10 in item from `url` (`item` overriding), its external_id starting with `prefix`. */
export function urlOrderBody(url: string, prefix: string, item: Record<string, unknown> = {}) {
	return bodyWithItems([urlItem(url, item)], prefix);
}

/** A create body with one item of the given file and size. */
export function orderBody(
	printFileId: string,
	overrides: Record<string, unknown> = {},
	item: Record<string, unknown> = {},
) {
	return {
		external_id: externalId(),
		ship_to: SHIP_TO,
		items: [
			{
				print_file_id: printFileId,
				width_in: 8,
				height_in: 10,
				frame: "walnut-flat-075",
				mat: "bright-white",
				...item,
			},
		],
		...overrides,
	};
}

/** POST /v1/orders: the response, whatever it is. */
export function postOrder(key: string, body: unknown): Promise<Response> {
	return send("POST", "/v1/orders", key, body);
}

/** POST /v1/orders, expecting `status`, returning the order. */
export async function createOrder(key: string, body: unknown, status = 201): Promise<Order> {
	const response = await postOrder(key, body);
	if (response.status !== status)
		throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
	return (await response.json()) as Order;
}

/** How many orders the account has stored under `externalIdValue` (-1 if the count fails). */
export async function countOrders(accountId: string, externalIdValue: string): Promise<number> {
	const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE account_id = ?1 AND external_id = ?2")
		.bind(accountId, externalIdValue)
		.first<{ n: number }>();
	return row?.n ?? -1;
}

/** GET /v1/orders/{id}. */
export async function readOrder(key: string, id: string): Promise<Order> {
	const response = await api(`/v1/orders/${id}`, { key });
	expect(response.status).toBe(200);
	return (await response.json()) as Order;
}

/** POST /v1/ops/orders/{id}/{action}, with a JSON body when given. */
export function opsMove(opsKey: string, orderId: string, action: string, body?: unknown): Promise<Response> {
	const path = `/v1/ops/orders/${orderId}/${action}`;
	return body === undefined ? api(path, { method: "POST", key: opsKey }) : send("POST", path, opsKey, body);
}

/** An operator move that must succeed: the order after it. */
export async function opsMoveOk(opsKey: string, orderId: string, action: string, body?: unknown): Promise<Order> {
	const response = await opsMove(opsKey, orderId, action, body);
	if (response.status !== 200)
		throw new Error(`${action}: expected 200, got ${response.status}: ${await response.text()}`);
	return (await response.json()) as Order;
}

/**
 * Runs the order's Durable Object alarm (validation, or a sandbox step) now, if one is set, as if
 * its time had come: the alarm's recorded time is moved to now first, since the machine ignores an
 * alarm that fires before the time it was set for.
 */
export async function runOrderAlarm(orderId: string): Promise<boolean> {
	const stub = env.ORDER_MACHINE.get(env.ORDER_MACHINE.idFromName(orderId));
	await runInDurableObject(stub, async (_machine, state) => {
		const intent = await state.storage.get<{ version: number; at: number }>("alarm_intent");
		if (intent !== undefined) await state.storage.put("alarm_intent", { ...intent, at: Date.now() });
	});
	return runDurableObjectAlarm(stub);
}

/** Drives the order's alarms until it leaves received/validating, and returns it. */
export async function settleValidation(key: string, orderId: string): Promise<Order> {
	for (let step = 0; step < 10; step++) {
		const order = await readOrder(key, orderId);
		if (order.status !== "received" && order.status !== "validating") return order;
		await runOrderAlarm(orderId);
	}
	return readOrder(key, orderId);
}

/** An event row of an order: its type and parsed body. */
export type EventRow = { type: string; body: Record<string, unknown> };

/** The order's event rows, in the order they were written. */
export async function eventsOf(orderId: string): Promise<EventRow[]> {
	const { results } = await env.DB.prepare(
		"SELECT type, body FROM events WHERE order_id = ?1 ORDER BY created_at, rowid",
	)
		.bind(orderId)
		.all<{ type: string; body: string }>();
	return results.map((row) => ({ type: row.type, body: JSON.parse(row.body) as Record<string, unknown> }));
}

/** The order's event types, in the order they were written. */
export async function eventTypes(orderId: string): Promise<string[]> {
	return (await eventsOf(orderId)).map((event) => event.type);
}

/** The body of the order's one event of `type`. */
export async function eventBody(orderId: string, type: string): Promise<Record<string, unknown>> {
	const matching = (await eventsOf(orderId)).filter((event) => event.type === type);
	expect(matching).toHaveLength(1);
	return matching[0]?.body ?? {};
}

/**
 * A received order with no items, of a new partner, written straight to D1 (no Durable Object moves it
 * under the test), as the store's own tests need it.
 */
export async function insertReceivedOrder(prefix: string, callbackUrl: string | null = null): Promise<OrderRow> {
	const partner = await createPartner();
	const now = new Date();
	const order = newOrderRow({
		id: newId("ord"),
		accountId: partner.account.id,
		mode: "live",
		externalId: externalId(prefix),
		requestHash: "0".repeat(64),
		shipTo: SHIP_TO,
		callbackUrl,
		now,
	});
	await insertOrder(env.DB, order, [], now);
	return order;
}

/** A new partner with a ready file and an ops key, whose account has an edit window of `minutes` (set by an admin). */
export async function partnerWithWindow(minutes: number): Promise<PartnerWithFile & { opsKey: string }> {
	const made = await partnerWithFile({ opsKey: true });
	const response = await send("PUT", `/v1/admin/accounts/${made.partner.account.id}/settings`, await createAdminKey(), {
		edit_window_minutes: minutes,
	});
	expect(response.status).toBe(200);
	return made;
}

/** Ends an order's edit window a second ago, as if its time had passed. */
export async function closeWindow(orderId: string): Promise<void> {
	await env.DB.prepare("UPDATE orders SET editable_until = ?2 WHERE id = ?1")
		.bind(orderId, new Date(Date.now() - 1000).toISOString())
		.run();
}
