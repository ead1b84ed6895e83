/** How the fuzz tests damage a real file: flipped or overwritten bytes, then a cut. */
import fc from "fast-check";

/** An offset biased towards the header, where the parsers look. */
export const offset = fc.oneof(fc.nat({ max: 64 }), fc.nat({ max: 1024 }), fc.nat({ max: 65_536 }), fc.nat());

/** One damage: XOR a byte with a non-zero mask, or overwrite it. */
export const mutation = fc.record({
	at: offset,
	kind: fc.constantFrom("flip", "overwrite"),
	value: fc.integer({ min: 0, max: 255 }),
});

/** A copy of `bytes` with `mutations` applied (offsets modulo its length), cut to `keep` bytes unless null. */
export function damage(
	bytes: Uint8Array,
	mutations: readonly { at: number; kind: "flip" | "overwrite"; value: number }[],
	keep: number | null,
): { input: Uint8Array; description: string } {
	const copy = bytes.slice();
	const applied: string[] = [];
	for (const { at, kind, value } of mutations) {
		const index = at % copy.length;
		const before = copy[index] ?? 0;
		copy[index] = kind === "flip" ? before ^ (value || 1) : value;
		applied.push(`[${index}] ${before}→${copy[index]}`);
	}
	const cutTo = keep === null ? copy.length : keep % (copy.length + 1);
	return {
		input: copy.subarray(0, cutTo),
		description: `${applied.join(", ") || "no change"}, cut to ${cutTo}/${copy.length} bytes`,
	};
}
