/**
 * A claim as the API takes it and shows it: one zod schema per shape, serving validation, the
 * handlers' types and the OpenAPI document.
 */
import { z } from "@hono/zod-openapi";
import { CURSOR_EXAMPLE, encodeCursor } from "../http/cursor.ts";
import { printedMessage } from "../text-rules.ts";
import { CLAIM_STATUSES, ClaimBody, ClaimItemBody } from "./events.ts";
import { CLAIM_REASONS } from "./rules.ts";

export { CLAIM_STATUSES };
/** One of CLAIM_STATUSES. */
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** The most photos a claim carries. */
export const MAX_PHOTOS = 10;
/** The longest description, in characters. */
export const MAX_DESCRIPTION = 2000;

/** Units of one item a claim request names: the shape a claim shows, refusing any other field. */
const ClaimItemRequest = z.strictObject(ClaimItemBody.shape);

/** The body of `POST /v1/orders/{id}/claims`: strict, like every request body (no field it does not name). */
export const CreateClaimBody = z
	.strictObject({
		reason: z.enum(CLAIM_REASONS).openapi({ example: "damaged_in_transit" }),
		items: z
			.array(ClaimItemRequest)
			.min(1, "must hold at least 1 entry")
			.max(50, "must hold at most 50 entries")
			.openapi({ description: "The units claimed, by item: each item once." }),
		description: printedMessage(MAX_DESCRIPTION).openapi({
			description: "What happened, in the partner's or the customer's words (1 to 2,000 characters).",
			example: "The glass arrived cracked across the top left corner; the box was crushed on that side.",
		}),
		photo_file_ids: z
			.array(z.string().min(1).max(64))
			.max(64, "must hold at most 64 entries")
			.optional()
			.openapi({
				description:
					"Photos of what arrived, uploaded like print files (`POST /v1/print-files`): ready JPEG or PNG files of this account and mode. 1 to 10 for `damaged_in_transit`, `print_defect` and `frame_defect`; at most 10 otherwise.",
				example: ["pf_7Yh2"],
			}),
	})
	.openapi("CreateClaim");
/** A parsed claim request. */
export type CreateClaimInput = z.infer<typeof CreateClaimBody>;

/** A claim, as every route and event shows it. */
export const ClaimSchema = ClaimBody.openapi("Claim");
/** A claim as the API shows it. */
export type Claim = z.infer<typeof ClaimSchema>;

/** A page of claims, newest first, and the cursor of the next. */
export const ClaimPageSchema = z
	.object({ data: z.array(ClaimSchema), next_cursor: z.string().nullable().openapi({ example: CURSOR_EXAMPLE }) })
	.openapi("ClaimPage");

/** The cursor of the page after `page`, or null when it is the last (`more` false). */
export function nextClaimCursor(page: ReadonlyArray<{ claim: Claim }>, more: boolean): string | null {
	const last = page.at(-1)?.claim;
	return more && last !== undefined ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null;
}

/** The API shape of a page of claims. */
export function toClaimPage({ page, more }: { page: ReadonlyArray<{ claim: Claim }>; more: boolean }) {
	return { data: page.map(({ claim }) => claim), next_cursor: nextClaimCursor(page, more) };
}

/** The path of a claim. */
export const ClaimIdParams = z.object({
	id: z.string().openapi({ param: { name: "id", in: "path" }, example: "clm_4Rt8" }),
});

/** The query of `GET /v1/claims`. */
export const ClaimListQuery = z.object({
	status: z.enum(CLAIM_STATUSES).optional(),
	limit: z.coerce.number().int().min(1).max(100).default(20),
	cursor: z.string().max(512).optional(),
});
