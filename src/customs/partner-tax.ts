/**
 * The tax on the service's own charges to a partner: decided by where the partner is established and
 * whether it gave a VAT number, under the table in force when the order is made (an order keeps it).
 * - the partner's country has no partner tax in the table (or none is set): `none`;
 * - it has one, and the partner gave a VAT number (checked for format when it was set), and the
 *   country lets its businesses account for the tax themselves: `reverse_charge`, no tax on the charge;
 * - otherwise: `vat` at the country's rate.
 */
import type { AccountBilling } from "../money/account-billing.ts";
import type { LandedCostTable } from "./tables.ts";

/** How the service's charges to a partner are taxed. */
export type PartnerTax = {
	treatment: "none" | "vat" | "reverse_charge";
	/** The tax's name where one applies ("VAT"). */
	name: string | null;
	/** Hundredths of a percent charged (0 unless `vat`). */
	rate_bp: number;
	country: string | null;
	tax_id: string | null;
};

/** The partner tax of an account billed as `billing`, under `table`. */
export function partnerTaxOf(billing: AccountBilling, table: Pick<LandedCostTable, "destinations">): PartnerTax {
	const country = billing.tax_country;
	const rule = country === null ? null : (table.destinations[country]?.partner_tax ?? null);
	if (rule === null) return { treatment: "none", name: null, rate_bp: 0, country, tax_id: billing.tax_id };
	if (billing.tax_id !== null && rule.reverse_charge) {
		return { treatment: "reverse_charge", name: rule.name, rate_bp: 0, country, tax_id: billing.tax_id };
	}
	return { treatment: "vat", name: rule.name, rate_bp: rule.rate_bp, country, tax_id: billing.tax_id };
}
