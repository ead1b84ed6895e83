/**
 * Who each reference document is for. The partner's (`/v1/openapi.json`, the reference page, the
 * typed client and the Postman collection) holds only what a partner key can call, and the webhooks;
 * the production floor's and the service team's operations have documents of their own, at
 * `/v1/ops/openapi.json` and `/v1/admin/openapi.json`. One registry makes all three: each is the whole
 * document narrowed to its operations, with only the components those still refer to.
 */

/** A reference document's readers. */
export type Audience = "partner" | "ops" | "admin";

/** Where each audience's document is served, and what it is called. */
export const AUDIENCE_DOCUMENTS: Readonly<Record<Audience, { path: string; title: string }>> = {
	partner: { path: "/v1/openapi.json", title: "Framed-Print Fulfillment API" },
	ops: { path: "/v1/ops/openapi.json", title: "Framed-Print Fulfillment API: the production floor (ops keys)" },
	admin: { path: "/v1/admin/openapi.json", title: "Framed-Print Fulfillment API: the service team (admin keys)" },
};

/**
 * Whose an operation is, by its path: `/v1/ops/...` the floor's (`ops` keys), `/v1/admin/...` the service
 * team's (`admin` keys), anything else a partner's. The documents' own paths are served, not documented.
 */
export function audienceOfPath(path: string): Audience {
	if (path.startsWith("/v1/ops/")) return "ops";
	if (path.startsWith("/v1/admin/")) return "admin";
	return "partner";
}

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

const COMPONENT_REF = /^#\/components\/([^/]+)\/([^/]+)$/;

/** Every `#/components/<kind>/<name>` that `value` refers to, as "kind/name". */
function referencesIn(value: unknown, found: Set<string>): void {
	if (Array.isArray(value)) {
		for (const entry of value) referencesIn(entry, found);
		return;
	}
	if (!isJsonObject(value)) return;
	for (const [key, entry] of Object.entries(value)) {
		const match = key === "$ref" && typeof entry === "string" ? COMPONENT_REF.exec(entry) : null;
		if (match !== null) found.add(`${match[1]}/${match[2]}`);
		else referencesIn(entry, found);
	}
}

/** Every component (as "kind/name") that `roots` refer to, directly or through another such component. */
export function componentsReachedFrom(components: JsonObject, roots: unknown[]): Set<string> {
	const used = new Set<string>();
	referencesIn(roots, used);
	const pending = [...used];
	while (pending.length > 0) {
		const [kind = "", name = ""] = (pending.pop() ?? "").split("/");
		const group = components[kind];
		const found = new Set<string>();
		referencesIn(isJsonObject(group) ? group[name] : undefined, found);
		for (const next of found) {
			if (used.has(next)) continue;
			used.add(next);
			pending.push(next);
		}
	}
	return used;
}

/**
 * `components` keeping only what `roots` refer to, directly or through another kept component; the
 * security schemes are kept whole (operations name them by key, not by reference).
 */
function usedComponents(components: JsonObject, roots: unknown[]): JsonObject {
	const used = componentsReachedFrom(components, roots);
	const kept: JsonObject = {};
	for (const [kind, group] of Object.entries(components)) {
		if (!isJsonObject(group)) continue;
		if (kind === "securitySchemes") {
			kept[kind] = group;
			continue;
		}
		const names = Object.entries(group).filter(([name]) => used.has(`${kind}/${name}`));
		if (names.length > 0) kept[kind] = Object.fromEntries(names);
	}
	return kept;
}

/** The tags the operations of `items` (paths or webhooks) carry. */
function tagsOf(items: object): string[] {
	return Object.values(items).flatMap((item) =>
		Object.values(isJsonObject(item) ? item : {}).flatMap((operation) =>
			isJsonObject(operation) && Array.isArray(operation.tags)
				? operation.tags.filter((tag): tag is string => typeof tag === "string")
				: [],
		),
	);
}

/**
 * The whole document narrowed to `audience`: its operations only (the webhooks are the partner's),
 * its tags those still in use, its components those still referred to.
 */
export function documentFor<T extends { paths?: object; webhooks?: object; tags?: unknown; components?: object }>(
	document: T,
	audience: Audience,
): T {
	const paths = Object.fromEntries(
		Object.entries(document.paths ?? {}).filter(([path]) => audienceOfPath(path) === audience),
	);
	const webhooks = audience === "partner" ? (document.webhooks ?? {}) : {};
	const used = new Set([...tagsOf(paths), ...tagsOf(webhooks)]);
	const tags = Array.isArray(document.tags)
		? document.tags.filter((tag) => isJsonObject(tag) && typeof tag.name === "string" && used.has(tag.name))
		: document.tags;
	const components = usedComponents(isJsonObject(document.components) ? document.components : {}, [paths, webhooks]);
	const { webhooks: _all, ...rest } = document;
	return { ...rest, paths, ...(audience === "partner" ? { webhooks } : {}), tags, components } as T;
}
