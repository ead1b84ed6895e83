/**
 * The events a claim's creation and resolution record, beside its order's, and the body each is sent
 * with: one zod schema per event gives the body's type, checks every body before it is stored, and is
 * the OpenAPI document's entry for the event. A claim event's body is an order event's base (the order
 * as it stands) with the claim, whose shape is here too (the routes name it `Claim`). Pure: the store
 * records a body in its batch, and webhooks stores, signs and sends it without reading it.
 */
import { z } from "@hono/zod-openapi";
import type { KeyMode } from "../accounts/scopes.ts";
import { dateTime } from "../http/date-time.ts";
import {
	BASE_BODY_FIELDS,
	baseBody,
	checkedBody,
	type OrderEventSubject,
	withOrderMetadata,
} from "../orders/events.ts";
import { CLAIM_REASONS } from "./rules.ts";

/** Where a claim stands: submitted until the service team approves or rejects it. */
export const CLAIM_STATUSES = ["submitted", "approved", "rejected"] as const;

/** Units of one item a claim names. */
export const ClaimItemBody = z.object({
	item_id: z.string().min(1).max(64).openapi({ example: "itm_5Tg8" }),
	quantity: z.number().int().min(1).max(1000).openapi({ example: 1 }),
});

const ClaimResolutionBody = z
	.object({
		remedy: z.enum(["reprint", "refund"]).nullable().openapi({
			description: "How an approved claim is made good; null for a rejection.",
			example: "reprint",
		}),
		reprint_order_id: z.string().nullable().openapi({ example: "ord_8Kq2" }),
		credit_cents: z.number().int().nullable().openapi({
			description:
				"A refund's credit in cents: the claimed units' share of the item charges (and, when lost, of shipping); null otherwise.",
			example: 4800,
		}),
		message: z.string().nullable().openapi({ example: "Sorry about the glass: a new piece ships this week." }),
		resolved_at: dateTime(),
	})
	.openapi("ClaimResolution");

/** A claim, as the claim routes and the claim events show it (the routes name it `Claim`, the events carry it inline). */
export const ClaimBody = z.object({
	id: z.string().openapi({ example: "clm_4Rt8" }),
	order_id: z.string().openapi({ example: "ord_3kq9" }),
	status: z.enum(CLAIM_STATUSES).openapi({ example: "submitted" }),
	reason: z.enum(CLAIM_REASONS).openapi({ example: "damaged_in_transit" }),
	items: z.array(ClaimItemBody).openapi({ description: "The units claimed, by item." }),
	description: z.string().openapi({
		example: "The glass arrived cracked across the top left corner; the box was crushed on that side.",
	}),
	photos: z.array(z.string()).openapi({ description: "The photos' print file ids.", example: ["pf_7Yh2"] }),
	created_at: dateTime(),
	resolution: ClaimResolutionBody.nullable().openapi({ description: "null until the claim is approved or rejected." }),
});

/** The events a claim's creation and resolution record. */
export const CLAIM_EVENT_TYPES = ["claim.created", "claim.approved", "claim.rejected"] as const;
/** One of CLAIM_EVENT_TYPES. */
export type ClaimEventType = (typeof CLAIM_EVENT_TYPES)[number];

/** A claim event's body: the order's base fields and the claim as it stands. */
function claimEvent<T extends ClaimEventType>(event: T) {
	return z.object({
		...BASE_BODY_FIELDS,
		event: z.literal(event),
		status: z.string().openapi({ description: "The order's status.", example: "delivered" }),
		claim: ClaimBody,
	});
}

/** The claim events, each sent as a webhook, with its body's schema: the document's entries for them. */
export const CLAIM_EVENT_SCHEMAS = {
	"claim.created": claimEvent("claim.created").openapi("ClaimCreatedEvent"),
	"claim.approved": claimEvent("claim.approved").openapi("ClaimApprovedEvent"),
	"claim.rejected": claimEvent("claim.rejected").openapi("ClaimRejectedEvent"),
} as const satisfies Record<ClaimEventType, z.ZodType>;

/** The body of a claim event of `Type`, as its schema types it. */
export type ClaimEventBody<Type extends ClaimEventType> = z.output<(typeof CLAIM_EVENT_SCHEMAS)[Type]>;

/** A claim event to record: its type, the claim and its order as they stand, and where it is sent. */
export type ClaimEvent = {
	type: ClaimEventType;
	accountId: string;
	mode: KeyMode;
	order: OrderEventSubject;
	claim: z.output<typeof ClaimBody>;
	/** Sent to the order's callback URL (none: a `no_endpoint` record) and to the subscribed endpoints. */
	delivery: { url: string | null };
	createdAt: Date;
};

/** The webhook body of a claim event, as JSON text: the order's base, the claim, then the order's metadata. */
export function claimEventBody(event: ClaimEvent, eventId: string): string {
	const body = { ...baseBody(event.type, event.order, eventId, event.createdAt), claim: event.claim };
	return checkedBody(CLAIM_EVENT_SCHEMAS[event.type], withOrderMetadata(body, event.order.metadata));
}
