/**
 * A cart or an order as customs sees it: each item's tariff line and declared value, and its landed
 * cost under the terms asked for. One currency per consignment: the first declared value's, or the
 * account's when none is declared; an item declared at nothing is declared at its own unit price,
 * converted once into that currency.
 */
import type { DutyTerms } from "../money/account-billing.ts";
import type { Currency } from "../money/currencies.ts";
import { convert } from "../money/exchange.ts";
import { type LandedCost, landedCost } from "./landed-cost.ts";
import type { DeclaredValue } from "./schema.ts";
import type { LandedCostTable, TariffKind } from "./tables.ts";

/** An item of the consignment: framed or not, how many, its unit price, and what the partner declared. */
export type ConsignmentItem = {
	framed: boolean;
	quantity: number;
	/** One unit's price to the partner, in the account's currency. */
	unitPrice: number;
	declared: DeclaredValue | null;
};

/** The item's tariff line: its kind, and its code at the destination (null when it crosses no border). */
export function itemCustomsOf(
	framed: boolean,
	country: string,
	table: LandedCostTable,
): { kind: TariffKind; tariff_code: string | null } {
	const kind: TariffKind = framed ? "framed_print" : "unframed_print";
	const customs = country === table.origin ? null : (table.destinations[country]?.customs ?? null);
	return { kind, tariff_code: customs?.duty.tariff_codes[kind] ?? null };
}

/** Each item's declared unit value, all in the consignment's one currency. */
export function declaredValuesOf(
	items: readonly ConsignmentItem[],
	accountCurrency: Currency,
	rates: Readonly<Record<Currency, number>>,
): DeclaredValue[] {
	const currency = items.find((item) => item.declared !== null)?.declared?.currency ?? accountCurrency;
	return items.map(
		(item) => item.declared ?? { amount: convert(item.unitPrice, accountCurrency, currency, rates), currency },
	);
}

/** What the landed cost of a consignment reads besides its items and shipping. */
export type BorderFacts = {
	country: string;
	region: string | null;
	terms: DutyTerms;
	accountCurrency: Currency;
	rates: Readonly<Record<Currency, number>>;
	table: LandedCostTable;
};

/** The consignment's landed cost with `shipping` (in the account's currency). */
export function consignmentLandedCost(
	items: readonly ConsignmentItem[],
	shipping: number,
	facts: BorderFacts,
): LandedCost {
	const declared = declaredValuesOf(items, facts.accountCurrency, facts.rates);
	const lines = items.map((item, index) => {
		const value = declared[index] ?? { amount: 0, currency: facts.accountCurrency };
		const kind: TariffKind = item.framed ? "framed_print" : "unframed_print";
		return { kind, quantity: item.quantity, unit_value: value.amount, currency: value.currency };
	});
	return landedCost(
		{
			country: facts.country,
			region: facts.region,
			terms: facts.terms,
			lines,
			shipping,
			accountCurrency: facts.accountCurrency,
			rates: facts.rates,
		},
		facts.table,
	);
}

/**
 * consignmentLandedCost, or why it cannot be reckoned: declared values so large that, at the rates in
 * force, an amount would pass 2^53 (the only RangeError the arithmetic throws). A refusal, not a 500.
 */
export function reckonedLandedCost(
	items: readonly ConsignmentItem[],
	shipping: number,
	facts: BorderFacts,
): { ok: true; landed: LandedCost } | { ok: false; message: string } {
	try {
		return { ok: true, landed: consignmentLandedCost(items, shipping, facts) };
	} catch (error) {
		if (!(error instanceof RangeError)) throw error;
		return {
			ok: false,
			message: `the declared values are too large to reckon the border's charges at the rates in force (${error.message}): declare what the buyer paid for one unit`,
		};
	}
}
