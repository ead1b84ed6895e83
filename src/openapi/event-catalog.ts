/**
 * Every event the service records, gathered from the capabilities that own them: orders (order.*,
 * shipment.*) and claims (claim.*), each with its body's schema. The document's `webhooks` are built
 * from the sent ones, and the app hands the names to webhooks' routes (the event log's filter, an
 * endpoint's subscriptions): webhooks stores and sends the bodies without knowing the events.
 */
import { CLAIM_EVENT_SCHEMAS, CLAIM_EVENT_TYPES } from "../claims/events.ts";
import { ORDER_EVENT_TYPES, SENT_ORDER_EVENT_SCHEMAS, SHIPMENT_EVENT_TYPES } from "../orders/events.ts";
import type { EventTypes } from "../webhooks/event-types.ts";

/** The events sent as webhooks, each with its body's schema, in the order the document lists them. */
export const SENT_EVENT_SCHEMAS = { ...SENT_ORDER_EVENT_SCHEMAS, ...CLAIM_EVENT_SCHEMAS };

/** One of the events sent as webhooks. */
export type SentEventType = keyof typeof SENT_EVENT_SCHEMAS;

/** The names of the events sent as webhooks (order.received, recorded and listed only, is not one). */
export const SENT_EVENT_TYPES = Object.keys(SENT_EVENT_SCHEMAS) as SentEventType[];

/** The names the event log lists and the names an endpoint subscribes to. */
export const EVENT_TYPES: EventTypes = {
	listed: [...ORDER_EVENT_TYPES, ...SHIPMENT_EVENT_TYPES, ...CLAIM_EVENT_TYPES],
	sent: SENT_EVENT_TYPES,
};
