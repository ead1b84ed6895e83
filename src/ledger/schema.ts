/** The ledger's request and response schemas, shared by validation and the OpenAPI document. */
import { z } from "@hono/zod-openapi";
import { CurrencySchema } from "../money/currencies.ts";
import { BIDI_CONTROLS_REFUSED, NO_BIDI_CONTROLS, singleLineText } from "../text-rules.ts";
import { TAX_TREATMENTS } from "./entry-tax.ts";
import { MONTH_PATTERN } from "./statement.ts";
import { ENTRY_TYPES } from "./store.ts";

/** The most an adjustment may move a balance either way: ten million dollars. */
export const MAX_ADJUSTMENT_CENTS = 1_000_000_000;

export const LedgerEntrySchema = z
	.object({
		id: z.string().openapi({ example: "led_7Gh2kQ" }),
		at: z.string().openapi({ example: "2026-11-03T14:05:09.120Z" }),
		type: z.enum(ENTRY_TYPES).openapi({ example: "charge" }),
		order_id: z.string().nullable().openapi({ example: "ord_9Kd3" }),
		claim_id: z.string().nullable().openapi({ example: null }),
		amount_cents: z.int().openapi({
			description: "Signed: charges are positive, credits negative, adjustments either.",
			example: 18450,
		}),
		currency: z.string().openapi({ example: "USD" }),
		memo: z.string().openapi({ example: "Order SHOP-10442" }),
		tax_cents: z.int().openapi({
			description:
				"The partner tax on the entry, signed like the amount, in minor units of its currency: the rate on its taxable amount (a charge's total less the border's taxes and duties the service paid), rounded half away from zero; a cancellation gives back exactly the tax charged.",
			example: 3506,
		}),
		tax_treatment: z.enum(TAX_TREATMENTS).openapi({
			description:
				"`none` (no partner tax where the partner is established), `vat` (charged at tax_rate_bp) or `reverse_charge` (a VAT-registered business accounts for the VAT itself: 0).",
			example: "vat",
		}),
		tax_rate_bp: z.int().openapi({ description: "Hundredths of a percent charged: 1900 is 19 %.", example: 1900 }),
	})
	.openapi("LedgerEntry");

export const StatementSchema = z
	.object({
		month: z.string().openapi({ example: "2026-11" }),
		currency: CurrencySchema.openapi({
			description:
				"The currency of the month's entries (else the account's billing currency); every amount is in its minor units.",
			example: "USD",
		}),
		opening_balance_cents: z.int().openapi({
			description: "The closing balance of the latest earlier month with entries in this currency.",
			example: 120500,
		}),
		entries: z.array(LedgerEntrySchema),
		totals: z
			.object({
				charges_cents: z.int().openapi({ description: "Charges and repricings.", example: 18450 }),
				credits_cents: z.int().openapi({ description: "Cancellation and claim credits.", example: -4200 }),
				adjustments_cents: z.int().openapi({ example: 0 }),
				net_cents: z.int().openapi({ example: 14250 }),
				tax_cents: z.int().openapi({ description: "The partner tax on the month's entries.", example: 2708 }),
				net_with_tax_cents: z.int().openapi({ description: "net + tax: the month's invoice total.", example: 16958 }),
			})
			.openapi("StatementTotals"),
		closing_balance_cents: z.int().openapi({
			description: "opening + net (balances are of amounts; the tax is summed beside them).",
			example: 134750,
		}),
	})
	.openapi("Statement");

export const StatementParams = z.object({
	month: z
		.string()
		.regex(MONTH_PATTERN, "must be a month as YYYY-MM")
		.openapi({ param: { name: "month", in: "path" }, example: "2026-11" }),
});

export const AdjustmentBody = z
	.strictObject({
		mode: z.enum(["live", "test"]).openapi({ example: "live" }),
		amount_cents: z
			.int()
			.min(-MAX_ADJUSTMENT_CENTS, "must be at least -1000000000 (ten million dollars)")
			.max(MAX_ADJUSTMENT_CENTS, "must be at most 1000000000 (ten million dollars)")
			.refine((amount) => amount !== 0, "must not be 0")
			.openapi({ description: "Signed: positive charges the partner, negative credits them.", example: -2500 }),
		memo: singleLineText(500)
			.regex(NO_BIDI_CONTROLS, BIDI_CONTROLS_REFUSED)
			.openapi({ example: "Goodwill credit for the late delivery of SHOP-10442" }),
	})
	.openapi("AdjustmentRequest");
