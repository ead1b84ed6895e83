import { env } from "cloudflare:workers";
import type { KeyMode } from "../../src/accounts/scopes.ts";
import { newId } from "../../src/ids.ts";
import { writeMove } from "../../src/orders/move-store.ts";
import { newOrderRow, stateOf, withState } from "../../src/orders/rows.ts";
import { insertOrder } from "../../src/orders/store.ts";
import { externalId, SHIP_TO } from "../orders/order-helpers.ts";
import type { ReceivedRequest } from "../outbound/partner-hosts.ts";
import { waitFor } from "../polling.ts";

/** The partner's webhook receiver in the tests (test/outbound/partner-hosts.ts). */
export const HOOKS = "https://hooks.partner.example";

/** Every field of an order.shipped body, as sent and as the document describes it. */
export const ORDER_SHIPPED_FIELDS = [
	"id",
	"event",
	"created_at",
	"order_id",
	"external_id",
	"status",
	"version",
	"tracking",
	"shipped_at",
	"metadata",
] as const;

/** A unique receiver URL of `kind` (e.g. "ok", "fail-then-ok/3", "status/302"). */
export function hookUrl(kind: string): string {
	return `${HOOKS}/${kind}/${crypto.randomUUID()}`;
}

/** What the receiver has got at `url`'s path so far. */
export async function receivedAt(url: string): Promise<ReceivedRequest[]> {
	const response = await fetch(`${HOOKS}/__received${new URL(url).pathname}`);
	return (await response.json()) as ReceivedRequest[];
}

/** Polls the receiver until `done` holds for what arrived at `url` (bounded), and returns it. */
export function waitForReceived(
	url: string,
	done: (requests: ReceivedRequest[]) => boolean = (requests) => requests.length > 0,
): Promise<ReceivedRequest[]> {
	return waitFor(() => receivedAt(url), done, {
		failure: (requests) => `receiver at ${url} got ${requests.length} request(s) only`,
	});
}

/** The `v1=` digests of a signature header, in order. */
export function digestsOf(header: string): string[] {
	return header
		.split(",")
		.filter((part) => part.startsWith("v1="))
		.map((part) => part.slice(3));
}

/**
 * An order.in_production event with its pending delivery to `callbackUrl`, written by a move straight
 * to D1 (no Durable Object, no queue message): only the test's own calls, or the sweep, deliver it.
 */
export async function storedEvent(
	owner: { accountId: string; mode: KeyMode },
	callbackUrl: string | null,
	now = new Date(),
): Promise<{ orderId: string; eventId: string; deliveryId: string }> {
	const orderId = newId("ord");
	const before = newOrderRow({
		id: orderId,
		accountId: owner.accountId,
		mode: owner.mode,
		externalId: externalId("WH"),
		requestHash: "0".repeat(64),
		shipTo: SHIP_TO,
		callbackUrl,
		now,
		status: "validating",
	});
	await insertOrder(env.DB, before, [], now);
	const after = withState(before, { ...stateOf(before), status: "in_production" }, now);
	const { eventId } = await writeMove(
		env.DB,
		before,
		[
			{
				after,
				event: "order.in_production",
				itemUpdates: [],
				made: { move: { kind: "pass_validation" }, actor: "system" },
			},
		],
		now,
	);
	if (eventId === null) throw new Error("the move wrote no event");
	return { orderId, eventId, deliveryId: await callbackDeliveryId(eventId) };
}

/** The id of an event's delivery to its order's callback_url (or its no_endpoint record). */
export async function callbackDeliveryId(eventId: string): Promise<string> {
	const row = await env.DB.prepare("SELECT id FROM deliveries WHERE event_id = ?1 AND endpoint_id IS NULL")
		.bind(eventId)
		.first<{ id: string }>();
	if (row === null) throw new Error(`no callback delivery for ${eventId}`);
	return row.id;
}
