/**
 * Recording an order's or a shipment's event in the caller's batch: its body, written and checked by
 * events.ts, handed to webhooks with its id and type, which stores, signs and sends it as it is.
 */
import { insertEvent, newEventId, type RecordedEvent, type WriteCondition } from "../webhooks/store.ts";
import { type OrderEvent, orderEventBody } from "./events.ts";

/**
 * The statements that record an order or shipment event, with its deliveries, only when `condition`
 * holds at commit; for the caller's batch, so a move and its event commit together or not at all.
 */
export function eventStatements(db: D1Database, event: OrderEvent, condition: WriteCondition | null): RecordedEvent {
	const id = newEventId();
	return insertEvent(
		db,
		{
			id,
			type: event.type,
			accountId: event.accountId,
			mode: event.mode,
			orderId: event.order.id,
			body: orderEventBody(event, id),
			delivery: event.delivery,
			createdAt: event.createdAt,
		},
		condition,
	);
}
