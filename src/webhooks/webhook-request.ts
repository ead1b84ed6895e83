/**
 * What webhooks itself puts in the requests it sends, for the OpenAPI document's `webhooks`: the
 * headers that sign every webhook, and the body of the `ping` an endpoint's test sends. Each event's
 * body is the schema of the capability that owns the event (orders', claims').
 */
import { z } from "@hono/zod-openapi";
import { dateTime } from "../http/date-time.ts";

/** The body of the signed `ping` that `POST /v1/webhook-endpoints/{id}/test` sends (never retried, never logged). */
export const PingEventSchema = z
	.object({
		id: z.string().openapi({ description: "The ping's id (`ping_…`), also `webhook-id`.", example: "ping_8Rt2" }),
		event: z.literal("ping"),
		created_at: dateTime(),
		endpoint_id: z.string().openapi({ example: "whe_3Lk9" }),
		mode: z.enum(["live", "test"]).openapi({ description: "The mode whose secret signed it." }),
	})
	.openapi("PingEvent");

/** The headers every webhook carries. */
export const WebhookHeaders = z.object({
	"svc-signature": z.string().openapi({
		description: "`t=<unix seconds>,v1=<hex HMAC-SHA256 of the raw body>`, one `v1=` per secret during a rotation.",
		example: "t=1795345200,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
	}),
	"webhook-id": z.string().openapi({ description: "Standard Webhooks: the event's id.", example: "evt_9Lq3" }),
	"webhook-timestamp": z
		.string()
		.openapi({ description: "Standard Webhooks: unix seconds of this attempt.", example: "1795345200" }),
	"webhook-signature": z.string().openapi({
		description:
			"Standard Webhooks: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, keyed by the base64 after `whsec_`.",
		example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
	}),
});
