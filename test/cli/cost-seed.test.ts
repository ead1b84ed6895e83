/**
 * The claims `npm run bench:cost` seeds (scripts/lib/cost-seed.ts) must be claims the service could
 * have written: on a delivered order's shipped unit, within the units its shipment carries, and each
 * one reading as the API's `Claim` (`ClaimBody`, the schema `Claim` is named from). Run on SQLite in
 * Node over every migration, with 2,000 orders (a whole cycle of the seeded statuses) over 100
 * accounts and migration 0021's shipments, as the bench seeds them.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { seedAccountsSql, seedOrdersSql } from "../../scripts/lib/cost-seed.ts";
import { ClaimBody } from "../../src/claims/events.ts";

const MIGRATIONS = path.join(import.meta.dirname, "..", "..", "migrations");
const ACCOUNTS = Array.from({ length: 100 }, (_, index) => `acct_seed${String(index).padStart(3, "0")}`);

/** A database with every migration and `orders` seeded, in one range or in the ranges split at `cuts`. */
async function seededDatabase(orders: number, cuts: readonly number[] = []): Promise<DatabaseSync> {
	const db = new DatabaseSync(":memory:");
	db.exec("PRAGMA foreign_keys = OFF");
	const names = (await readdir(MIGRATIONS)).filter((name) => name.endsWith(".sql")).sort();
	for (const name of names) db.exec(await readFile(path.join(MIGRATIONS, name), "utf8"));
	db.exec(seedAccountsSql(ACCOUNTS));
	const bounds = [0, ...cuts, orders];
	for (let index = 1; index < bounds.length; index++) {
		const range = { from: bounds[index - 1] ?? 0, to: bounds[index] ?? orders };
		db.exec(seedOrdersSql({ ...range, accounts: ACCOUNTS, baseUnix: 1_750_000_000 }));
	}
	db.exec(await readFile(path.join(MIGRATIONS, "0021_shipments_of_shipped_orders.sql"), "utf8"));
	return db;
}

type ClaimRow = {
	id: string;
	account_id: string;
	mode: string;
	order_id: string;
	reason: string;
	description: string;
	photos: string;
	status: string;
	resolution: string | null;
	created_at: string;
	order_account: string;
	order_mode: string;
	order_status: string;
	delivered_at: string | null;
	item_id: string;
	quantity: number;
	shipped: number | null;
};

describe("the bench's seeded claims", () => {
	it("claim a unit of a delivered order's shipment, one in seven delivered orders, each status a third", async () => {
		const db = await seededDatabase(2000);
		const rows = db
			.prepare(
				`SELECT c.*, o.account_id AS order_account, o.mode AS order_mode, o.status AS order_status, o.delivered_at,
				   ci.item_id, ci.quantity,
				   (SELECT json_extract(unit.value, '$.quantity') FROM shipments s, json_each(s.items) unit
				     WHERE s.order_id = c.order_id AND s.status = 'delivered'
				       AND json_extract(unit.value, '$.item_id') = ci.item_id) AS shipped
				 FROM claims c JOIN orders o ON o.id = c.order_id JOIN claim_items ci ON ci.claim_id = c.id
				 ORDER BY c.id`,
			)
			.all() as ClaimRow[];
		const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
		// Order n is `ord_seed` and n in eight digits.
		const everySeventhDelivered = count(
			"SELECT count(*) AS n FROM orders WHERE status = 'delivered' AND CAST(substr(id, 9) AS INTEGER) % 7 = 0",
		);
		const delivered = count("SELECT count(*) AS n FROM orders WHERE status = 'delivered'");

		expect(everySeventhDelivered).toBeGreaterThan(delivered / 8);
		expect(rows).toHaveLength(everySeventhDelivered);
		expect(count("SELECT count(*) AS n FROM claim_items")).toBe(everySeventhDelivered);
		for (const row of rows) {
			expect([row.account_id, row.mode, row.order_status]).toEqual([row.order_account, row.order_mode, "delivered"]);
			expect(row.created_at).toBe(row.delivered_at);
			expect(row.shipped).not.toBeNull();
			expect(row.quantity).toBeLessThanOrEqual(row.shipped ?? 0);
		}
		for (const status of ["submitted", "approved", "rejected"]) {
			const share = rows.filter((row) => row.status === status).length / rows.length;
			expect(share, status).toBeGreaterThan(0.25);
			expect(share, status).toBeLessThan(0.42);
		}
		// The measured partner (account 0) has claims of its own to page through.
		expect(rows.filter((row) => row.account_id === ACCOUNTS[0]).length).toBeGreaterThan(0);
	});

	it("read as the API's Claim, with a refund's resolution when approved and none while submitted", async () => {
		const db = await seededDatabase(700);
		const rows = db
			.prepare("SELECT c.*, ci.item_id, ci.quantity FROM claims c JOIN claim_items ci ON ci.claim_id = c.id")
			.all() as ClaimRow[];
		expect(rows.length).toBeGreaterThan(0);
		for (const row of rows) {
			const claim = ClaimBody.parse({
				id: row.id,
				order_id: row.order_id,
				status: row.status,
				reason: row.reason,
				items: [{ item_id: row.item_id, quantity: row.quantity }],
				description: row.description,
				photos: JSON.parse(row.photos),
				created_at: row.created_at,
				resolution: row.resolution === null ? null : JSON.parse(row.resolution),
			});
			if (claim.status === "submitted") expect(claim.resolution).toBeNull();
			if (claim.status === "approved") expect(claim.resolution).toMatchObject({ remedy: "refund", credit_cents: 4000 });
			if (claim.status === "rejected") expect(claim.resolution).toMatchObject({ remedy: null, credit_cents: null });
		}
	});
});

type LedgerCount = { status: string; charges: number; credits: number; claim_credits: number; orders: number };

describe("the bench's seeded ledger", () => {
	it("charges each released order once, credits each canceled one and each refunded claim once, and nothing on hold", async () => {
		const db = await seededDatabase(2000);
		const rows = db
			.prepare(
				`SELECT o.status, count(*) AS orders,
				   sum((SELECT count(*) FROM ledger_entries l WHERE l.order_id = o.id AND l.type = 'charge' AND l.amount_cents = json_extract(o.costs, '$.total'))) AS charges,
				   sum((SELECT count(*) FROM ledger_entries l WHERE l.order_id = o.id AND l.type = 'cancellation_credit' AND l.amount_cents = -json_extract(o.costs, '$.total'))) AS credits,
				   sum((SELECT count(*) FROM ledger_entries l JOIN claims c ON c.id = l.claim_id
				         WHERE l.order_id = o.id AND l.type = 'claim_credit' AND c.status = 'approved'
				           AND l.amount_cents = -json_extract(c.resolution, '$.credit_cents'))) AS claim_credits
				 FROM orders o GROUP BY o.status ORDER BY o.status`,
			)
			.all() as LedgerCount[];
		const by = new Map(rows.map((row) => [row.status, row]));
		for (const status of ["in_production", "shipped", "delivered", "canceled"])
			expect(by.get(status)?.charges, status).toBe(by.get(status)?.orders);
		expect(by.get("on_hold")).toMatchObject({ charges: 0, credits: 0, claim_credits: 0 });
		expect(by.get("canceled")?.credits).toBe(by.get("canceled")?.orders);
		const refunded = db
			.prepare(
				"SELECT count(*) AS n FROM claims WHERE status = 'approved' AND json_extract(resolution, '$.remedy') = 'refund'",
			)
			.get() as { n: number };
		expect(by.get("delivered")?.claim_credits).toBe(refunded.n);
		expect(refunded.n).toBeGreaterThan(0);
		const entries = db.prepare("SELECT count(*) AS n FROM ledger_entries").get() as { n: number };
		const counted = rows.reduce((sum, row) => sum + row.charges + row.credits + row.claim_credits, 0);
		expect(entries.n).toBe(counted);
	});

	it("keeps ledger_months as the trigger does: each month's net and closing balance add up, however the ranges were cut", async () => {
		const whole = await seededDatabase(20_000);
		const cut = await seededDatabase(20_000, [1000, 7000]);
		const months = (db: DatabaseSync) =>
			db
				.prepare("SELECT account_id, mode, month, net_cents, closing_balance_cents FROM ledger_months ORDER BY 1, 2, 3")
				.all();
		const summed = whole
			.prepare(
				`SELECT account_id, mode, substr(at, 1, 7) AS month, sum(amount_cents) AS net_cents,
				   (SELECT sum(amount_cents) FROM ledger_entries later
				     WHERE later.account_id = l.account_id AND later.mode = l.mode AND substr(later.at, 1, 7) <= substr(l.at, 1, 7)) AS closing_balance_cents
				 FROM ledger_entries l GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
			)
			.all();
		expect(months(whole)).toEqual(summed);
		expect(months(cut)).toEqual(summed);
		// Spread over the months: the measured partner (account 0) has entries in more than one.
		const own = months(whole).filter((row) => row.account_id === ACCOUNTS[0] && row.mode === "live");
		expect(own.length).toBeGreaterThan(1);
	});
});
