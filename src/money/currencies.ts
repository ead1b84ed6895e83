/**
 * The currencies an account can be billed in, each with its own minor unit (the yen has none), and
 * how an amount in minor units reads on a page. Every amount the service stores or answers is a whole
 * number of its currency's minor unit.
 */
import { z } from "@hono/zod-openapi";

/** The billing currencies, ISO 4217. */
export const CURRENCIES = ["USD", "EUR", "GBP", "CAD", "AUD", "JPY"] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Digits after the decimal point of each currency's minor unit (ISO 4217's exponent). */
export const MINOR_DIGITS: Readonly<Record<Currency, number>> = { USD: 2, EUR: 2, GBP: 2, CAD: 2, AUD: 2, JPY: 0 };

/** A billing currency as the API takes and answers it. */
export const CurrencySchema = z.enum(CURRENCIES).openapi({
	description: "ISO 4217: USD, EUR, GBP, CAD, AUD or JPY. Amounts are whole numbers of its minor unit (JPY has none).",
	example: "EUR",
});

const SYMBOLS: Readonly<Record<Currency, string>> = {
	USD: "$",
	EUR: "€",
	GBP: "£",
	CAD: "CA$",
	AUD: "A$",
	JPY: "¥",
};

/** `€1,234.56` for 123,456 in EUR, `¥15,000` for 15,000 in JPY, `−$3.10` for −310 in USD. */
export function moneyText(amount: number, currency: Currency): string {
	const sign = amount < 0 ? "−" : "";
	const digits = MINOR_DIGITS[currency];
	const scale = 10 ** digits;
	const absolute = Math.abs(amount);
	const whole = Math.floor(absolute / scale).toLocaleString("en-US");
	const fraction = digits === 0 ? "" : `.${String(absolute % scale).padStart(digits, "0")}`;
	return `${sign}${SYMBOLS[currency]}${whole}${fraction}`;
}

/** Whether `code` is a billing currency. */
export function isCurrency(code: string): code is Currency {
	return (CURRENCIES as readonly string[]).includes(code);
}
