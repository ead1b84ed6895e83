import { z } from "@hono/zod-openapi";
import { ORDER_STATUSES } from "./state-machine.ts";

/** The floor's queue filters, shared by `GET /v1/ops/orders` and the console's queue page. */
export const QueueQuery = z.object({
	q: z.string().max(128, "must be at most 128 characters").optional().openapi({
		description: "An order id, a partner's external_id (exactly), or part of a partner's name.",
		example: "PO-1001",
	}),
	account_id: z.string().max(64).optional().openapi({ description: "One partner's orders.", example: "acc_7Hq2" }),
	status: z.enum(ORDER_STATUSES).optional(),
	mode: z
		.enum(["live", "test"])
		.default("live")
		.openapi({ description: "Live orders unless test ones are asked for." }),
	limit: z.coerce.number().int().min(1).max(100).default(50),
	cursor: z.string().max(512).optional(),
});
