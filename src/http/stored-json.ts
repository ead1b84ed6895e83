import type { z } from "@hono/zod-openapi";

/**
 * Text that should hold JSON of `schema`'s shape (a stored column, an archived line), read back: the
 * value, or null when the text is not JSON or not that shape. Never throws: what was stored by an
 * older or newer build, or damaged, reads as absent.
 */
export function parsedJson<T extends z.ZodType>(text: string, schema: T): z.infer<T> | null {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		return null;
	}
	const parsed = schema.safeParse(json);
	return parsed.success ? parsed.data : null;
}
