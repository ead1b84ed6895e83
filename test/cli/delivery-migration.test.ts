/**
 * Migration 0013 rebuilds `deliveries` (each gets an id of its own, so an event can have one per
 * receiver). Run on SQLite in Node against rows the earlier schema holds: nothing may be lost.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";

const MIGRATIONS = path.join(import.meta.dirname, "..", "..", "migrations");

async function migrate(db: DatabaseSync, through: (name: string) => boolean): Promise<void> {
	const names = (await readdir(MIGRATIONS)).filter((name) => name.endsWith(".sql")).sort();
	for (const name of names.filter(through)) db.exec(await readFile(path.join(MIGRATIONS, name), "utf8"));
}

describe("migration 0013 (deliveries by receiver)", () => {
	it("keeps every delivery with all its columns, gives each its own dlv_ id, and marks it the callback_url's", async () => {
		const db = new DatabaseSync(":memory:");
		db.exec("PRAGMA foreign_keys = OFF");
		await migrate(db, (name) => name < "0013");
		const rows = [
			[
				"evt_a",
				"acct_1",
				"live",
				"https://hooks.example/a",
				"delivered",
				1,
				null,
				null,
				"2026-11-01T10:00:00.000Z",
				200,
				null,
				"2026-11-01T10:00:01.000Z",
			],
			["evt_b", "acct_1", "test", null, "no_endpoint", 0, null, null, null, null, null, null],
			[
				"evt_c",
				"acct_2",
				"live",
				"https://hooks.example/c",
				"pending",
				3,
				"2026-11-01T11:00:00.000Z",
				"2026-11-01T10:59:00.000Z",
				"2026-11-01T10:58:00.000Z",
				500,
				"HTTP 500",
				null,
			],
		] as const;
		for (const row of rows) {
			db.prepare(
				`INSERT INTO events (id, account_id, mode, order_id, type, body, created_at) VALUES (?, ?, ?, 'ord_x', 'order.shipped', '{}', '2026-11-01T09:00:00.000Z')`,
			).run(row[0], row[1], row[2]);
			db.prepare(
				`INSERT INTO deliveries (event_id, account_id, mode, url, status, attempts, next_attempt_at, enqueued_at,
				   last_attempt_at, last_status_code, last_error, delivered_at, created_at)
				 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '2026-11-01T09:00:00.000Z')`,
			).run(...row);
		}
		const columns = `event_id, account_id, mode, url, status, attempts, next_attempt_at, enqueued_at, last_attempt_at,
			last_status_code, last_error, delivered_at, created_at`;
		const before = db.prepare(`SELECT ${columns} FROM deliveries ORDER BY event_id`).all();

		await migrate(db, (name) => name.startsWith("0013"));
		expect(db.prepare(`SELECT ${columns} FROM deliveries ORDER BY event_id`).all()).toEqual(before);
		const ids = db.prepare("SELECT id, endpoint_id FROM deliveries").all() as Array<{ id: string; endpoint_id: null }>;
		expect(ids).toHaveLength(3);
		expect(new Set(ids.map((row) => row.id)).size).toBe(3);
		for (const row of ids) {
			expect(row.id).toMatch(/^dlv_[0-9a-f]{32}$/);
			expect(row.endpoint_id).toBeNull();
		}
		const indexes = db
			.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'deliveries' AND sql IS NOT NULL")
			.all()
			.map((row) => row.name);
		expect(indexes.sort()).toEqual(["deliveries_by_endpoint", "deliveries_by_event", "deliveries_due"]);
		db.close();
	});
});
