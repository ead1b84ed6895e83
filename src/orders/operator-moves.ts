import { z } from "@hono/zod-openapi";
import { ApiError } from "../http/errors.ts";
import { singleLineText, webUrl } from "../text-rules.ts";
import { KNOWN_CARRIER_NAMES, resolveTracking } from "./carrier-tracking.ts";
import { orderFromOutcome, orderMachine } from "./machine.ts";
import type { StoredOrder } from "./rows.ts";
import type { Move, Tracking } from "./state-machine.ts";
import { findOrder } from "./store.ts";

// Operator text reaches partners (webhooks, hold_details, tracking pages), so it follows the partner
// text rules: the same helpers, one line each, no control characters.

/** `{message}` of an operator hold: shown to the partner in hold_details and the order.on_hold webhook. */
export const HoldBody = z
	.strictObject({
		message: singleLineText(1000).openapi({
			example: "The print file shows banding in the sky; please upload a new export.",
		}),
	})
	.openapi("OperatorHoldRequest");

/**
 * The shipping label's tracking: carrier, number and the carrier's tracking page. The page may be
 * left out for a carrier whose page follows from the number (`resolveTracking` builds it).
 */
export const ShipBody = z
	.strictObject({
		carrier: singleLineText(100).openapi({ example: "UPS" }),
		number: singleLineText(100).openapi({ example: "1Z999AA10123456784" }),
		url: webUrl("must be an http or https URL")
			.optional()
			.openapi({
				example: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
				description: `The carrier's tracking page (http or https). May be left out for ${KNOWN_CARRIER_NAMES}: it is then built from the number (for UPS, https://www.ups.com/track?tracknum=<number>). Any other carrier needs it.`,
			}),
	})
	.superRefine((body, context) => {
		const resolved = resolveTracking(body);
		if (!resolved.ok) context.addIssue({ code: "custom", path: ["url"], message: resolved.message });
	})
	.openapi("ShipRequest");

/** The tracking a valid ship body records: its URL, or the one built from the carrier and number. */
export function shipTracking(body: z.infer<typeof ShipBody>): Tracking {
	const resolved = resolveTracking(body);
	// ShipBody refused a body without a URL that cannot be built, so this is never reached from a parsed body.
	if (!resolved.ok) throw new ApiError("validation_error", `url ${resolved.message}.`, "url");
	return resolved.tracking;
}

/**
 * One operator move through the order's Durable Object: the single path of the ops API and the
 * console. 404 for an unknown order, 409 naming the current status when the move is not allowed.
 */
export async function moveAsOperator(env: Env, orderId: string, move: Move): Promise<StoredOrder> {
	if ((await findOrder(env.DB, orderId)) === null) throw new ApiError("order_not_found", `No order ${orderId}.`, "id");
	return orderFromOutcome(await orderMachine(env, orderId).move(orderId, move, "operator"));
}
