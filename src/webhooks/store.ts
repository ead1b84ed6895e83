/**
 * What other capabilities use of the webhooks' tables, and the only file of them they import: an
 * order's move adds the statements that record its event (a body the event's owner wrote and checked)
 * to its own batch, then hands the deliveries they made to their senders. The statements live a file
 * per table family: secret-store.ts, event-store.ts, delivery-store.ts. The partner console reads the
 * event log (a page of events with their deliveries), as the API does, and rotates a mode's secret.
 */
export type { DeliveryStatus, PendingDelivery } from "./delivery-store.ts";
export {
	conditionAfter,
	type EventRow,
	insertEvent,
	listEventPage,
	type NewEvent,
	newEventId,
	type RecordedEvent,
	type WriteCondition,
} from "./event-store.ts";
export { ROTATION_OVERLAP_MS, rotateToNewSecret } from "./secret-store.ts";

/**
 * A condition (over an order id in `{order_id}`) that holds while a delivery of one of the order's events is
 * still being sent: read once per statement from the few pending deliveries (deliveries_due).
 */
export const ORDER_HAS_PENDING_DELIVERY =
	"{order_id} IN (SELECT events.order_id FROM deliveries JOIN events ON events.id = deliveries.event_id WHERE deliveries.status = 'pending')";
