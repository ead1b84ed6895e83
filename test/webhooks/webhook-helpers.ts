import { env } from "cloudflare:workers";
import type { KeyMode } from "../../src/accounts/scopes.ts";
import { newId } from "../../src/ids.ts";
import { newOrderRow, stateOf, withState } from "../../src/orders/rows.ts";
import { insertOrder, writeMove } from "../../src/orders/store.ts";
import { externalId, SHIP_TO } from "../orders/order-helpers.ts";

/**
 * An order.in_production event with its pending delivery to `callbackUrl`, written by a move straight
 * to D1 (no Durable Object, no queue message): only the test's own calls, or the sweep, deliver it.
 */
export async function storedEvent(
	owner: { accountId: string; mode: KeyMode },
	callbackUrl: string | null,
	now = new Date(),
): Promise<{ orderId: string; eventId: string }> {
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
	const { eventId } = await writeMove(env.DB, before, after, "order.in_production", now, [], {
		move: { kind: "pass_validation" },
		actor: "system",
	});
	if (eventId === null) throw new Error("the move wrote no event");
	return { orderId, eventId };
}
