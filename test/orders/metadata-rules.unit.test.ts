import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { validationErrorFrom } from "../../src/http/validation.ts";
import {
	METADATA_MAX_KEYS,
	type Metadata,
	MetadataPatchSchema,
	MetadataSchema,
	mergeMetadata,
} from "../../src/orders/metadata.ts";

/** `count` keys `k0`… to `v0`…. */
function keys(count: number, prefix = "k"): Record<string, string> {
	return Object.fromEntries(Array.from({ length: count }, (_, index) => [`${prefix}${index}`, `v${index}`]));
}

/** The API error a body `{metadata: value}` comes to when `schema` is its metadata's: code, field and message. */
function refusalOf(schema: typeof MetadataSchema | typeof MetadataPatchSchema, value: unknown) {
	const body = { metadata: value };
	const parsed = z.strictObject({ metadata: schema }).safeParse(body);
	if (parsed.success) throw new Error(`accepted ${JSON.stringify(value)}`);
	const error = validationErrorFrom(parsed.error, body);
	return { status: error.status, code: error.code, field: error.field, message: error.message };
}

describe("MetadataSchema, the rules of a create's metadata", () => {
	it("accepts 20 keys of up to 40 characters with values of up to 500 characters, as sent", () => {
		const value = { ...keys(19), ["K".repeat(40)]: "x".repeat(500) };
		expect(MetadataSchema.parse(value)).toEqual(value);
	});

	it("keeps the keys in the order sent", () => {
		expect(Object.keys(MetadataSchema.parse({ b: "1", a: "2", "c.d-e_f": "3" }))).toEqual(["b", "a", "c.d-e_f"]);
	});

	it("accepts an empty object, and an empty string as a value", () => {
		expect(MetadataSchema.parse({})).toEqual({});
		expect(MetadataSchema.parse({ note: "" })).toEqual({ note: "" });
	});

	it("counts a value's characters as a reader does: 500 emoji are allowed, 501 are not", () => {
		expect(MetadataSchema.parse({ mood: "🎉".repeat(500) })).toEqual({ mood: "🎉".repeat(500) });
		expect(refusalOf(MetadataSchema, { mood: "🎉".repeat(501) })).toMatchObject({
			code: "metadata_value_invalid",
			field: "metadata.mood",
		});
	});

	it("keeps a key named __proto__ as an ordinary key, never as the object's prototype", () => {
		const value = JSON.parse('{"__proto__": "kept", "constructor": "also kept"}') as unknown;
		const parsed = MetadataSchema.parse(value);
		expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
		expect(Object.entries(parsed)).toEqual([
			["__proto__", "kept"],
			["constructor", "also kept"],
		]);
	});

	it("refuses 21 keys on metadata with metadata_too_many_keys", () => {
		expect(refusalOf(MetadataSchema, keys(METADATA_MAX_KEYS + 1))).toEqual({
			status: 422,
			code: "metadata_too_many_keys",
			field: "metadata",
			message: "metadata: must hold at most 20 keys (it has 21)",
		});
	});

	const badKeys: Array<[string, string]> = [
		["a 41-character key", "k".repeat(41)],
		["an empty key", ""],
		["a key with a space", "order ref"],
		["a key with a slash", "a/b"],
		["a key with a non-ASCII letter", "café"],
		["a key with a control character", "a\u0000b"],
	];
	for (const [name, key] of badKeys) {
		it(`refuses ${name} on metadata.<key> with metadata_key_invalid`, () => {
			expect(refusalOf(MetadataSchema, { fine: "yes", [key]: "v" })).toMatchObject({
				status: 422,
				code: "metadata_key_invalid",
				field: `metadata.${key}`,
			});
		});
	}

	const badValues: Array<[string, unknown]> = [
		["a 501-character value", "v".repeat(501)],
		["a line feed", "line one\nline two"],
		["a NUL", "a\u0000b"],
		["a C1 control character", "a\u0085b"],
		["a nested object", { inner: "x" }],
		["an array", ["a", "b"]],
		["a number", 42],
		["a boolean", true],
		["null", null],
	];
	for (const [name, value] of badValues) {
		it(`refuses a value that is ${name} on metadata.<key> with metadata_value_invalid`, () => {
			expect(refusalOf(MetadataSchema, { ok: "fine", ref: value })).toMatchObject({
				status: 422,
				code: "metadata_value_invalid",
				field: "metadata.ref",
			});
		});
	}

	it("says why a number is refused: values are strings", () => {
		expect(refusalOf(MetadataSchema, { count: 3 }).message).toBe(
			"metadata.count: must be a string, not a number: metadata holds flat string values only",
		);
	});

	for (const [name, value] of [
		["null", null],
		["an array", [{ a: "b" }]],
		["a string", "ref=1"],
		["a number", 7],
	] as const) {
		it(`refuses metadata that is ${name} on metadata with metadata_not_object`, () => {
			expect(refusalOf(MetadataSchema, value)).toMatchObject({
				status: 422,
				code: "metadata_not_object",
				field: "metadata",
			});
		});
	}
});

describe("MetadataPatchSchema, the rules of a change of metadata", () => {
	it("takes null as the removal of a key, and strings as with a create", () => {
		expect(MetadataPatchSchema.parse({ gone: null, kept: "v" })).toEqual({ gone: null, kept: "v" });
	});

	it("leaves the 20-key limit to the merge: a change may name more keys than it leaves", () => {
		const patch = { ...keys(15, "a"), ...Object.fromEntries(Object.keys(keys(15, "b")).map((key) => [key, null])) };
		expect(Object.keys(MetadataPatchSchema.parse(patch))).toHaveLength(30);
	});

	it("refuses a bad key and a bad value with the create's codes", () => {
		expect(refusalOf(MetadataPatchSchema, { ["k".repeat(41)]: null })).toMatchObject({
			code: "metadata_key_invalid",
			field: `metadata.${"k".repeat(41)}`,
		});
		expect(refusalOf(MetadataPatchSchema, { ref: { nested: true } })).toMatchObject({
			code: "metadata_value_invalid",
			field: "metadata.ref",
		});
		expect(refusalOf(MetadataPatchSchema, null)).toMatchObject({ code: "metadata_not_object", field: "metadata" });
	});
});

describe("mergeMetadata", () => {
	const current: Metadata = { shop_order_ref: "SO-1", channel: "etsy" };

	it("sets new keys last, changes existing ones in place and leaves keys not named alone", () => {
		const merged = mergeMetadata(current, { channel: "shopify", gift: "yes" });
		expect(merged).toEqual({ ok: true, metadata: { shop_order_ref: "SO-1", channel: "shopify", gift: "yes" } });
		if (merged.ok) expect(Object.keys(merged.metadata)).toEqual(["shop_order_ref", "channel", "gift"]);
	});

	it("removes a key set to null, and ignores null for a key that is not there", () => {
		expect(mergeMetadata(current, { channel: null, never_set: null })).toEqual({
			ok: true,
			metadata: { shop_order_ref: "SO-1" },
		});
	});

	it("leaves the current metadata unchanged (it returns a new object)", () => {
		mergeMetadata(current, { channel: null, extra: "x" });
		expect(current).toEqual({ shop_order_ref: "SO-1", channel: "etsy" });
	});

	it("allows a result of exactly 20 keys", () => {
		const merged = mergeMetadata(keys(18), { a: "1", b: "2" });
		expect(merged.ok && Object.keys(merged.metadata)).toHaveLength(20);
	});

	it("refuses a result of 21 keys on metadata with metadata_too_many_keys", () => {
		expect(mergeMetadata(keys(20), { one_more: "x" })).toEqual({
			ok: false,
			code: "metadata_too_many_keys",
			field: "metadata",
			message: "The order's metadata would hold 21 keys; at most 20 are allowed: remove some with null.",
		});
	});

	it("counts removals before the limit: removing 2 and adding 2 to 20 keys is fine", () => {
		const merged = mergeMetadata(keys(20), { k0: null, k1: null, new_a: "a", new_b: "b" });
		expect(merged.ok && Object.keys(merged.metadata)).toHaveLength(20);
	});

	it("keeps a key named __proto__ as data when merging", () => {
		const merged = mergeMetadata(JSON.parse('{"__proto__": "a"}') as Metadata, { other: "b" });
		expect(merged.ok && Object.entries(merged.metadata)).toEqual([
			["__proto__", "a"],
			["other", "b"],
		]);
	});
});
