import { expect } from "vitest";
import type { BrandProfile } from "../../src/branding/schema.ts";
import type { Catalog } from "../../src/catalog/schema.ts";
import { api, send } from "../helpers.ts";

/** A valid US return address, as a partner would send it (lowercase state and country are normalised). */
export const RETURN_ADDRESS = {
	name: "Lumen Prints Returns",
	address1: "400 Gallery Row",
	address2: "Unit 7",
	city: "Burlington",
	state: "vt",
	zip: "05401",
	country: "us",
};

/** RETURN_ADDRESS as stored and returned: subdivision and country codes uppercase. */
export const STORED_RETURN_ADDRESS = { ...RETURN_ADDRESS, state: "VT", country: "US" };

/** A profile with every field set, the logo being `logoId`. */
export function fullProfile(logoId: string) {
	return {
		brand_name: "Lumen Prints",
		return_address: RETURN_ADDRESS,
		support_email: "help@lumen.example",
		support_url: "https://lumen.example/help",
		packing_slip_message: "Thank you for supporting independent artists.\nEnjoy your print!",
		logo_print_file_id: logoId,
	};
}

/** PUT /v1/branding with `body` as JSON. */
export function putBranding(key: string, body: unknown): Promise<Response> {
	return send("PUT", "/v1/branding", key, body);
}

/** PUT /v1/branding that must succeed: the stored profile. */
export async function putProfile(key: string, body: Record<string, unknown>): Promise<BrandProfile> {
	const response = await putBranding(key, body);
	if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
	return (await response.json()) as BrandProfile;
}

/** GET /v1/branding. */
export function getBranding(key: string): Promise<Response> {
	return api("/v1/branding", { key });
}

/** The catalog, to compare the names a slip prints with the catalog's own. */
export async function readCatalog(key: string): Promise<Catalog> {
	const response = await api("/v1/catalog", { key });
	expect(response.status).toBe(200);
	return (await response.json()) as Catalog;
}
