/**
 * An order's `metadata`: the partner's own keys and string values, stored and returned as sent and
 * never interpreted. The rules are written once here, for the create and for a later change of an
 * order (where `null` removes a key): at most 20 keys, each 1 to 40 characters of `[A-Za-z0-9_.-]`,
 * each value a string of at most 500 characters without control characters.
 */
import { z } from "@hono/zod-openapi";
import type { ErrorCode } from "../error-catalog.ts";
import type { Refusal } from "../problem.ts";
import { NO_CONTROL_CHARACTERS } from "../text-rules.ts";

/** Most keys an order's metadata may hold, after a change too. */
export const METADATA_MAX_KEYS = 20;
/** Longest key, in characters. */
export const METADATA_KEY_MAX_CHARACTERS = 40;
/** Longest value, counted as a reader counts (code points: an emoji is one). */
export const METADATA_VALUE_MAX_CHARACTERS = 500;

const KEY_PATTERN = /^[A-Za-z0-9_.-]+$/;

/** Metadata as the document shows it: what a shop typically keeps with an order. */
export const METADATA_EXAMPLE = { shop_order_ref: "SO-48213", customer_id: "cus_8842", channel: "etsy" };

/**
 * What the reference says of the order of metadata's keys: JavaScript objects, and so every JSON
 * answer built from one, put canonical array indexes first, ascending; the other keys keep their order.
 */
export const METADATA_KEY_ORDER =
	"Keys come back in the order sent, except that keys that are integers (`0`, `7`, `42`; not `007` or `-1`) come first, in ascending numeric order, as every JSON object in JavaScript orders them.";

/** An order's metadata as stored and shown: keys to string values. */
export type Metadata = Readonly<Record<string, string>>;
/** A change of metadata: a string sets its key, null removes it, a key left out stays as it is. */
export type MetadataPatch = Readonly<Record<string, string | null>>;

/** An issue of the metadata, with the stable code the API's error carries. */
function metadataIssue(ctx: z.RefinementCtx, code: ErrorCode, path: string[], message: string): void {
	ctx.addIssue({ code: "custom", path, message, params: { errorCode: code } });
}

/** Why `key` is not a metadata key, or null when it is one. */
function keyProblem(key: string): string | null {
	if (key.length === 0) return "keys must not be empty";
	if (key.length > METADATA_KEY_MAX_CHARACTERS)
		return `keys must be at most ${METADATA_KEY_MAX_CHARACTERS} characters (this one has ${key.length})`;
	if (!KEY_PATTERN.test(key)) return "keys may hold only letters A to Z and a to z, digits, _, . and -";
	return null;
}

/** Why `value` is not a metadata value, or null when it is one (`null` only where a change allows it). */
function valueProblem(value: unknown, nullRemoves: boolean): string | null {
	if (value === null) {
		return nullRemoves ? null : "must be a string (null removes a key when an order's metadata is changed, not here)";
	}
	if (typeof value !== "string") {
		const kind = Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
		return `must be a string, not ${kind}: metadata holds flat string values only`;
	}
	const characters = [...value].length;
	if (characters > METADATA_VALUE_MAX_CHARACTERS)
		return `must be at most ${METADATA_VALUE_MAX_CHARACTERS} characters (this one has ${characters})`;
	if (!NO_CONTROL_CHARACTERS.test(value)) return "must not contain control characters";
	return null;
}

/**
 * The checked entries of `value` in the order sent, or the issues added to `ctx`. Built as entries, not
 * by assignment, so a key such as `__proto__` is kept as data like any other.
 */
function checkedEntries(
	value: unknown,
	ctx: z.RefinementCtx,
	nullRemoves: boolean,
): Array<[string, string | null]> | null {
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		const message = nullRemoves
			? "must be an object of keys to strings or null"
			: "must be an object of keys to strings (leave metadata out for none)";
		metadataIssue(ctx, "metadata_not_object", [], message);
		return null;
	}
	const entries = Object.entries(value);
	// The whole object first: how many keys a change may leave is checked again on the result.
	if (!nullRemoves && entries.length > METADATA_MAX_KEYS) {
		metadataIssue(
			ctx,
			"metadata_too_many_keys",
			[],
			`must hold at most ${METADATA_MAX_KEYS} keys (it has ${entries.length})`,
		);
		return null;
	}
	for (const [key, entry] of entries) {
		const badKey = keyProblem(key);
		if (badKey !== null) {
			metadataIssue(ctx, "metadata_key_invalid", [key], badKey);
			return null;
		}
		const badValue = valueProblem(entry, nullRemoves);
		if (badValue !== null) {
			metadataIssue(ctx, "metadata_value_invalid", [key], badValue);
			return null;
		}
	}
	return entries as Array<[string, string | null]>;
}

/** The OpenAPI description of metadata, for the create and for a change. */
function documented<T extends z.ZodType>(schema: T, description: string, nullable: boolean): T {
	const value = nullable
		? { type: ["string" as const, "null" as const], maxLength: METADATA_VALUE_MAX_CHARACTERS }
		: { type: "string" as const, maxLength: METADATA_VALUE_MAX_CHARACTERS };
	// propertyNames is JSON Schema (OpenAPI 3.1) that the typings, written for OpenAPI 3.0, do not list.
	const keys = { propertyNames: { pattern: `^[A-Za-z0-9_.-]{1,${METADATA_KEY_MAX_CHARACTERS}}$` } };
	return schema.openapi({
		type: "object",
		description,
		maxProperties: METADATA_MAX_KEYS,
		...keys,
		additionalProperties: value,
		example: METADATA_EXAMPLE,
	});
}

/**
 * `metadata` of a create: an object of at most 20 keys to strings. Each refusal is a 422 on `metadata`
 * or on `metadata.<key>`, with a code that says which rule (see the error catalog).
 */
export const MetadataSchema = documented(
	z.unknown().transform((value, ctx): Metadata => {
		const entries = checkedEntries(value, ctx, false);
		if (entries === null) return z.NEVER;
		return Object.fromEntries(entries) as Metadata;
	}),
	"The partner's own keys and values, returned on the order and in every event body, never printed and never interpreted. " +
		"At most 20 keys of 1 to 40 characters of A-Z, a-z, 0-9, _, . and -; each value a string of at most 500 characters " +
		"without control characters. Part of the idempotency comparison; `{}` is the same as leaving it out. " +
		METADATA_KEY_ORDER,
	false,
);

/**
 * An order's metadata as the order and every event body about it show it: the partner's keys and
 * string values, exactly as last set; `{}` when there are none.
 */
export const MetadataBody = z.record(z.string(), z.string()).openapi("Metadata", {
	description:
		"The partner's own keys and values, as last set (`{}` for none); never printed and never interpreted by the service. " +
		METADATA_KEY_ORDER,
	example: METADATA_EXAMPLE,
});

/**
 * `metadata` of a change of an order: keys to a string (set) or null (remove). The rules of a key and
 * a value are the create's; how many keys the order is left with is `mergeMetadata`'s check.
 */
export const MetadataPatchSchema = documented(
	z.unknown().transform((value, ctx): MetadataPatch => {
		const entries = checkedEntries(value, ctx, true);
		if (entries === null) return z.NEVER;
		return Object.fromEntries(entries) as MetadataPatch;
	}),
	"Keys to set (a string) or remove (null); keys left out stay as they are. The order keeps at most 20 keys; a new key comes after the others. " +
		METADATA_KEY_ORDER,
	true,
);

/**
 * `current` changed by `patch`: a string sets its key (a key already there keeps its place, a new one
 * comes last), null removes it. Refused on `metadata` when the result would hold more than 20 keys.
 */
export function mergeMetadata(current: Metadata, patch: MetadataPatch): { ok: true; metadata: Metadata } | Refusal {
	const merged = new Map(Object.entries(current));
	for (const [key, value] of Object.entries(patch)) {
		if (value === null) merged.delete(key);
		else merged.set(key, value);
	}
	if (merged.size > METADATA_MAX_KEYS) {
		return {
			ok: false,
			code: "metadata_too_many_keys",
			field: "metadata",
			message: `The order's metadata would hold ${merged.size} keys; at most ${METADATA_MAX_KEYS} are allowed: remove some with null.`,
		};
	}
	return { ok: true, metadata: Object.fromEntries(merged) };
}
