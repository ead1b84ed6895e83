import { describe, expect, it } from "vitest";
import type { PriceBook } from "../../src/pricing/book.ts";
import { MUSEUM_PIECE, MUSEUM_PIECE_DIMENSIONS, MUSEUM_PIECE_UNITED_INCHES } from "../framing/museum-piece.ts";
import { api, createAdminKey, createKeyWithScopes, createPartner, expectError, send } from "../helpers.ts";
import { readyFile, SHIP_TO } from "../orders/order-helpers.ts";
import { BERLIN, postQuote, publishChangedBook, quote } from "./quote-helpers.ts";

describe("POST /v1/quotes", () => {
	it("prices the museum piece to Germany component by component, with its express package", async () => {
		const key = (await createPartner()).keys.live.key;
		const given = await quote(key, { ship_to: BERLIN, items: [MUSEUM_PIECE], shipping_method: "express" });
		expect(given.id).toMatch(/^quo_/);
		expect(given.price_book_version).toBe(1);
		expect(Date.parse(given.expires_at) - Date.parse(given.created_at)).toBe(48 * 3600_000);
		const [item] = given.items;
		expect(item).toMatchObject({
			mat_border_in: 2.5,
			mat_bottom_border_in: 3,
			inner_mat_reveal_in: 0.25,
			fit: "fill",
			dimensions: MUSEUM_PIECE_DIMENSIONS,
			united_inches: MUSEUM_PIECE_UNITED_INCHES,
			unit_price: {
				print: 1_120, // 320 sq in × 35 mills
				frame: 7_742, // 103/12 × 1.1 ft × 8,200 mills (walnut 1 1/4 in)
				mat: 1_800, // two layers, 46.5 UI: the ≤ 60 tier
				glazing: 3_213, // 535.5 sq in × 60 mills
				backing: 214, // 535.5 sq in × 4 mills
				assembly: 800,
				discount: 0,
				total: 14_889,
			},
			quantity: 1,
			line_total: 14_889,
		});
		const express = given.shipping_options.find((option) => option.method === "express");
		expect(express).toEqual({
			method: "express",
			packages: [
				{
					length_in: 32,
					width_in: 27.5,
					depth_in: 4,
					weight_lb: 10.27,
					billable_weight_lb: 26,
					oversize: false,
					length_plus_girth_in: 95,
				},
			],
			cost: 7_000 + 760 * 26,
			delivery_days: { min: 6, max: 8 },
		});
		expect(given.totals).toEqual({
			items: 14_889,
			by_method: Object.fromEntries(
				given.shipping_options.map((option) => [
					option.method,
					{
						shipping: option.cost,
						// Berlin under the account's default terms (duty unpaid): nothing is charged for the border.
						taxes_and_duties: 0,
						total: 14_889 + option.cost,
						landed_cost: given.totals.by_method[option.method]?.landed_cost,
					},
				]),
			),
		});
		expect(given.shipping_options.map((option) => option.method)).toEqual(["standard", "express", "freight"]);
	});

	it("recomputes from the published book alone: the unit prices follow GET /v1/price-book's rates", async () => {
		const key = (await createPartner()).keys.live.key;
		const book = (await (await api("/v1/price-book", { key })).json()) as PriceBook;
		const given = await quote(key, {
			ship_to: SHIP_TO,
			items: [{ width_in: 12, height_in: 18, paper: "photo-lustre" }],
		});
		const print = Math.max(
			book.print.minimum_cents,
			Math.round((12 * 18 * (book.print.paper_mills_per_sq_in["photo-lustre"] ?? 0)) / 10),
		);
		expect(given.items[0]?.unit_price).toEqual({
			print,
			frame: 0,
			mat: 0,
			glazing: 0,
			backing: 0,
			assembly: 0,
			discount: 0,
			total: print,
		});
		// Prints alone ship flat, with a day of production; budget is offered in the US.
		expect(given.shipping_options.map((option) => option.method)).toEqual(["budget", "standard", "express", "freight"]);
		expect(given.shipping_options[0]?.delivery_days).toEqual({ min: 1 + 5, max: 1 + 8 });
	});

	it("takes the account's discount off each unit price", async () => {
		const partner = await createPartner();
		const admin = await createAdminKey();
		await send("PUT", `/v1/admin/accounts/${partner.account.id}/pricing`, admin, { discount_percent: 10 });
		const given = await quote(partner.keys.live.key, { ship_to: BERLIN, items: [{ ...MUSEUM_PIECE, quantity: 2 }] });
		expect(given.items[0]?.unit_price).toMatchObject({ discount: 1_489, total: 14_889 - 1_489 });
		expect(given.items[0]?.line_total).toBe(2 * (14_889 - 1_489));
	});

	it("adds a named file's effective DPI and verdict at the item's size", async () => {
		const key = (await createPartner()).keys.live.key;
		const file = await readyFile(key, 2400, 3000);
		const given = await quote(key, {
			ship_to: SHIP_TO,
			items: [
				{ print_file_id: file, width_in: 8, height_in: 10 },
				{ print_file_id: file, width_in: 16, height_in: 20 },
				{ print_file_id: file, width_in: 24, height_in: 30 },
			],
		});
		expect(given.items.map((item) => [item.effective_dpi, item.resolution])).toEqual([
			[300, "ok"],
			[150, "warn"],
			[100, "reject"],
		]);
	});

	it.each([
		[{ ...MUSEUM_PIECE, frame: "teak-flat-100" }, "items[0].frame", "frame_not_found"],
		[{ ...MUSEUM_PIECE, mat: "tartan" }, "items[0].mat", "mat_not_found"],
		[{ ...MUSEUM_PIECE, glazing: "glass" }, "items[0].glazing", "glazing_not_found"],
		[{ ...MUSEUM_PIECE, paper: "papyrus" }, "items[0].paper", "paper_not_found"],
		[{ ...MUSEUM_PIECE, width_in: 41 }, "items[0].width_in", "size_not_offered"],
		[{ ...MUSEUM_PIECE, height_in: 12.5 }, "items[0].height_in", "size_not_offered"],
		[{ width_in: 8, height_in: 10, mat: "bright-white" }, "items[0].mat", "invalid_field"],
		[{ width_in: 8, height_in: 10, print_file_id: "pf_nothere" }, "items[0].print_file_id", "unknown_print_file"],
		// 40 × 40 in with 6 in borders: 104 united inches, beyond the 3/4 in moulding's 80.
		[
			{ width_in: 40, height_in: 40, frame: "walnut-flat-075", mat: "bright-white", mat_border_in: 6 },
			"items[0].frame",
			"frame_too_small_for_size",
		],
	])("refuses %j with a 422 on %s, code %s", async (item, field, code) => {
		const key = (await createPartner()).keys.live.key;
		const error = await expectError(
			await postQuote(key, { ship_to: SHIP_TO, items: [item] }),
			"validation_error",
			field,
		);
		expect(error.code).toBe(code);
	});

	it("refuses a shipping method not offered to the destination", async () => {
		const key = (await createPartner()).keys.live.key;
		const response = await postQuote(key, { ship_to: BERLIN, items: [MUSEUM_PIECE], shipping_method: "budget" });
		const error = await expectError(response, "validation_error", "shipping_method");
		expect(error.message).toContain("standard, express, freight");
	});

	it("needs a ship-to (400 without one) and a key with orders:write (403 without)", async () => {
		const partner = await createPartner();
		await expectError(await postQuote(partner.keys.live.key, { items: [MUSEUM_PIECE] }), "bad_request", "ship_to");
		const readOnly = await createKeyWithScopes(["orders:read"]);
		await expectError(await postQuote(readOnly, { ship_to: SHIP_TO, items: [MUSEUM_PIECE] }), "forbidden");
	});
});

describe("GET /v1/quotes/{id}", () => {
	it("reads the quote as given, even after a new price book", async () => {
		const key = (await createPartner()).keys.live.key;
		const given = await quote(key, { ship_to: BERLIN, items: [MUSEUM_PIECE] });
		await publishChangedBook(key, (rates) => ({ ...rates, assembly: { cents_per_framed_piece: 5_000 } }));
		const read = await api(`/v1/quotes/${given.id}`, { key });
		expect(read.status).toBe(200);
		expect(await read.json()).toEqual(given);
	});

	it("another account's quote, or the other mode's, is not found", async () => {
		const owner = await createPartner();
		const given = await quote(owner.keys.live.key, { ship_to: SHIP_TO, items: [{ width_in: 8, height_in: 10 }] });
		await expectError(await api(`/v1/quotes/${given.id}`, { key: owner.keys.test.key }), "not_found", "id");
		await expectError(
			await api(`/v1/quotes/${given.id}`, { key: (await createPartner()).keys.live.key }),
			"not_found",
			"id",
		);
	});
});
