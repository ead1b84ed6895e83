import { sha256Hex } from "../ids.ts";

/** A strong ETag for a response body: the quoted SHA-256 of its bytes. */
export async function strongEtag(body: string): Promise<string> {
	return `"${await sha256Hex(body)}"`;
}

/**
 * Whether an `If-None-Match` header matches `etag` (RFC 9110 13.1.2: weak comparison, `*` matches
 * any current representation), so the response can be 304 Not Modified.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
	if (header === undefined) return false;
	const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
	return header.split(",").some((candidate) => candidate.trim() === "*" || opaque(candidate) === opaque(etag));
}
