/**
 * An event as the API shows it (the event log, a redelivery's answer) and as the archive keeps it: the
 * schema the OpenAPI document carries, and the one mapper from a stored event to it.
 */
import { z } from "@hono/zod-openapi";
import { dateTime } from "../http/date-time.ts";
import { DELIVERY_STATUSES } from "./delivery-store.ts";
import type { EventRow } from "./event-store.ts";
import type { EventTypes } from "./event-types.ts";

const deliveryFields = {
	id: z.string().openapi({ description: "The delivery's id (`dlv_…`).", example: "dlv_7Hq2" }),
	status: z.enum(DELIVERY_STATUSES),
	attempts: z.number().int().openapi({ example: 1 }),
	last_attempt_at: dateTime().nullable(),
	last_status_code: z.number().int().nullable().openapi({ example: 200 }),
	last_error: z
		.string()
		.nullable()
		.openapi({ description: "A short excerpt; receivers' bodies are not stored.", example: "HTTP 503: upstream busy" }),
	next_attempt_at: dateTime().nullable(),
	delivered_at: dateTime().nullable(),
};

const EndpointDeliverySchema = z
	.object({
		...deliveryFields,
		endpoint_id: z.string().openapi({ description: "The webhook endpoint it goes to.", example: "whe_3Lk9" }),
		url: z
			.string()
			.openapi({ description: "The endpoint's URL when the event happened.", example: "https://example.com/hooks" }),
	})
	.openapi("EndpointDelivery");

const DeliverySchema = z
	.object({ ...deliveryFields, url: z.string().nullable().openapi({ example: "https://example.com/hooks" }) })
	.openapi("Delivery");

/** The schema of an event as the API shows it, its `type` one of the `listed` names. */
export function eventSchema(types: EventTypes) {
	return z
		.object({
			id: z.string().openapi({ example: "evt_9Lq3" }),
			type: z.enum(types.listed).openapi({ example: "order.shipped" }),
			order_id: z.string().openapi({ example: "ord_3kq9" }),
			created_at: dateTime(),
			// `additionalProperties: true`, not zod's `{}`: an empty schema has no type, and Scalar's reader refuses it.
			body: z.record(z.string(), z.unknown()).openapi({
				description: "The webhook body, as signed and sent (each event's body is under Webhooks).",
				additionalProperties: true,
				example: {
					id: "evt_9Lq3",
					event: "order.shipped",
					created_at: "2026-11-22T10:00:00.000Z",
					order_id: "ord_3kq9",
					external_id: "PO-1001",
					status: "shipped",
					version: 4,
					tracking: {
						carrier: "UPS",
						number: "1Z999AA10123456784",
						url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
					},
					shipped_at: "2026-11-22T10:00:00.000Z",
				},
			}),
			delivery: DeliverySchema.nullable().openapi({
				description: "The delivery to the order's callback_url; null for events that are not sent (order.received).",
			}),
			endpoint_deliveries: z.array(EndpointDeliverySchema).openapi({
				description:
					"One delivery per webhook endpoint of the account's mode that subscribed to the event's type when it happened, each with its own attempts and retries.",
			}),
		})
		.openapi("Event");
}

/** An event as the API shows it. */
export type EventView = z.infer<ReturnType<typeof eventSchema>>;

/** A stored event with its deliveries, as the API shows it. */
export function toEvent(row: EventRow): EventView {
	return {
		id: row.id,
		type: row.type,
		order_id: row.order_id,
		created_at: row.created_at,
		body: row.body,
		delivery:
			row.d_status === null || row.d_id === null
				? null
				: {
						id: row.d_id,
						status: row.d_status,
						url: row.url,
						attempts: row.attempts ?? 0,
						last_attempt_at: row.last_attempt_at,
						last_status_code: row.last_status_code,
						last_error: row.last_error,
						next_attempt_at: row.next_attempt_at,
						delivered_at: row.delivered_at,
					},
		endpoint_deliveries: [...row.endpoint_deliveries].sort((a, b) => (a.endpoint_id < b.endpoint_id ? -1 : 1)),
	};
}
