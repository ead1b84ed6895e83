/**
 * Exchange rates and the one conversion rule. A rate sheet says how many units of each currency one US
 * dollar buys, in millionths (EUR 0.862 is 862,000), from its effective time on. An amount is converted
 * once, exactly: `minor × rate(to) × 10^digits(to) / (rate(from) × 10^digits(from))`, rounded half away
 * from zero to a whole minor unit, in integer arithmetic (BigInt, so nothing is lost past 2^53 on the
 * way). Totals are sums of converted amounts, never converted sums.
 */
import { z } from "@hono/zod-openapi";
import { dateTime } from "../http/date-time.ts";
import { CURRENCIES, type Currency, MINOR_DIGITS } from "./currencies.ts";

/** The bounds a published rate must keep: one dollar buys from 0.0001 to 100,000 units (millionths). */
export const RATE_BOUNDS = { min: 100, max: 100_000_000_000 } as const;

const rate = z
	.number()
	.int("must be a whole number of millionths")
	.min(RATE_BOUNDS.min, `must be at least ${RATE_BOUNDS.min} (0.0001 per US dollar)`)
	.max(RATE_BOUNDS.max, `must be at most ${RATE_BOUNDS.max} (100,000 per US dollar)`);

/** Units of each currency one US dollar buys, in millionths; USD itself is always 1,000,000. */
export const PerUsdMicrosSchema = z
	.strictObject(Object.fromEntries(CURRENCIES.map((currency) => [currency, rate])) as Record<Currency, typeof rate>)
	.refine((rates) => rates.USD === 1_000_000, {
		message: "USD must be 1000000 (one dollar buys one dollar)",
		path: ["USD"],
	})
	.openapi({
		description: "Units of each currency one US dollar buys, in millionths (0.862 euros is 862000).",
		example: { USD: 1_000_000, EUR: 862_000, GBP: 760_000, CAD: 1_400_000, AUD: 1_530_000, JPY: 155_000_000 },
	});

/** A published rate sheet. */
export const RateSheetSchema = z
	.object({
		version: z.number().int().min(1).openapi({ example: 1 }),
		effective_at: dateTime().openapi({ example: "2026-11-01T00:00:00.000Z" }),
		published_at: dateTime().openapi({ example: "2026-10-31T12:00:00.000Z" }),
		source: z.string().min(1).max(500).openapi({ example: "ECB euro reference rates of 2026-10-30, via EUR/USD" }),
		per_usd_micros: PerUsdMicrosSchema,
	})
	.openapi("ExchangeRateSheet");
export type RateSheet = z.infer<typeof RateSheetSchema>;

/** The rate a quote or an order was priced at: the sheet's version and the account currency's rate. */
export type AppliedRate = { sheet_version: number; per_usd_micros: number };

function halfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
	const negative = numerator < 0n;
	const absolute = negative ? -numerator : numerator;
	const rounded = (absolute * 2n + denominator) / (denominator * 2n);
	return negative ? -rounded : rounded;
}

/** `amount` minor units of `from` in `to`'s minor units under `rates`, by the one rule; a RangeError past 2^53. */
export function convert(
	amount: number,
	from: Currency,
	to: Currency,
	rates: Readonly<Record<Currency, number>>,
): number {
	if (!Number.isSafeInteger(amount))
		throw new RangeError(`cannot convert ${amount}: not a whole number of minor units`);
	if (from === to) return amount;
	const numerator = BigInt(amount) * BigInt(rates[to]) * 10n ** BigInt(MINOR_DIGITS[to]);
	const denominator = BigInt(rates[from]) * 10n ** BigInt(MINOR_DIGITS[from]);
	const converted = Number(halfAwayFromZero(numerator, denominator));
	if (!Number.isSafeInteger(converted)) throw new RangeError(`${amount} ${from} is past 2^53 in ${to}`);
	return converted;
}

/** US cents (the price book's unit) in `to`'s minor units under `sheet`. */
export function fromUsdCents(cents: number, to: Currency, sheet: Pick<RateSheet, "per_usd_micros">): number {
	return convert(cents, "USD", to, sheet.per_usd_micros);
}
