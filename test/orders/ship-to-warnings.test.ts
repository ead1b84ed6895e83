import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shipToWarnings } from "../../src/addresses/ship-to-warnings.ts";
import { createPartner } from "../helpers.ts";
import {
	createOrder,
	insertRawOrder,
	orderBody,
	partnerWithFile,
	readOrder,
	readyFile,
	SHIP_TO,
	settleValidation,
} from "./order-helpers.ts";

/** A ship_to that a create takes, and a carrier's label would trip on three times when shipped express. */
const BOXED = {
	...SHIP_TO,
	address1: "PO Box 4410",
	address2: "Attention: Receiving Department, Floor 21",
	zip: "10118",
};

function codesOf(warnings: { field: string; code: string }[]): string[] {
	return warnings.map(({ field, code }) => `${field} ${code}`);
}

describe("an order's ship_to_warnings", () => {
	it("are stored at creation for the order's method, read back as created, and never hold the order", async () => {
		const { key, file } = await partnerWithFile();
		const created = await createOrder(key, orderBody(file, { ship_to: BOXED, shipping_method: "express" }));
		expect(codesOf(created.ship_to_warnings)).toEqual([
			"ship_to.address2 address_line_too_long",
			"ship_to.address1 po_box_not_served",
			"ship_to.zip postcode_state_mismatch",
		]);
		expect(created.ship_to_warnings).toEqual(shipToWarnings(BOXED, "express"));
		const settled = await settleValidation(key, created.id);
		expect(settled.status).toBe("in_production");
		expect(settled.ship_to_warnings).toEqual(created.ship_to_warnings);
	});

	it("follow the method the order actually gets: no PO box warning for the default standard", async () => {
		const { key, file } = await partnerWithFile();
		const created = await createOrder(key, orderBody(file, { ship_to: BOXED }));
		expect(created.shipping_method).toBe("standard");
		expect(codesOf(created.ship_to_warnings)).toEqual([
			"ship_to.address2 address_line_too_long",
			"ship_to.zip postcode_state_mismatch",
		]);
	});

	it("are the same on a repeat of the create, and empty for a plain US address", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file, { ship_to: BOXED, shipping_method: "express" });
		const first = await createOrder(key, body);
		const repeat = await createOrder(key, body, 200);
		expect(repeat.ship_to_warnings).toEqual(first.ship_to_warnings);
		expect((await createOrder(key, orderBody(file))).ship_to_warnings).toEqual([]);
	});

	it("are kept for test-mode orders too, with the phone warning abroad", async () => {
		const partner = await createPartner();
		const key = partner.keys.test.key;
		const file = await readyFile(key, 2400, 3000);
		const berlin = { name: "Max Planck", address1: "Unter den Linden 6", city: "Berlin", zip: "10117", country: "DE" };
		const created = await createOrder(key, orderBody(file, { ship_to: berlin }));
		expect(created.mode).toBe("test");
		expect(codesOf(created.ship_to_warnings)).toEqual(["ship_to.phone phone_missing"]);
	});

	it("read as an empty list on an order stored before they were kept", async () => {
		const partner = await createPartner();
		const owner = { accountId: partner.account.id, mode: "live" as const };
		const kept = await insertRawOrder(owner, "in_production", "https://example.com/art.tif");
		// A copy of its row written as code older than the column wrote rows: without ship_to_warnings.
		const older = `${kept.id}old`;
		await env.DB.prepare(
			`INSERT INTO orders (id, account_id, mode, external_id, request_hash, status, version, write_token, ship_to,
			   callback_url, hold_details, created_at, updated_at, shipping_method, quote_id, costs)
			 SELECT ?2, account_id, mode, external_id || '-old', request_hash, status, version, write_token, ship_to,
			   callback_url, hold_details, created_at, updated_at, shipping_method, quote_id, costs FROM orders WHERE id = ?1`,
		)
			.bind(kept.id, older)
			.run();
		expect((await readOrder(partner.keys.live.key, older)).ship_to_warnings).toEqual([]);
	});
});
