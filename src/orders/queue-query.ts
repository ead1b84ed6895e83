import { z } from "@hono/zod-openapi";
import { NAME_SEARCH_PARTNERS } from "../accounts/store.ts";
import type { PartnerSearch } from "./queue-store.ts";
import { OrderPageSchema, toOrderPage } from "./response.ts";
import type { StoredOrder } from "./rows.ts";
import { ORDER_STATUSES } from "./state-machine.ts";

/** The floor's queue filters, shared by `GET /v1/ops/orders` and the console's queue page. */
export const QueueQuery = z.object({
	q: z
		.string()
		.max(128, "must be at most 128 characters")
		.optional()
		.openapi({
			description:
				"An order id, a partner's external_id (exactly, as sent or with the spaces at its ends trimmed), or " +
				`part of a partner's name (any case for ASCII letters; % and _ taken literally). The name search covers ` +
				`at most ${NAME_SEARCH_PARTNERS} partners, the first by name: partner_search in the answer says when more match.`,
			example: "PO-1001",
		}),
	account_id: z.string().max(64).optional().openapi({ description: "One partner's orders.", example: "acct_4fQ9v2" }),
	status: z.enum(ORDER_STATUSES).optional(),
	mode: z
		.enum(["live", "test"])
		.default("live")
		.openapi({ description: "Live orders unless test ones are asked for." }),
	limit: z.coerce.number().int().min(1).max(100).default(50),
	cursor: z.string().max(512).optional(),
});

/** A page of the queue: a page of orders, and what a search by partner name covered. */
export const QueuePageSchema = z
	.object({
		...OrderPageSchema.shape,
		partner_search: z
			.object({
				partners: z
					.number()
					.int()
					.min(0)
					.max(NAME_SEARCH_PARTNERS)
					.openapi({
						description: `How many partners' orders the search by name covered (at most ${NAME_SEARCH_PARTNERS}).`,
						example: 2,
					}),
				more_partners: z.boolean().openapi({
					description:
						`More partners' names contain q than the ${NAME_SEARCH_PARTNERS} covered (the first by name, then id); ` +
						"the others' orders are not in the answer. Type more of the name, or pass account_id.",
					example: false,
				}),
			})
			.nullable()
			.openapi({ description: "What the search by partner name covered; null without a search (q absent or blank)." }),
	})
	.openapi("QueuePage");

/** The API shape of a page of the queue. */
export function toQueuePage(queue: {
	page: StoredOrder[];
	more: boolean;
	partnerSearch: PartnerSearch;
}): z.infer<typeof QueuePageSchema> {
	const { partnerSearch } = queue;
	return {
		...toOrderPage(queue),
		partner_search:
			partnerSearch === null ? null : { partners: partnerSearch.partners, more_partners: partnerSearch.more },
	};
}
