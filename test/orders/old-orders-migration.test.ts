/**
 * The migration that brings orders written before two features to the current shape: a shipping method
 * for orders placed before orders were priced, and a code on each hold detail stored before details
 * carried their own. Rows are written as the older code wrote them, the migration's statements run over
 * them again, and the orders are read through the API.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/ids.ts";
import { createKeyWithScopes, createPartner } from "../helpers.ts";
import {
	createOrder,
	externalId,
	opsMoveOk,
	orderBody,
	partnerWithFile,
	readOrder,
	SHIP_TO,
	settleValidation,
	TRACKING,
} from "./order-helpers.ts";

/** The migration's statements, run again over rows written as the service wrote them before it. */
async function bringForward(): Promise<void> {
	const migration = env.TEST_MIGRATIONS.find((each) => each.name.includes("bring_old_orders_forward"));
	if (migration === undefined) throw new Error("no bring_old_orders_forward migration");
	for (const query of migration.queries) await env.DB.prepare(query).run();
}

/** A hold detail as stored before details carried their own code. */
type UncodedDetail = { item_id: string | null; field: string; message: string; code?: string };

/**
 * An order of `accountId` as the service wrote it before orders were priced: no shipping method, no
 * costs, no quote, and one unframed 8 × 10 in item whose specification is the defaults it was made
 * with (as the pricing migration filled them in) and which has no price. Its id and its item's id.
 */
async function orderBeforePricing(
	accountId: string,
	status: "in_production" | "on_hold",
	hold: { reason: string | null; details: (itemId: string) => UncodedDetail[] } = { reason: null, details: () => [] },
): Promise<{ id: string; itemId: string }> {
	const id = newId("ord");
	const itemId = newId("itm");
	const at = new Date(Date.UTC(2026, 0, 5, 9, 0, 0)).toISOString();
	await env.DB.batch([
		env.DB.prepare(
			`INSERT INTO orders (id, account_id, mode, external_id, request_hash, status, version, write_token, ship_to,
			   callback_url, hold_reason, hold_details, created_at, updated_at)
			 VALUES (?1, ?2, 'live', ?3, ?4, ?5, 3, 'old-token', ?6, NULL, ?7, ?8, ?9, ?9)`,
		).bind(
			id,
			accountId,
			externalId("OLD"),
			"0".repeat(64),
			status,
			JSON.stringify(SHIP_TO),
			hold.reason,
			JSON.stringify(hold.details(itemId)),
			at,
		),
		env.DB.prepare(
			`INSERT INTO order_items (id, order_id, position, print_file_url, width_in, height_in, frame, mat, quantity,
			   effective_dpi, warnings, glazing, paper, fit)
			 VALUES (?1, ?2, 0, 'https://files.partner.example/old.png', 8, 10, NULL, NULL, 1, 300, '[]', 'none',
			   'archival-matte', 'fill')`,
		).bind(itemId, id),
	]);
	return { id, itemId };
}

describe("migration: old orders brought forward", () => {
	it("an order placed before orders were priced reads with the standard method, its costs and prices still null, not invented", async () => {
		const partner = await createPartner();
		const { id } = await orderBeforePricing(partner.account.id, "in_production");
		await bringForward();
		const order = await readOrder(partner.keys.live.key, id);
		expect(order.shipping_method).toBe("standard");
		expect(order.costs).toBeNull();
		expect(order.items[0]).toMatchObject({ unit_price: null, line_total: null, dimensions: null, glazing: "none" });
	});

	it("an order placed before orders were priced ships, once brought forward, with its box listed", async () => {
		const partner = await createPartner();
		const { id } = await orderBeforePricing(partner.account.id, "in_production");
		await bringForward();
		const opsKey = await createKeyWithScopes(["ops"]);
		const shipped = await opsMoveOk(opsKey, id, "ship", TRACKING);
		expect(shipped.status).toBe("shipped");
		expect(shipped.shipments[0]?.packages).toHaveLength(1);
	});

	it("hold details stored without a code take the order's hold reason as code, and a detail's own code stays", async () => {
		const partner = await createPartner();
		const { id, itemId } = await orderBeforePricing(partner.account.id, "on_hold", {
			reason: "file_resolution_too_low",
			details: (item) => [
				{ item_id: item, field: "items[0].print_file_url", message: "The file prints at 90 DPI." },
				{ item_id: null, field: "ship_to", message: "Check the address.", code: "operator_hold" },
			],
		});
		await bringForward();
		const order = await readOrder(partner.keys.live.key, id);
		expect(order.hold_details).toEqual([
			{
				item_id: itemId,
				field: "items[0].print_file_url",
				code: "file_resolution_too_low",
				message: "The file prints at 90 DPI.",
			},
			{ item_id: null, field: "ship_to", code: "operator_hold", message: "Check the address." },
		]);
	});

	it("a hold detail stored without a code on an order without a hold reason reads as an operator's hold", async () => {
		const partner = await createPartner();
		const { id } = await orderBeforePricing(partner.account.id, "on_hold", {
			reason: null,
			details: () => [{ item_id: null, field: "ship_to", message: "Check the address." }],
		});
		await bringForward();
		const order = await readOrder(partner.keys.live.key, id);
		expect(order.hold_details.map((detail) => detail.code)).toEqual(["operator_hold"]);
	});

	it("leaves an order already in the current shape as it was, and changes nothing when run again", async () => {
		const { key, file } = await partnerWithFile();
		const held = await settleValidation(
			key,
			(await createOrder(key, orderBody(file, {}, { frame: "no-such-frame" }))).id,
		);
		expect(held.status).toBe("on_hold");
		const express = await settleValidation(
			key,
			(await createOrder(key, orderBody(file, { shipping_method: "express" }))).id,
		);
		await bringForward();
		expect(await readOrder(key, held.id)).toEqual(held);
		expect(await readOrder(key, express.id)).toEqual(express);
		await bringForward();
		expect(await readOrder(key, held.id)).toEqual(held);
		expect(await readOrder(key, express.id)).toEqual(express);
	});
});
