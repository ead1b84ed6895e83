/**
 * The events the service sends (the OpenAPI document's `webhooks`), for `verifyWebhook`'s check at
 * run time. Do not edit: run `npm run client:generate`.
 */
import type { webhooks } from "./schema.d.ts";

export const WEBHOOK_EVENT_TYPES = [
	"order.in_production",
	"order.on_hold",
	"order.shipped",
	"order.delivered",
	"order.canceled",
	"order.updated",
	"shipment.created",
	"shipment.delivered",
	"shipment.returned",
	"claim.created",
	"claim.approved",
	"claim.rejected",
	"ping",
] as const satisfies readonly (keyof webhooks)[];
