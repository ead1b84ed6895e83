import type { Owner } from "../accounts/owner.ts";
import type { KeyMode } from "../accounts/scopes.ts";
import type { ShipTo } from "../addresses/schema.ts";
import type { BrandProfile } from "./schema.ts";

/**
 * A brand_profiles row: one per account and mode. A test key reads and writes the test profile and test
 * orders print it; the live one, what live orders ship with, is a live key's alone.
 */
export type BrandProfileRow = {
	account_id: string;
	mode: KeyMode;
	brand_name: string;
	return_address: string | null;
	support_email: string | null;
	support_url: string | null;
	packing_slip_message: string | null;
	logo_print_file_id: string | null;
	created_at: string;
	updated_at: string;
};

/** The brand profile of the account in one mode, or null when it has none. */
export function findBrandProfile(db: D1Database, owner: Owner): Promise<BrandProfileRow | null> {
	return db
		.prepare("SELECT * FROM brand_profiles WHERE account_id = ?1 AND mode = ?2")
		.bind(owner.accountId, owner.mode)
		.first<BrandProfileRow>();
}

/** Writes the whole profile; a first write creates it, a later one replaces every field but `created_at`. */
export async function putBrandProfile(
	db: D1Database,
	row: Omit<BrandProfileRow, "created_at" | "updated_at">,
	now: Date,
): Promise<BrandProfileRow> {
	const at = now.toISOString();
	const written = await db
		.prepare(
			`INSERT INTO brand_profiles (account_id, brand_name, return_address, support_email, support_url,
			   packing_slip_message, logo_print_file_id, created_at, updated_at, mode)
			 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9)
			 ON CONFLICT (account_id, mode) DO UPDATE SET
			   brand_name = excluded.brand_name, return_address = excluded.return_address,
			   support_email = excluded.support_email, support_url = excluded.support_url,
			   packing_slip_message = excluded.packing_slip_message, logo_print_file_id = excluded.logo_print_file_id,
			   updated_at = excluded.updated_at
			 RETURNING *`,
		)
		.bind(
			row.account_id,
			row.brand_name,
			row.return_address,
			row.support_email,
			row.support_url,
			row.packing_slip_message,
			row.logo_print_file_id,
			at,
			row.mode,
		)
		.first<BrandProfileRow>();
	if (written === null) throw new Error(`brand profile of ${row.account_id} (${row.mode}) was not written`);
	return written;
}

/** Deletes the account's profile of one mode (the other mode's stays); whether there was one. */
export async function deleteBrandProfile(db: D1Database, owner: Owner): Promise<boolean> {
	const result = await db
		.prepare("DELETE FROM brand_profiles WHERE account_id = ?1 AND mode = ?2")
		.bind(owner.accountId, owner.mode)
		.run();
	return result.meta.changes > 0;
}

/** The return address of a stored profile. */
export function returnAddressOf(row: BrandProfileRow): ShipTo | null {
	return row.return_address === null ? null : (JSON.parse(row.return_address) as ShipTo);
}

/** The API shape of a stored profile. */
export function toBrandProfile(row: BrandProfileRow): BrandProfile {
	return {
		brand_name: row.brand_name,
		return_address: returnAddressOf(row),
		support_email: row.support_email,
		support_url: row.support_url,
		packing_slip_message: row.packing_slip_message,
		logo_print_file_id: row.logo_print_file_id,
		created_at: row.created_at,
		updated_at: row.updated_at,
	};
}
