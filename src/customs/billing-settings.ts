/**
 * Changing an account's billing: the request bodies (the partner's and the service team's), and the
 * one check every change passes: a VAT number belongs to the tax country and passes that country's
 * format and check digits (jsvat). A VAT number is stored normalised: upper case, without spaces,
 * dots or dashes, with its country's prefix (Greece's is EL).
 */
import { z } from "@hono/zod-openapi";
import { checkVAT, countries } from "jsvat";
import { COUNTRY_CODE_SET } from "../addresses/regions.ts";
import { type AccountBilling, DUTY_TERMS } from "../money/account-billing.ts";
import { CurrencySchema } from "../money/currencies.ts";
import { type Refusal, refusal } from "../problem.ts";

const TaxCountry = z
	.string()
	.refine((code) => COUNTRY_CODE_SET.has(code), "must be an ISO 3166-1 alpha-2 country code in capitals, such as DE")
	.nullable()
	.openapi({ description: "Where the account is established for tax (ISO 3166-1 alpha-2), or null.", example: "DE" });

const TaxId = z.string().min(1).max(40).nullable().openapi({
	description:
		"The account's VAT number, of the country in `tax_country`, with or without its prefix (spaces, dots and dashes are ignored), or null. Stored upper case with the prefix.",
	example: "DE136695976",
});

const DutyTermsSchema = z.enum(DUTY_TERMS).openapi({
	description:
		"The default for orders abroad: `ddp`, the service pays the border's tax and duty and charges them to the account; `dap`, the buyer is asked for them at the door.",
	example: "ddp",
});

/** The account's billing as the API answers it. */
export const AccountBillingSchema = z
	.object({
		account_id: z.string().openapi({ example: "acct_4fQ9v2" }),
		currency: CurrencySchema,
		duty_terms: DutyTermsSchema,
		tax_country: TaxCountry,
		tax_id: TaxId.openapi({ description: "The account's VAT number with its country prefix, or null." }),
	})
	.openapi("AccountBilling");

/** What a partner may change: the duty terms and its tax registration; a field left out is kept. */
export const BillingPatchBody = z
	.strictObject({
		duty_terms: DutyTermsSchema.optional(),
		tax_country: TaxCountry.optional(),
		tax_id: TaxId.optional(),
	})
	.openapi("AccountBillingPatch");
export type BillingChange = z.infer<typeof BillingPatchBody>;

/** What the service team sets: the currency, and the partner's fields (a field left out is kept). */
export const BillingPutBody = z
	.strictObject({ currency: CurrencySchema, ...BillingPatchBody.shape })
	.openapi("AccountBillingSettings");

/** The prefix of `country`'s VAT numbers: its ISO code, but EL for Greece. */
function vatPrefixOf(country: string): string {
	return country === "GR" ? "EL" : country;
}

/**
 * `taxId` as stored, when it is a valid VAT number of `taxCountry` (the prefix may be left out), or
 * the refusal saying what is wrong with it.
 */
export function checkedTaxId(taxId: string, taxCountry: string | null): { ok: true; taxId: string } | Refusal {
	if (taxCountry === null)
		return refusal(
			"invalid_tax_id",
			"tax_country",
			"A VAT number needs its country: set tax_country to the country that issued tax_id.",
		);
	const normalised = taxId.toUpperCase().replace(/[\s.-]/g, "");
	const asSent = checkVAT(normalised, countries);
	const sentCountry = asSent.country?.isoCode.short;
	if (asSent.isValid && sentCountry !== undefined && sentCountry !== taxCountry)
		return refusal(
			"invalid_tax_id",
			"tax_id",
			`tax_id ${normalised} is a VAT number of ${asSent.country?.name ?? sentCountry} (${sentCountry}), but tax_country is ${taxCountry}: send both of the same country.`,
		);
	const prefix = vatPrefixOf(taxCountry);
	const prefixed = normalised.startsWith(prefix) ? normalised : `${prefix}${normalised}`;
	const checked = checkVAT(prefixed, countries);
	if (!checked.isSupportedCountry || checked.country?.isoCode.short !== taxCountry)
		return refusal(
			"invalid_tax_id",
			"tax_id",
			`VAT numbers of ${taxCountry} are not checked by the service (it takes those of the EU's countries, the United Kingdom, Switzerland and Norway): send tax_id null.`,
		);
	if (!checked.isValidFormat)
		return refusal(
			"invalid_tax_id",
			"tax_id",
			`tax_id ${prefixed} is not in the format of a VAT number of ${taxCountry}: check it against the registration.`,
		);
	if (!checked.isValid)
		return refusal(
			"invalid_tax_id",
			"tax_id",
			`tax_id ${prefixed} fails the check digits of a VAT number of ${taxCountry}: check it for a typo.`,
		);
	return { ok: true, taxId: prefixed };
}

/**
 * The billing after `change` (its fields left out kept from `current`), or the refusal: a tax country
 * changed or removed under a stored VAT number must bring the new number (or null) with it.
 */
export function billingAfter(
	current: AccountBilling,
	change: BillingChange & { currency?: AccountBilling["currency"] },
): { ok: true; billing: AccountBilling } | Refusal {
	const taxCountry = change.tax_country === undefined ? current.tax_country : change.tax_country;
	const taxId = change.tax_id === undefined ? current.tax_id : change.tax_id;
	let storedTaxId: string | null = null;
	if (taxId !== null) {
		const checked = checkedTaxId(taxId, taxCountry);
		if (!checked.ok) {
			const kept = change.tax_id === undefined;
			return kept
				? refusal(
						"invalid_tax_id",
						"tax_country",
						`The account's VAT number ${taxId} is not one of ${taxCountry ?? "no country"}: send the new country's tax_id (or tax_id null) with tax_country.`,
					)
				: checked;
		}
		storedTaxId = checked.taxId;
	}
	return {
		ok: true,
		billing: {
			currency: change.currency ?? current.currency,
			duty_terms: change.duty_terms ?? current.duty_terms,
			tax_country: taxCountry,
			tax_id: storedTaxId,
		},
	};
}
