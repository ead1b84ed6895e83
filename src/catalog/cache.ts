import { strongEtag } from "../http/etag.ts";
import type { Catalog } from "./schema.ts";
import { readCatalog } from "./store.ts";

/**
 * The catalog as served (the JSON body and its strong ETag) and as read by the item checks, with
 * the mouldings' weights that pricing needs (ten-thousandths of a pound per foot, by slug).
 */
export type CatalogSnapshot = {
	catalog: Catalog;
	body: string;
	etag: string;
	mouldingWeights: ReadonlyMap<string, number>;
};

/**
 * The catalog only changes through migrations, yet every partner request would otherwise re-read
 * three tables and re-hash 6 KB. An isolate keeps the serialized catalog for `ttlMs`, then re-reads
 * it. Only settled values are shared between requests, never a pending promise (Workers forbid
 * waiting on another request's I/O).
 */
export class CatalogCache {
	#snapshot: (CatalogSnapshot & { loadedAt: number }) | undefined;

	constructor(private readonly ttlMs: number) {}

	/** The cached snapshot while fresh, else one read from D1 now. */
	async get(db: D1Database, now: number = Date.now()): Promise<CatalogSnapshot> {
		const cached = this.#snapshot;
		if (cached !== undefined && now - cached.loadedAt < this.ttlMs) return cached;
		const { catalog, mouldingWeights } = await readCatalog(db);
		const body = JSON.stringify(catalog);
		const snapshot = { catalog, body, etag: await strongEtag(body), mouldingWeights, loadedAt: now };
		this.#snapshot = snapshot;
		return snapshot;
	}
}

/** How long an isolate serves the catalog it read: a migration shows up within a minute. */
export const CATALOG_CACHE_TTL_MS = 60_000;

/** The isolate's catalog, shared by the catalog route and the order checks. */
export const isolateCatalog = new CatalogCache(CATALOG_CACHE_TTL_MS);
