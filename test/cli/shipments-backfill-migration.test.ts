/**
 * Migration 0021 gives every order that shipped before shipments were recorded the one shipment it
 * had. Run on SQLite in Node against orders as the earlier schema holds them: a shipped and a delivered
 * order get their shipment, every unit of every item; orders that never shipped get none; running it
 * again adds nothing.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";

const MIGRATIONS = path.join(import.meta.dirname, "..", "..", "migrations");
const BACKFILL = "0021_shipments_of_shipped_orders.sql";

async function migrate(db: DatabaseSync, through: (name: string) => boolean): Promise<void> {
	const names = (await readdir(MIGRATIONS)).filter((name) => name.endsWith(".sql")).sort();
	for (const name of names.filter(through)) db.exec(await readFile(path.join(MIGRATIONS, name), "utf8"));
}

function insertOrder(db: DatabaseSync, id: string, status: string, tracked: boolean): void {
	db.prepare(
		`INSERT INTO orders (id, account_id, mode, external_id, request_hash, status, version, write_token, ship_to,
		   tracking_carrier, tracking_number, tracking_url, shipped_at, delivered_at, created_at, updated_at)
		 VALUES (?1, 'acct_1', 'live', ?1, 'hash', ?2, 4, 'token', '{}', ?3, ?4, ?5, ?6, ?7,
		   '2026-10-01T09:00:00.000Z', '2026-10-03T09:00:00.000Z')`,
	).run(
		id,
		status,
		tracked ? "UPS" : null,
		tracked ? `1Z-${id}` : null,
		tracked ? `https://www.ups.com/track?tracknum=1Z-${id}` : null,
		tracked ? "2026-10-02T09:00:00.000Z" : null,
		status === "delivered" ? "2026-10-03T09:00:00.000Z" : null,
	);
	for (const [position, quantity] of [
		[1, 2],
		[0, 1],
	] as const) {
		db.prepare(
			`INSERT INTO order_items (id, order_id, position, width_in, height_in, quantity) VALUES (?, ?, ?, 8, 10, ?)`,
		).run(`itm_${id}_${position}`, id, position, quantity);
	}
}

describe("migration 0021 (shipments of orders shipped before 0020)", () => {
	it("gives a shipped and a delivered order one shipment of every unit under their tracking, and the others none", async () => {
		const db = new DatabaseSync(":memory:");
		db.exec("PRAGMA foreign_keys = OFF");
		await migrate(db, (name) => name < "0021");
		insertOrder(db, "ord_AAAAshipped0000000000000", "shipped", true);
		insertOrder(db, "ord_AAAAdelivered00000000000", "delivered", true);
		insertOrder(db, "ord_AAAAinproduction0000000", "in_production", false);
		insertOrder(db, "ord_AAAAcanceled00000000000", "canceled", false);
		await migrate(db, (name) => name === BACKFILL);
		const rows = db.prepare("SELECT * FROM shipments ORDER BY order_id").all();
		expect(rows).toEqual([
			{
				id: "shp_AAAAdelivered00000000000",
				order_id: "ord_AAAAdelivered00000000000",
				position: 1,
				items: JSON.stringify([
					{ item_id: "itm_ord_AAAAdelivered00000000000_0", quantity: 1 },
					{ item_id: "itm_ord_AAAAdelivered00000000000_1", quantity: 2 },
				]),
				carrier: "UPS",
				tracking_number: "1Z-ord_AAAAdelivered00000000000",
				tracking_url: "https://www.ups.com/track?tracknum=1Z-ord_AAAAdelivered00000000000",
				packages: "[]",
				status: "delivered",
				shipped_at: "2026-10-02T09:00:00.000Z",
				delivered_at: "2026-10-03T09:00:00.000Z",
				returned_at: null,
			},
			{
				id: "shp_AAAAshipped0000000000000",
				order_id: "ord_AAAAshipped0000000000000",
				position: 1,
				items: JSON.stringify([
					{ item_id: "itm_ord_AAAAshipped0000000000000_0", quantity: 1 },
					{ item_id: "itm_ord_AAAAshipped0000000000000_1", quantity: 2 },
				]),
				carrier: "UPS",
				tracking_number: "1Z-ord_AAAAshipped0000000000000",
				tracking_url: "https://www.ups.com/track?tracknum=1Z-ord_AAAAshipped0000000000000",
				packages: "[]",
				status: "in_transit",
				shipped_at: "2026-10-02T09:00:00.000Z",
				delivered_at: null,
				returned_at: null,
			},
		]);
	});

	it("adds nothing when run again", async () => {
		const db = new DatabaseSync(":memory:");
		db.exec("PRAGMA foreign_keys = OFF");
		await migrate(db, (name) => name < "0021");
		insertOrder(db, "ord_BBBBshipped0000000000000", "shipped", true);
		await migrate(db, (name) => name === BACKFILL);
		await migrate(db, (name) => name === BACKFILL);
		expect(db.prepare("SELECT count(*) AS count FROM shipments").get()).toEqual({ count: 1 });
	});
});
