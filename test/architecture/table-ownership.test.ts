/**
 * Each capability owns its tables: the SQL that names a table lives in its owner's folder, and every
 * other capability goes through the owner's exported functions (the import rules in
 * .dependency-cruiser.cjs keep the direction of those calls). Reads the source, so it runs in Node.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./source-files.ts";

const SRC = path.join(import.meta.dirname, "..", "..", "src");
const MIGRATIONS = path.join(import.meta.dirname, "..", "..", "migrations");

/** Who owns each table: D1's (from the migrations) and the Durable Objects' own SQLite tables. */
const OWNER: Record<string, string> = {
	accounts: "accounts",
	api_keys: "accounts",
	partner_users: "partner-users",
	partner_invitations: "partner-users",
	partner_sessions: "partner-users",
	webhook_secrets: "webhooks",
	catalog_frames: "catalog",
	catalog_mats: "catalog",
	catalog_sizes: "catalog",
	print_files: "print-files",
	orders: "orders",
	order_items: "orders",
	order_moves: "orders",
	order_counts: "orders",
	shipments: "orders",
	events: "webhooks",
	deliveries: "webhooks",
	// The deliveries table as migration 0013 rebuilt it, under its name until the rename.
	deliveries_by_receiver: "webhooks",
	webhook_endpoints: "webhooks",
	brand_profiles: "branding",
	// The brand profiles as migration 0031 rebuilt them (one per mode), under this name until the rename.
	brand_profiles_per_mode: "branding",
	ops_sessions: "console",
	price_books: "pricing",
	quotes: "quotes",
	account_discounts: "pricing",
	catalog_glazings: "catalog",
	catalog_papers: "catalog",
	request_log: "rate-limit",
	order_bucket: "rate-limit",
	claims: "claims",
	claim_items: "claims",
	claim_photos: "claims",
	ledger_entries: "ledger",
	ledger_months: "ledger",
	// The months as migration 0041 rebuilt them (a balance per currency), under this name until the rename.
	ledger_months_by_currency: "ledger",
	idempotency_keys: "idempotency",
	exchange_rate_sheets: "money",
	account_billing: "money",
	landed_cost_tables: "customs",
	// The placements of moved accounts: the database seam reads them (src/databases.ts, a leaf).
	account_placements: "databases.ts",
	account_moves: "account-moves",
	account_fences: "account-moves",
};

/**
 * Every table a file's SQL names (after FROM, JOIN, INTO or UPDATE, written in capitals as all SQL here
 * is), and every table a row's statement is built for (`insertRow(db, "table", …)`, `updateRow`).
 */
function tablesNamedIn(text: string): string[] {
	return [
		...text.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)|\b(?:insertRow|updateRow)\(\s*\w+,\s*"([a-z_]+)"/g),
	].flatMap((match) => {
		const table = match[1] ?? match[2];
		return table ? [table] : [];
	});
}

describe("table ownership", () => {
	it("every table created by a migration has an owner", async () => {
		const names = (await readdir(MIGRATIONS)).filter((name) => name.endsWith(".sql"));
		const created = new Set<string>();
		for (const name of names) {
			const text = await readFile(path.join(MIGRATIONS, name), "utf8");
			for (const match of text.matchAll(/CREATE TABLE ([a-z_]+)/g)) if (match[1]) created.add(match[1]);
		}
		expect(created.size).toBeGreaterThan(10);
		for (const table of created) expect(OWNER[table], table).toBeDefined();
	});

	it("SQL naming a table is found only in the folder of the capability that owns it", async () => {
		const misplaced: string[] = [];
		let statements = 0;
		for (const file of await sourceFiles(SRC)) {
			const folder = path.relative(SRC, file).split(path.sep)[0] ?? "";
			for (const table of tablesNamedIn(await readFile(file, "utf8"))) {
				const owner = OWNER[table];
				if (owner === undefined) continue;
				statements += 1;
				if (owner !== folder) misplaced.push(`${path.relative(SRC, file)} names ${table} (owned by ${owner})`);
			}
		}
		expect(statements).toBeGreaterThan(50);
		expect(misplaced).toEqual([]);
	});

	it("finds a table named outside its owner (the check itself can fail)", () => {
		expect(tablesNamedIn("SELECT s.id FROM ops_sessions s JOIN api_keys k ON k.id = s.key_id")).toEqual([
			"ops_sessions",
			"api_keys",
		]);
		expect(tablesNamedIn('insertRow(db, "order_items", values); updateRow(db, "orders", values, condition)')).toEqual([
			"order_items",
			"orders",
		]);
	});
});
