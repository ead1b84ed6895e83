/**
 * Migration 0031 gives each mode its own brand profile. Run on SQLite in Node against profiles as the
 * earlier schema holds them: each existing profile becomes the live one and is copied as the test one,
 * field for field; afterwards the two are apart (changing or deleting one leaves the other), and an
 * expired logo is still refused.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";

const MIGRATIONS = path.join(import.meta.dirname, "..", "..", "migrations");
const PER_MODE = "0031_brand_profiles_per_mode.sql";

async function migrate(db: DatabaseSync, through: (name: string) => boolean): Promise<void> {
	const names = (await readdir(MIGRATIONS)).filter((name) => name.endsWith(".sql")).sort();
	for (const name of names.filter(through)) db.exec(await readFile(path.join(MIGRATIONS, name), "utf8"));
}

const CREATED = "2026-10-01T09:00:00.000Z";

describe("migration 0031 (a brand profile per mode)", () => {
	it("makes each existing profile the live one and copies it as the test one; afterwards the two are apart", async () => {
		const db = new DatabaseSync(":memory:");
		db.exec("PRAGMA foreign_keys = OFF");
		await migrate(db, (name) => name < PER_MODE);
		db.prepare(
			`INSERT INTO brand_profiles (account_id, brand_name, return_address, support_email, support_url,
			   packing_slip_message, logo_print_file_id, created_at, updated_at)
			 VALUES ('acct_1', 'Lumen Prints', '{"name":"Lumen"}', 'help@lumen.example', 'https://lumen.example',
			   'Thank you.', 'pf_logo', ?1, ?1)`,
		).run(CREATED);
		await migrate(db, (name) => name === PER_MODE);
		const rows = db.prepare("SELECT * FROM brand_profiles ORDER BY mode").all();
		const profile = {
			account_id: "acct_1",
			brand_name: "Lumen Prints",
			return_address: '{"name":"Lumen"}',
			support_email: "help@lumen.example",
			support_url: "https://lumen.example",
			packing_slip_message: "Thank you.",
			logo_print_file_id: "pf_logo",
			created_at: CREATED,
			updated_at: CREATED,
		};
		expect(rows).toEqual([
			{ ...profile, mode: "live" },
			{ ...profile, mode: "test" },
		]);
		db.prepare("DELETE FROM brand_profiles WHERE account_id = 'acct_1' AND mode = 'test'").run();
		expect(db.prepare("SELECT mode, brand_name FROM brand_profiles").all()).toEqual([
			{ mode: "live", brand_name: "Lumen Prints" },
		]);
	});

	it("keeps refusing an expired logo on either mode's profile", async () => {
		const db = new DatabaseSync(":memory:");
		db.exec("PRAGMA foreign_keys = OFF");
		await migrate(db, (name) => name <= PER_MODE);
		db.prepare(
			`INSERT INTO print_files (id, account_id, mode, filename, content_type, r2_key, status, created_at, expires_at, expired_at)
			 VALUES ('pf_gone', 'acct_1', 'live', 'logo.png', 'image/png', 'k', 'ready', ?1, ?1, ?1)`,
		).run(CREATED);
		for (const mode of ["live", "test"]) {
			expect(() =>
				db
					.prepare(
						`INSERT INTO brand_profiles (account_id, mode, brand_name, logo_print_file_id, created_at, updated_at)
						 VALUES ('acct_1', ?1, 'Lumen', 'pf_gone', ?2, ?2)`,
					)
					.run(mode, CREATED),
			).toThrow(/print_file_expired/);
		}
	});
});
