/**
 * The partner's own tax on a ledger entry: the rate of the treatment the entry is taxed under applied
 * to the entry's taxable amount, rounded half away from zero to a whole minor unit once per entry, and
 * signed like the amount (a credit gives tax back). Pure, exact (BigInt).
 */

/** How an entry is taxed: no tax, VAT at `rate_bp`, or reverse charge (the partner accounts for the VAT; 0). */
export const TAX_TREATMENTS = ["none", "vat", "reverse_charge"] as const;
export type TaxTreatment = (typeof TAX_TREATMENTS)[number];

/** The treatment an entry is taxed under and its rate in hundredths of a percent (0 unless `vat`). */
export type EntryTaxRule = { treatment: TaxTreatment; rate_bp: number };

/** No tax: what an account without a tax country, and every order made before orders kept their tax, has. */
export const NO_TAX: EntryTaxRule = { treatment: "none", rate_bp: 0 };

/** An entry's tax: the rule it is taxed under and the tax in minor units of the entry's currency. */
export type EntryTax = EntryTaxRule & { cents: number };

/** The tax on `taxable` minor units under `rule`, rounded half away from zero; a RangeError past 2^53. */
export function taxOn(taxable: number, rule: EntryTaxRule): EntryTax {
	if (!Number.isSafeInteger(taxable)) throw new RangeError(`cannot tax ${taxable}: not a whole number of minor units`);
	const ratePart = rule.treatment === "vat" ? rule.rate_bp : 0;
	const numerator = BigInt(taxable) * BigInt(ratePart);
	const negative = numerator < 0n;
	const absolute = negative ? -numerator : numerator;
	const rounded = (absolute * 2n + 10_000n) / 20_000n;
	const cents = Number(negative ? -rounded : rounded);
	return { treatment: rule.treatment, rate_bp: ratePart, cents };
}
