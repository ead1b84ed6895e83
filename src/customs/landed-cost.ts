/**
 * An order's landed cost: what crossing the border adds to a consignment, line by line, by the table
 * in force for its destination. Pure. Amounts are computed in the destination's currency (where its
 * thresholds and rates are stated), each rounded half up once, then each converted once to the
 * account's currency; sums are sums of converted amounts.
 *
 * The rules, in order, for a consignment of goods value v (declared values, in the destination's currency):
 * - v within `tax_at_sale_up_to`: the tax is charged at sale, to the partner, whatever the terms (UK, AU);
 * - else duty paid and v within `ioss_up_to`: the tax is charged at sale under the service's IOSS (EU);
 * - else v within `tax_free_up_to`: no tax; otherwise the tax is due at the border;
 * - v within `duty_free_up_to`: no ad valorem duty, but `low_value_duty_per_line` for each tariff line;
 *   otherwise each tariff line's rate on its value (with its share of the shipping where the base is CIF);
 * - anything due at the border brings the carrier's clearance fee (DDP's or DAP's);
 * - duty paid: the partner pays everything; duty unpaid: the buyer pays what is due at the border.
 */
import { type Currency, moneyText } from "../money/currencies.ts";
import { convert } from "../money/exchange.ts";
import { roundHalfUp, safeSum } from "../pricing/money.ts";
import type { Destination, DutyTerms, LandedCostTable, TariffKind } from "./tables.ts";

/** A line of the consignment as customs sees it: its kind, how many, and the declared value of one. */
export type DeclaredLine = { kind: TariffKind; quantity: number; unit_value: number; currency: Currency };

/** What the landed cost is of. */
export type LandedCostInput = {
	country: string;
	/** The ship-to's subdivision (state, province), for a regional rate. */
	region: string | null;
	terms: DutyTerms;
	lines: readonly DeclaredLine[];
	/** The shipping the partner is charged, in the account's currency. */
	shipping: number;
	accountCurrency: Currency;
	/** Units per US dollar in millionths (the rate sheet's). */
	rates: Readonly<Record<Currency, number>>;
};

/** One amount crossing the border adds. */
export type LandedLine = {
	kind: "import_tax" | "duty" | "clearance_fee";
	/** What it is, in words: "VAT 19 %", "Duty 4911.91.00 at 0 %", "Clearance fee (duty paid)". */
	label: string;
	rate_bp: number | null;
	/** The base the rate applies to, in the destination's currency (null for a fixed amount). */
	base: number | null;
	amount: number;
	amount_in_currency: number;
	collected: "at_sale" | "at_border";
	payer: "partner" | "buyer";
	/** Why this amount (a threshold that applies, or the rule). */
	rule: string;
};

/** A consignment's landed cost. */
export type LandedCost = {
	coverage: "domestic" | "estimated" | "not_covered";
	terms: DutyTerms;
	table_version: number;
	origin: string;
	destination_currency: Currency;
	/** The goods' declared value in the destination's currency, which the thresholds are measured by. */
	goods_value: number;
	/** The shipping in the destination's currency. */
	shipping_value: number;
	lines: LandedLine[];
	/** In the account's currency: what the partner is charged for crossing the border. */
	charged_to_partner: number;
	/** What the buyer will be asked for at the door, in the destination's currency and the account's. */
	buyer_pays_at_door: { amount: number; currency: Currency; amount_in_currency: number };
	/** Whether the consignment's tax is declared under the service's IOSS number. */
	ioss: boolean;
	/** The destination's tariff code for each kind of piece; null when no border is crossed or the table has no rules. */
	tariff_codes: Record<TariffKind, string> | null;
};

function nothing(
	coverage: "domestic" | "not_covered",
	input: LandedCostInput,
	table: LandedCostTable,
	currency: Currency,
): LandedCost {
	return {
		coverage,
		terms: input.terms,
		table_version: table.version,
		origin: table.origin,
		destination_currency: currency,
		goods_value: 0,
		shipping_value: 0,
		lines: [],
		charged_to_partner: 0,
		buyer_pays_at_door: { amount: 0, currency, amount_in_currency: 0 },
		ioss: false,
		tariff_codes: null,
	};
}

function within(value: number, limit: number | null): boolean {
	return limit !== null && value <= limit;
}

/** `total` shared over `weights` in proportion, exactly: floors, then the remainder to the largest weights first. */
export function shareOut(total: number, weights: readonly number[]): number[] {
	const sum = safeSum(weights, "weights");
	if (sum === 0) return weights.map((_, index) => (index === 0 ? total : 0));
	const shares = weights.map((weight) => Number((BigInt(total) * BigInt(weight)) / BigInt(sum)));
	let left = total - safeSum(shares, "shares");
	const order = weights
		.map((weight, index) => ({ weight, index }))
		.sort((a, b) => b.weight - a.weight || a.index - b.index);
	for (const { index } of order) {
		if (left <= 0) break;
		shares[index] = (shares[index] ?? 0) + 1;
		left -= 1;
	}
	return shares;
}

function limitText(limit: number | null, currency: Currency): string {
	return limit === null ? "no limit" : moneyText(limit, currency);
}

function percentText(rateBp: number): string {
	return `${(rateBp / 100).toLocaleString("en-US", { maximumFractionDigits: 2 })} %`;
}

/** The landed cost of `input` under `table` (a country the table lacks is `not_covered`, with nothing added). */
export function landedCost(input: LandedCostInput, table: LandedCostTable): LandedCost {
	const destination: Destination | undefined = table.destinations[input.country];
	if (destination === undefined) return nothing("not_covered", input, table, input.accountCurrency);
	const currency = destination.currency;
	const customs = destination.customs;
	if (customs === null || input.country === table.origin) return nothing("domestic", input, table, currency);
	const toDestination = (value: number, from: Currency) => convert(value, from, currency, input.rates);
	const toAccount = (value: number) => convert(value, currency, input.accountCurrency, input.rates);

	// Each line's value once in the destination's currency; a tariff line is a kind of piece.
	const byKind = new Map<TariffKind, number>();
	for (const line of input.lines) {
		const value = toDestination(line.unit_value * line.quantity, line.currency);
		byKind.set(line.kind, (byKind.get(line.kind) ?? 0) + value);
	}
	const kinds = [...byKind.keys()];
	const goods = safeSum(byKind.values(), "goods value");
	const shipping = toDestination(input.shipping, input.accountCurrency);
	const { thresholds } = customs;
	const ddp = input.terms === "ddp";
	const lines: Omit<LandedLine, "amount_in_currency" | "payer">[] = [];

	// Duty: ad valorem per tariff line, or the low-value fixed duty per line, or none.
	let duty = 0;
	const dutyAtSale = ddp && within(goods, thresholds.ioss_up_to);
	if (within(goods, thresholds.duty_free_up_to)) {
		const perLine = customs.low_value_duty_per_line;
		if (perLine !== null && perLine > 0) {
			duty = perLine * kinds.length;
			lines.push({
				kind: "duty",
				label: `Duty: ${kinds.length} tariff line${kinds.length === 1 ? "" : "s"} at a fixed amount each`,
				rate_bp: null,
				base: null,
				amount: duty,
				collected: dutyAtSale ? "at_sale" : "at_border",
				rule: `goods value within the low-value limit of ${limitText(thresholds.duty_free_up_to, currency)}: a fixed duty per tariff line`,
			});
		}
	} else {
		const shares = shareOut(
			customs.duty.includes_shipping ? shipping : 0,
			kinds.map((kind) => byKind.get(kind) ?? 0),
		);
		for (const [index, kind] of kinds.entries()) {
			const base = (byKind.get(kind) ?? 0) + (shares[index] ?? 0);
			const rate = customs.duty.rate_bp[kind];
			const amount = roundHalfUp(base * rate, 10_000);
			duty += amount;
			lines.push({
				kind: "duty",
				label: `Duty ${customs.duty.tariff_codes[kind]} at ${percentText(rate)}`,
				rate_bp: rate,
				base,
				amount,
				collected: "at_border",
				rule: `goods value above the duty-free limit${thresholds.duty_free_up_to === null ? "" : ` of ${limitText(thresholds.duty_free_up_to, currency)}`}`,
			});
		}
	}

	// The import tax: at sale, free, or at the border.
	const rate =
		(input.region === null ? undefined : customs.import_tax.regions?.[input.region]) ?? customs.import_tax.rate_bp;
	const atSale = within(goods, thresholds.tax_at_sale_up_to);
	const ioss = !atSale && dutyAtSale;
	const taxBase =
		goods + (customs.import_tax.includes_shipping ? shipping : 0) + (customs.import_tax.includes_duty ? duty : 0);
	const taxName = `${customs.import_tax.name} ${percentText(rate)}`;
	if (!atSale && !ioss && within(goods, thresholds.tax_free_up_to)) {
		lines.push({
			kind: "import_tax",
			label: taxName,
			rate_bp: rate,
			base: taxBase,
			amount: 0,
			collected: "at_border",
			rule: `goods value within the tax-free limit of ${limitText(thresholds.tax_free_up_to, currency)}`,
		});
	} else {
		lines.push({
			kind: "import_tax",
			label: taxName,
			rate_bp: rate,
			base: taxBase,
			amount: roundHalfUp(taxBase * rate, 10_000),
			collected: atSale || ioss ? "at_sale" : "at_border",
			rule: atSale
				? `goods value within ${limitText(thresholds.tax_at_sale_up_to, currency)}: charged at sale by the seller`
				: ioss
					? `duty paid, goods value within ${limitText(thresholds.ioss_up_to, currency)}: charged at sale under the service's IOSS`
					: "charged at import",
		});
	}

	// The carrier's fee when anything is paid at the border.
	if (lines.some((line) => line.collected === "at_border" && line.amount > 0)) {
		lines.push({
			kind: "clearance_fee",
			label: ddp ? "Clearance fee (duty paid)" : "Clearance fee (asked of the buyer)",
			rate_bp: null,
			base: null,
			amount: ddp ? customs.clearance_fee.ddp : customs.clearance_fee.dap,
			collected: "at_border",
			rule: "the carrier's fee for paying the border's charges",
		});
	}

	const priced: LandedLine[] = lines.map((line) => ({
		...line,
		amount_in_currency: toAccount(line.amount),
		payer: line.collected === "at_sale" || ddp ? "partner" : "buyer",
	}));
	const buyers = priced.filter((line) => line.payer === "buyer");
	return {
		coverage: "estimated",
		terms: input.terms,
		table_version: table.version,
		origin: table.origin,
		destination_currency: currency,
		goods_value: goods,
		shipping_value: shipping,
		lines: priced,
		charged_to_partner: safeSum(
			priced.filter((line) => line.payer === "partner").map((line) => line.amount_in_currency),
			"charged to partner",
		),
		buyer_pays_at_door: {
			amount: safeSum(
				buyers.map((line) => line.amount),
				"buyer pays",
			),
			currency,
			amount_in_currency: safeSum(
				buyers.map((line) => line.amount_in_currency),
				"buyer pays",
			),
		},
		ioss,
		tariff_codes: { ...customs.duty.tariff_codes },
	};
}
