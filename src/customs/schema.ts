/**
 * What quotes and orders show of crossing a border, as the API answers it: the declared value of a
 * unit, an item's tariff line, the landed cost line by line, the rate the amounts were converted at,
 * and the tax on the service's own charges.
 */
import { z } from "@hono/zod-openapi";
import { CurrencySchema } from "../money/currencies.ts";
import { DUTY_TERMS } from "../money/duty-terms.ts";
import { TARIFF_KINDS } from "./tables.ts";

const minor = z.number().int();

/** What one unit is declared at to customs: what the buyer paid for it, in the currency paid. */
export const DeclaredValueSchema = z
	.strictObject({
		amount: z
			.number()
			.int("must be a whole number of the currency's minor unit")
			.min(0)
			.max(100_000_000_000, "must be at most 100000000000")
			.openapi({ description: "Minor units of `currency` (cents; yen for JPY).", example: 24900 }),
		currency: CurrencySchema,
	})
	.openapi("DeclaredValue", {
		description:
			"One unit's value for customs: what the buyer paid for it. Without it, the unit is declared at its price to the partner.",
	});
export type DeclaredValue = z.infer<typeof DeclaredValueSchema>;

/** Every declared value of a cart in one currency: a commercial invoice states one. */
export function refineDeclaredCurrencies(
	cart: { items: readonly { declared_value?: { currency: string } | undefined }[] },
	context: z.RefinementCtx,
): void {
	const first = cart.items.find((item) => item.declared_value !== undefined)?.declared_value?.currency;
	for (const [index, item] of cart.items.entries()) {
		if (item.declared_value !== undefined && item.declared_value.currency !== first) {
			context.addIssue({
				code: "custom",
				path: ["items", index, "declared_value", "currency"],
				message: `must be ${first}, like the cart's other declared values (one invoice, one currency)`,
			});
		}
	}
}

/** The item's tariff line: what customs sees it as, and the destination's code for that. */
export const ItemCustomsSchema = z
	.object({
		kind: z.enum(TARIFF_KINDS).openapi({ example: "framed_print" }),
		tariff_code: z.string().nullable().openapi({
			description: "The destination's tariff code; null for a delivery that crosses no border.",
			example: "4911.91.00",
		}),
	})
	.openapi("ItemCustoms");

/** Terms for an order abroad. */
export const DutyTermsSchema = z.enum(DUTY_TERMS).openapi({
	description:
		"`ddp`: delivered duty paid, the service pays the border's charges and charges the partner; `dap`: the buyer is asked for them at the door.",
	example: "ddp",
});

const LandedLineSchema = z.object({
	kind: z.enum(["import_tax", "duty", "clearance_fee"]),
	label: z.string().openapi({ example: "VAT 19 %" }),
	rate_bp: z.number().int().nullable().openapi({ description: "Hundredths of a percent.", example: 1900 }),
	base: minor.nullable().openapi({ description: "What the rate applies to, in the destination's currency." }),
	amount: minor.openapi({ description: "In the destination's currency." }),
	amount_in_currency: minor.openapi({ description: "In the quote's or order's currency." }),
	collected: z.enum(["at_sale", "at_border"]),
	payer: z.enum(["partner", "buyer"]),
	rule: z.string(),
});

export const LandedCostSchema = z
	.object({
		coverage: z.enum(["domestic", "estimated", "not_covered"]).openapi({
			description:
				"`domestic`: no border; `estimated`: by the landed-cost table; `not_covered`: the table has no rules for the destination (nothing is added, and duty paid is not offered).",
		}),
		terms: DutyTermsSchema,
		table_version: z.number().int(),
		origin: z.string().openapi({ example: "US" }),
		destination_currency: CurrencySchema,
		goods_value: minor.openapi({ description: "The goods' declared value in the destination's currency." }),
		shipping_value: minor.openapi({ description: "The shipping in the destination's currency." }),
		lines: z.array(LandedLineSchema),
		charged_to_partner: minor.openapi({
			description: "What the partner pays for the border, in the quote's currency.",
		}),
		buyer_pays_at_door: z.object({ amount: minor, currency: CurrencySchema, amount_in_currency: minor }),
		ioss: z.boolean().openapi({ description: "Whether the tax is declared under the service's IOSS number." }),
		tariff_codes: z
			.object({ framed_print: z.string(), unframed_print: z.string(), frame: z.string() })
			.nullable()
			.openapi({ description: "The destination's tariff code of each kind of piece; null when no border is crossed." }),
	})
	.openapi("LandedCost", {
		example: {
			coverage: "estimated",
			terms: "ddp",
			table_version: 2,
			origin: "US",
			destination_currency: "EUR",
			goods_value: 12835,
			shipping_value: 23067,
			lines: [
				{
					kind: "duty",
					label: "Duty: 1 tariff line at a fixed amount each",
					rate_bp: null,
					base: null,
					amount: 300,
					amount_in_currency: 300,
					collected: "at_sale",
					payer: "partner",
					rule: "goods value within the low-value limit of 15000: a fixed duty per tariff line",
				},
			],
			charged_to_partner: 300,
			buyer_pays_at_door: { amount: 0, currency: "EUR", amount_in_currency: 0 },
			ioss: true,
			tariff_codes: { framed_print: "4911.91.00", unframed_print: "4911.91.00", frame: "4414.90.00" },
		},
	});

/** The rate sheet a quote's or order's amounts were converted at. */
export const AppliedRateSchema = z
	.object({
		sheet_version: z.number().int().openapi({ example: 1 }),
		per_usd_micros: z.number().int().openapi({
			description: "Units of the currency one US dollar bought, in millionths.",
			example: 862000,
		}),
	})
	.openapi("AppliedExchangeRate");

/** The tax on the service's charges to the partner, as the order keeps it. */
export const PartnerTaxSchema = z
	.object({
		treatment: z.enum(["none", "vat", "reverse_charge"]),
		name: z.string().nullable().openapi({ example: "VAT" }),
		rate_bp: z.number().int().openapi({ example: 1900 }),
		country: z.string().nullable().openapi({ example: "DE" }),
		tax_id: z.string().nullable().openapi({ example: null }),
	})
	.openapi("PartnerTax", {
		description:
			"How the service's charges for this order are taxed: `vat` at `rate_bp`, `reverse_charge` (the partner accounts for it), or `none`.",
	});

/** What an account without a tax country is charged: no partner tax. */
export const NO_PARTNER_TAX = { treatment: "none", name: null, rate_bp: 0, country: null, tax_id: null } as const;
