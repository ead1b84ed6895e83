/** An order's costs and a unit's declared value as the API and the order's events show them. */
import { z } from "@hono/zod-openapi";
import { AppliedRateSchema, LandedCostSchema, PartnerTaxSchema } from "../customs/schema.ts";
import { CurrencySchema } from "../money/currencies.ts";
import { CentsSchema } from "../quotes/schema.ts";

export const OrderCostsSchema = z
	.object({
		currency: CurrencySchema.openapi({
			description: "The account's billing currency when the order was priced: every amount is in it.",
		}),
		items: CentsSchema.openapi({ description: "The sum of the items' line totals.", example: 14889 }),
		shipping: CentsSchema.openapi({ description: "The shipping method's cost for every package.", example: 3110 }),
		taxes_and_duties: CentsSchema.openapi({
			description:
				"What the partner is charged for the border (landed_cost.charged_to_partner): all of it under DDP, only what must be charged at sale under DAP.",
			example: 0,
		}),
		total: CentsSchema.openapi({ description: "items + shipping + taxes_and_duties.", example: 17999 }),
		price_book_version: z
			.number()
			.int()
			.openapi({ description: "The price book that priced the order (its quote's, with a quote).", example: 1 }),
		quote_id: z
			.string()
			.nullable()
			.openapi({ description: "The quote the order is charged by, if any.", example: "quo_4Zq8" }),
		charge: z.enum(["order", "reprint"]).openapi({
			description: "`order`: charged as priced; `reprint`: a claim's reprint, charged nothing (every amount 0).",
			example: "order",
		}),
		exchange_rate: AppliedRateSchema.nullable().openapi({
			description: "The rate the price book's US cents were converted at; null for orders priced before currencies.",
		}),
		landed_cost: LandedCostSchema.nullable().openapi({
			description: "What crossing the border adds, line by line; null for orders priced before landed costs.",
		}),
		partner_tax: PartnerTaxSchema,
	})
	.openapi("OrderCosts", {
		description:
			"What the order costs the partner; null while an item cannot be priced (the order is on hold), and for orders placed before pricing. An order.updated event carries them as they are after the change.",
	});

/** A unit's declared value as the order keeps it. */
export const ItemDeclaredValueSchema = z
	.object({
		amount: CentsSchema.openapi({ example: 24900 }),
		currency: CurrencySchema,
		source: z.enum(["partner", "price"]).openapi({ example: "partner" }),
	})
	.openapi("ItemDeclaredValue");
