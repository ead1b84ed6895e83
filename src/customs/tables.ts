/**
 * The landed-cost tables: for each destination, the import tax and its rate, the duty and tariff
 * code of each kind of piece, the thresholds under which a consignment pays less or is taxed at sale,
 * the carrier's fee for clearing it, and the tax the service charges a partner established there,
 * each with its sources. The service team publishes them through the admin API with an effective
 * time, as it publishes the price book: versioned, bounded, never edited once published, never typed
 * into code (the seed is migration 0040's data).
 */
import { z } from "@hono/zod-openapi";
import { COUNTRY_CODE_SET } from "../addresses/regions.ts";
import { dateTime } from "../http/date-time.ts";
import { CurrencySchema } from "../money/currencies.ts";
import { type Refusal, refusal } from "../problem.ts";

export { DUTY_TERMS, type DutyTerms } from "../money/duty-terms.ts";

/** What customs sees in a piece: a framed print, a print alone, or a frame alone. */
export const TARIFF_KINDS = ["framed_print", "unframed_print", "frame"] as const;
export type TariffKind = (typeof TARIFF_KINDS)[number];

/** The bounds every published figure keeps. */
export const CUSTOMS_BOUNDS = {
	/** Hundredths of a percent: 0 to 100 %. */
	rateBp: 10_000,
	/** Minor units of the destination's currency (10^10: ¥10 billion, €100 million). */
	amount: 10_000_000_000,
	/** Destinations in one table. */
	countries: 250,
	/** Regions with their own rate in one destination. */
	regions: 100,
} as const;

const rateBp = z
	.number()
	.int("must be a whole number of hundredths of a percent")
	.min(0)
	.max(CUSTOMS_BOUNDS.rateBp, "must be at most 10000 (100 %)");
const amount = z.number().int("must be a whole number of minor units").min(0).max(CUSTOMS_BOUNDS.amount);
const threshold = amount.nullable();
const kindRecord = <T extends z.ZodType>(value: T) =>
	z.strictObject(Object.fromEntries(TARIFF_KINDS.map((kind) => [kind, value])) as Record<TariffKind, T>);

const SourceSchema = z.strictObject({
	title: z.string().min(1).max(200).openapi({ example: "Import One-Stop Shop (IOSS)" }),
	url: z.url().max(500).nullable().openapi({
		description: "Where to read it; null for the service's own figures (its carrier contract).",
		example: "https://vat-one-stop-shop.ec.europa.eu/",
	}),
	as_of: z.iso.date().openapi({ description: "The day the figure was read from the source.", example: "2025-12-01" }),
});

const CustomsSchema = z.strictObject({
	import_tax: z.strictObject({
		name: z.string().min(1).max(40).openapi({ example: "VAT" }),
		rate_bp: rateBp.openapi({ description: "Hundredths of a percent: 1900 is 19 %.", example: 1900 }),
		regions: z
			.record(z.string().min(1).max(10), rateBp)
			.refine((regions) => Object.keys(regions).length <= CUSTOMS_BOUNDS.regions, "must hold at most 100 regions")
			.optional()
			.openapi({ description: "A rate per subdivision (ship_to.state) where it differs, such as Canada's HST." }),
		includes_shipping: z.boolean().openapi({ description: "Whether the tax's base includes the shipping." }),
		includes_duty: z.boolean().openapi({ description: "Whether the tax's base includes the duty." }),
	}),
	duty: z.strictObject({
		tariff_codes: kindRecord(z.string().regex(/^\d{4}(\.?\d{2}){1,4}$/, "must be a tariff code such as 4911.91.00")),
		rate_bp: kindRecord(rateBp),
		includes_shipping: z.boolean().openapi({ description: "Whether the duty's base includes the shipping (CIF)." }),
	}),
	thresholds: z.strictObject({
		tax_at_sale_up_to: threshold.openapi({
			description:
				"Up to this goods value the seller charges the import tax at sale, whatever the terms (UK, Australia).",
		}),
		ioss_up_to: threshold.openapi({
			description:
				"Up to this goods value a duty-paid consignment's tax is charged at sale under the service's IOSS number (EU).",
		}),
		tax_free_up_to: threshold.openapi({ description: "Up to this goods value no import tax is due." }),
		duty_free_up_to: threshold.openapi({ description: "Up to this goods value no ad valorem duty is due." }),
	}),
	low_value_duty_per_line: threshold.openapi({
		description: "A fixed duty per tariff line of a consignment within duty_free_up_to (the EU's, from July 2026).",
	}),
	clearance_fee: z.strictObject({
		ddp: amount.openapi({ description: "The carrier's fee to the service for paying at the border." }),
		dap: amount.openapi({ description: "The carrier's fee the buyer is asked for with the tax and duty." }),
	}),
});

const DestinationSchema = z.strictObject({
	currency: CurrencySchema.openapi({ description: "The currency the destination's thresholds and fees are in." }),
	customs: CustomsSchema.nullable().openapi({ description: "Null for a domestic destination (no border)." }),
	partner_tax: z
		.strictObject({
			name: z.string().min(1).max(40),
			rate_bp: rateBp,
			reverse_charge: z.boolean().openapi({
				description: "Whether a partner with a VAT number there accounts for the tax itself (reverse charge).",
			}),
		})
		.nullable()
		.openapi({ description: "The tax on the service's charges to a partner established there; null when none." }),
	sources: z.array(SourceSchema).min(1).max(10),
});
export type Destination = z.infer<typeof DestinationSchema>;
export type Customs = z.infer<typeof CustomsSchema>;

/** A table's body: where pieces ship from, and the destinations. */
export const LandedCostTableBody = z
	.strictObject({
		origin: z
			.string()
			.refine((code) => COUNTRY_CODE_SET.has(code), "must be an ISO 3166-1 alpha-2 country code")
			.openapi({ example: "US" }),
		destinations: z
			.record(
				z.string().refine((code) => COUNTRY_CODE_SET.has(code), "must be an ISO 3166-1 alpha-2 country code"),
				DestinationSchema,
			)
			.refine(
				(destinations) => Object.keys(destinations).length <= CUSTOMS_BOUNDS.countries,
				`must hold at most ${CUSTOMS_BOUNDS.countries} destinations`,
			),
	})
	.openapi("LandedCostTableBody");
export type LandedCostTableInput = z.infer<typeof LandedCostTableBody>;

/** A published table. */
export const LandedCostTableSchema = z
	.object({
		version: z.number().int().min(1),
		effective_at: dateTime(),
		published_at: dateTime(),
		...LandedCostTableBody.shape,
	})
	.openapi("LandedCostTable");
export type LandedCostTable = z.infer<typeof LandedCostTableSchema>;

/**
 * Why a table cannot be published though each destination is well formed, or null: its origin must be
 * listed, as domestic (`customs: null`: a delivery there crosses no border), and only the origin may be
 * (any other destination without customs would be charged nothing at its border).
 */
export function tableCoverageRefusal(table: LandedCostTableInput): Refusal | null {
	const origin = table.destinations[table.origin];
	if (origin === undefined)
		return refusal(
			"landed_cost_table_incomplete",
			"destinations",
			`destinations lacks the origin ${table.origin}: list it as domestic, with customs null.`,
		);
	if (origin.customs !== null)
		return refusal(
			"landed_cost_table_incomplete",
			`destinations.${table.origin}.customs`,
			`destinations.${table.origin} is the origin: its customs must be null (a delivery there crosses no border).`,
		);
	const open = Object.keys(table.destinations).find(
		(country) => country !== table.origin && table.destinations[country]?.customs === null,
	);
	if (open !== undefined)
		return refusal(
			"landed_cost_table_incomplete",
			`destinations.${open}.customs`,
			`destinations.${open} has no customs, but only the origin ${table.origin} is domestic: give its import tax, duty, thresholds and clearance fees.`,
		);
	return null;
}
