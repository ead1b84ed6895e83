/** Exact money arithmetic for the price book: integers only, one rounding (half up) per component. */

/** `numerator / denominator` rounded half up to a whole number; both non-negative safe integers. */
export function roundHalfUp(numerator: number, denominator: number): number {
	if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || numerator < 0 || denominator <= 0) {
		throw new RangeError(`cannot round ${numerator}/${denominator} exactly`);
	}
	return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** `numerator / denominator` rounded up to a whole number; both non-negative safe integers. */
export function ceilDiv(numerator: number, denominator: number): number {
	if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || numerator < 0 || denominator <= 0) {
		throw new RangeError(`cannot divide ${numerator}/${denominator} exactly`);
	}
	return Math.floor((numerator + denominator - 1) / denominator);
}

/** `$148.89` for 14,889 cents. */
export function dollarsText(cents: number): string {
	const sign = cents < 0 ? "−" : "";
	const absolute = Math.abs(cents);
	const dollars = Math.floor(absolute / 100).toLocaleString("en-US");
	return `${sign}$${dollars}.${String(absolute % 100).padStart(2, "0")}`;
}
