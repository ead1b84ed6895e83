/**
 * Exact money arithmetic for the price book: integers only, one rounding (half up) per component,
 * and every sum or product of money, weight or days checked to stay a safe integer, so an amount
 * past 2^53 is an error rather than a quietly wrong price.
 */

/** The quotient and remainder of two safe integers, both exact (no intermediate leaves the safe range). */
function divide(numerator: number, denominator: number, what: string): { quotient: number; remainder: number } {
	if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || numerator < 0 || denominator <= 0) {
		throw new RangeError(`cannot ${what} ${numerator}/${denominator} exactly`);
	}
	// The remainder is exact for any two doubles, so numerator − remainder is an exact multiple of the
	// denominator and their quotient an exact integer: nothing is rounded, however large the numbers.
	const remainder = numerator % denominator;
	return { quotient: (numerator - remainder) / denominator, remainder };
}

/** `numerator / denominator` rounded half up to a whole number; both non-negative safe integers. */
export function roundHalfUp(numerator: number, denominator: number): number {
	const { quotient, remainder } = divide(numerator, denominator, "round");
	return remainder * 2 >= denominator ? quotient + 1 : quotient;
}

/** `numerator / denominator` rounded up to a whole number; both non-negative safe integers. */
export function ceilDiv(numerator: number, denominator: number): number {
	const { quotient, remainder } = divide(numerator, denominator, "divide");
	return remainder > 0 ? quotient + 1 : quotient;
}

/** `value` itself when it is a safe integer; a RangeError naming `what` otherwise (past 2^53, NaN, infinite or fractional). */
export function safeInteger(value: number, what: string): number {
	if (!Number.isSafeInteger(value)) throw new RangeError(`${what} is ${value}, not a safe integer`);
	return value;
}

/** The sum of safe integers, checked to be one too. */
export function safeSum(values: Iterable<number>, what: string): number {
	let sum = 0;
	for (const value of values) sum = safeInteger(sum + safeInteger(value, what), what);
	return sum;
}

/** The product of two safe integers, checked to be one too. */
export function safeProduct(a: number, b: number, what: string): number {
	return safeInteger(safeInteger(a, what) * safeInteger(b, what), what);
}

/** `$148.89` for 14,889 cents. */
export function dollarsText(cents: number): string {
	const sign = cents < 0 ? "−" : "";
	const absolute = Math.abs(cents);
	const dollars = Math.floor(absolute / 100).toLocaleString("en-US");
	return `${sign}$${dollars}.${String(absolute % 100).padStart(2, "0")}`;
}
