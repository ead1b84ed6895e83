/**
 * The bodies of a claim's decision, one rule for each field whichever door it comes through: the ops
 * routes (`POST /v1/ops/claims/{id}/approve|reject`) and the console's approve and reject forms.
 */
import { z } from "@hono/zod-openapi";
import { printedMessage } from "../text-rules.ts";

/** The longest message of a decision, in characters: it reaches the partner in the claim and its event. */
const MAX_DECISION_MESSAGE = 1000;

/** The body of `POST /v1/ops/claims/{id}/approve`. */
export const ApproveClaimBody = z
	.strictObject({
		remedy: z.enum(["reprint", "refund"]).openapi({
			description:
				"`reprint`: a new order for the claimed units, charged nothing (`reprint_order_id`); `refund`: a credit of the claimed units' share of the item charges (and, when lost, of shipping), in `credit_cents`.",
			example: "reprint",
		}),
		message: printedMessage(MAX_DECISION_MESSAGE)
			.optional()
			.openapi({ description: "For the partner (1 to 1,000 characters).", example: "Sorry about the glass." }),
	})
	.openapi("ApproveClaim");

/** The body of `POST /v1/ops/claims/{id}/reject`. */
export const RejectClaimBody = z
	.strictObject({
		message: printedMessage(MAX_DECISION_MESSAGE).openapi({
			description: "Why, for the partner (1 to 1,000 characters).",
			example: "The photos show the frame intact; the scratch is on the glass's protective film.",
		}),
	})
	.openapi("RejectClaim");
