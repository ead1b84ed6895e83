import { expect } from "vitest";
import type { PriceBook, PriceBookInput } from "../../src/pricing/book.ts";
import type { Quote } from "../../src/quotes/schema.ts";
import { api, createAdminKey, send } from "../helpers.ts";

/** A ship-to in Germany: the europe zone, where budget is not offered. */
export const BERLIN = { name: "Grete Weiss", address1: "Torstrasse 1", city: "Berlin", zip: "10119", country: "DE" };

/** POST /v1/quotes: the response, whatever it is. */
export function postQuote(key: string, body: unknown): Promise<Response> {
	return send("POST", "/v1/quotes", key, body);
}

/** POST /v1/quotes, expecting 201: the quote. */
export async function quote(key: string, body: unknown): Promise<Quote> {
	const response = await postQuote(key, body);
	if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${await response.text()}`);
	return (await response.json()) as Quote;
}

/**
 * Publishes the book in force with `change` applied, as the admin does, and returns the new book.
 * Every later test of the same file sees it: storage is kept per file.
 */
export async function publishChangedBook(
	key: string,
	change: (rates: PriceBookInput) => PriceBookInput,
): Promise<PriceBook> {
	const {
		version: _version,
		published_at: _published,
		...rates
	} = (await (await api("/v1/price-book", { key })).json()) as PriceBook;
	const published = await send("POST", "/v1/admin/price-book", await createAdminKey(), change(rates));
	expect(published.status).toBe(201);
	return (await published.json()) as PriceBook;
}
