import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { insertQuote } from "../../src/quotes/store.ts";
import { createPartner, expectError, send } from "../helpers.ts";
import { FILE_HOST } from "../print-files/file-hosting.ts";
import { BERLIN, publishChangedBook, quote } from "../quotes/quote-helpers.ts";
import {
	createOrder,
	externalId,
	orderBody,
	partnerWithFile,
	postOrder,
	readOrder,
	readyFile,
	SHIP_TO,
	settleValidation,
} from "./order-helpers.ts";

/** An 8 × 10 in print, walnut and a mat: what orderBody orders. */
const PIECE = { width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" };

describe("POST /v1/orders: priced by the book in force", () => {
	it("charges what a quote of the same cart says: items, standard shipping, total, book version", async () => {
		const { key, file } = await partnerWithFile();
		const given = await quote(key, { ship_to: SHIP_TO, items: [{ ...PIECE, quantity: 2 }] });
		const order = await createOrder(key, orderBody(file, {}, { quantity: 2 }));
		expect(order.shipping_method).toBe("standard");
		const standard = given.totals.by_method.standard;
		expect(order.costs).toEqual({
			currency: "USD",
			items: given.totals.items,
			shipping: standard?.shipping,
			taxes_and_duties: standard?.taxes_and_duties,
			total: standard?.total,
			price_book_version: 1,
			quote_id: null,
			charge: "order",
			exchange_rate: given.exchange_rate,
			landed_cost: standard?.landed_cost,
			partner_tax: given.partner_tax,
		});
		const [item] = order.items;
		const [quoted] = given.items;
		expect(item?.unit_price).toEqual(quoted?.unit_price);
		expect(item?.line_total).toBe((quoted?.unit_price.total ?? 0) * 2);
		expect(item?.dimensions).toEqual(quoted?.dimensions);
		expect(item?.united_inches).toBe(quoted?.united_inches);
		// The charges read back the same.
		expect((await readOrder(key, order.id)).costs).toEqual(order.costs);
	});

	it("the order's total is the sum of its line totals and its shipping", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file);
		body.items.push({ ...body.items[0], frame: "gallery-black-125", mat: "bright-white" } as (typeof body.items)[0]);
		const order = await createOrder(key, body);
		const lines = order.items.reduce((sum, item) => sum + (item.line_total ?? 0), 0);
		expect(order.costs?.items).toBe(lines);
		expect(order.costs?.total).toBe(lines + (order.costs?.shipping ?? 0));
	});

	it("a method not offered to the destination is a 422 on shipping_method (budget outside the US)", async () => {
		const { key, file } = await partnerWithFile();
		const error = await expectError(
			await postOrder(key, orderBody(file, { ship_to: BERLIN, shipping_method: "budget" })),
			"validation_error",
			"shipping_method",
		);
		expect(error.message).toContain("offered: standard, express, freight");
	});

	it("budget to the US is taken and charged at the budget rate", async () => {
		const { key, file } = await partnerWithFile();
		const given = await quote(key, { ship_to: SHIP_TO, items: [PIECE] });
		const order = await createOrder(key, orderBody(file, { shipping_method: "budget" }));
		expect(order.shipping_method).toBe("budget");
		expect(order.costs?.shipping).toBe(given.totals.by_method.budget?.shipping);
	});

	it("a piece too large for parcel services ships by freight without asking, and standard is a 422", async () => {
		// 40 × 40 in with 6 in mat borders in a 2 in moulding: a 60 × 60 × 4 in box, 188 in of length plus girth.
		const { key } = await partnerWithFile();
		const file = await readyFile(key, 12_000, 12_000);
		const big = { width_in: 40, height_in: 40, frame: "gallery-black-200", mat: "bright-white", mat_border_in: 6 };
		const order = await createOrder(key, orderBody(file, {}, big));
		expect(order.shipping_method).toBe("freight");
		expect(order.costs?.shipping).toBeGreaterThan(15_000);
		const error = await expectError(
			await postOrder(key, orderBody(file, { shipping_method: "standard" }, big)),
			"validation_error",
			"shipping_method",
		);
		expect(error.message).toContain("offered: freight");
	});

	it("a combination that cannot be built is a 422 on its field: a mat without a frame, a border without a mat", async () => {
		const { key, file } = await partnerWithFile();
		await expectError(
			await postOrder(key, orderBody(file, {}, { frame: undefined, mat: "bright-white" })),
			"validation_error",
			"items[0].mat",
		);
		await expectError(
			await postOrder(key, orderBody(file, {}, { mat: undefined, mat_border_in: 3 })),
			"validation_error",
			"items[0].mat_border_in",
		);
		await expectError(
			await postOrder(key, orderBody(file, {}, { mat_border_in: 2.3 })),
			"validation_error",
			"items[0].mat_border_in",
		);
	});

	it("an order that spells out every default is the same order: a replay, not a conflict", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file);
		const first = await createOrder(key, body);
		const spelled = {
			...body,
			shipping_method: "standard",
			items: body.items.map((item) => ({
				...item,
				mat_border_in: 2,
				mat_bottom_border_in: 2,
				glazing: "acrylic",
				paper: "archival-matte",
				fit: "fill",
				quantity: 1,
			})),
		};
		const replay = await postOrder(key, spelled);
		expect(replay.status).toBe(200);
		expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
		expect(((await replay.json()) as Order).id).toBe(first.id);
	});

	it("the same external_id with another paper, fit or shipping method is a 409", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file);
		await createOrder(key, body);
		for (const changed of [
			{ ...body, items: body.items.map((item) => ({ ...item, paper: "cotton-rag" })) },
			{ ...body, items: body.items.map((item) => ({ ...item, fit: "fit" })) },
			{ ...body, shipping_method: "express" },
		]) {
			await expectError(await postOrder(key, changed), "conflict", "external_id");
		}
	});

	it("fill that cuts more than 2% of the image carries image_cropped with the share cut", async () => {
		const { key } = await partnerWithFile();
		// 2400 × 3300 px for 8 × 10 in: 300 DPI across, 330 along; fill cuts 1 − 300/330 = 9.1%.
		const file = await readyFile(key, 2400, 3300);
		const filled = await createOrder(key, orderBody(file));
		expect(filled.items[0]).toMatchObject({
			warnings: ["image_cropped"],
			image_cropped_percent: 9.1,
			effective_dpi: 300,
		});
		const fitted = await createOrder(key, orderBody(file, {}, { fit: "fit" }));
		expect(fitted.items[0]).toMatchObject({ warnings: [], image_cropped_percent: 0, effective_dpi: 330 });
	});
});

describe("POST /v1/orders: holds for what the catalog lacks, and the price once fixed", () => {
	it("an unknown glazing holds the order unpriced; a PATCH to a real one prices it with the book in force", async () => {
		const { key, file } = await partnerWithFile();
		const created = await createOrder(key, orderBody(file, {}, { glazing: "diamond-glass" }));
		expect(created.costs).toBeNull();
		expect(created.items[0]).toMatchObject({ glazing: "diamond-glass", unit_price: null, dimensions: null });
		const held = await settleValidation(key, created.id);
		expect(held.status).toBe("on_hold");
		expect(held.hold_reason).toBe("glazing_not_found");
		expect(held.hold_details).toEqual([
			{
				item_id: held.items[0]?.id,
				field: "glazing",
				code: "glazing_not_found",
				message: 'No glazing "diamond-glass" in the catalog.',
			},
		]);
		const patched = await send("PATCH", `/v1/orders/${held.id}/items/${held.items[0]?.id}`, key, {
			glazing: "museum-acrylic",
		});
		expect(patched.status).toBe(200);
		const settled = await settleValidation(key, held.id);
		expect(settled.status).toBe("in_production");
		const given = await quote(key, { ship_to: SHIP_TO, items: [{ ...PIECE, glazing: "museum-acrylic" }] });
		expect(settled.costs).toEqual({
			currency: "USD",
			items: given.totals.items,
			shipping: given.totals.by_method.standard?.shipping,
			taxes_and_duties: given.totals.by_method.standard?.taxes_and_duties,
			total: given.totals.by_method.standard?.total,
			price_book_version: 1,
			quote_id: null,
			charge: "order",
			exchange_rate: given.exchange_rate,
			landed_cost: given.totals.by_method.standard?.landed_cost,
			partner_tax: given.partner_tax,
		});
		expect(settled.items[0]?.unit_price).toEqual(given.items[0]?.unit_price);
	});

	it("an unknown paper is paper_not_found", async () => {
		const { key, file } = await partnerWithFile();
		const created = await createOrder(key, orderBody(file, {}, { paper: "papyrus" }));
		const held = await settleValidation(key, created.id);
		expect([held.status, held.hold_reason]).toEqual(["on_hold", "paper_not_found"]);
	});

	it("a piece larger than its moulding carries is frame_too_small_for_size, unpriced", async () => {
		// silver-metal-050 carries 70 united inches; 30 × 40 in is 70 before the 2 in mat borders.
		const { key } = await partnerWithFile();
		const file = await readyFile(key, 9_000, 12_000);
		const created = await createOrder(
			key,
			orderBody(file, {}, { width_in: 30, height_in: 40, frame: "silver-metal-050", mat: "bright-white" }),
		);
		expect(created.costs).toBeNull();
		const held = await settleValidation(key, created.id);
		expect(held.hold_reason).toBe("frame_too_small_for_size");
		expect(held.hold_details[0]).toMatchObject({ field: "frame" });
		expect(held.hold_details[0]?.message).toContain("carries at most 70 united inches; this piece is 78");
		// Without the mat it is exactly 70: the PATCH fixes it.
		const patched = await send("PATCH", `/v1/orders/${held.id}/items/${held.items[0]?.id}`, key, { mat: null });
		expect(patched.status).toBe(200);
		const settled = await settleValidation(key, held.id);
		expect(settled.status).toBe("in_production");
		expect(settled.items[0]?.united_inches).toBe(70);
		expect(settled.costs?.total).toBeGreaterThan(0);
	});
});

describe("POST /v1/orders with quote_id", () => {
	it("is charged exactly the quote, with its id and book version", async () => {
		const { key, file } = await partnerWithFile();
		const given = await quote(key, { ship_to: BERLIN, items: [PIECE] });
		const order = await createOrder(
			key,
			orderBody(file, { ship_to: BERLIN, quote_id: given.id, shipping_method: "express" }),
		);
		expect(order.shipping_method).toBe("express");
		expect(order.costs).toEqual({
			currency: "USD",
			items: given.totals.items,
			shipping: given.totals.by_method.express?.shipping,
			taxes_and_duties: given.totals.by_method.express?.taxes_and_duties,
			total: given.totals.by_method.express?.total,
			price_book_version: given.price_book_version,
			quote_id: given.id,
			charge: "order",
			exchange_rate: given.exchange_rate,
			landed_cost: given.totals.by_method.express?.landed_cost,
			partner_tax: given.partner_tax,
		});
		expect(order.items[0]?.unit_price).toEqual(given.items[0]?.unit_price);
	});

	it("an order against a quote asked for with express that names no method ships express, at the quote's price", async () => {
		const { key, file } = await partnerWithFile();
		const given = await quote(key, { ship_to: BERLIN, items: [PIECE], shipping_method: "express" });
		const order = await createOrder(key, orderBody(file, { ship_to: BERLIN, quote_id: given.id }));
		expect(order.shipping_method).toBe("express");
		expect(order.costs?.shipping).toBe(given.totals.by_method.express?.shipping);
		expect(order.costs?.total).toBe(given.totals.by_method.express?.total);
	});

	it("an order that names another method than its quote's gets that method, at the quote's price for it", async () => {
		const { key, file } = await partnerWithFile();
		const given = await quote(key, { ship_to: BERLIN, items: [PIECE], shipping_method: "express" });
		const order = await createOrder(
			key,
			orderBody(file, { ship_to: BERLIN, quote_id: given.id, shipping_method: "standard" }),
		);
		expect(order.shipping_method).toBe("standard");
		expect(order.costs?.total).toBe(given.totals.by_method.standard?.total);
	});

	it("the quote must be for the same items: another paper is a 422 on quote_id naming the field", async () => {
		const { key, file } = await partnerWithFile();
		const given = await quote(key, { ship_to: SHIP_TO, items: [PIECE] });
		const error = await expectError(
			await postOrder(key, orderBody(file, { quote_id: given.id }, { paper: "cotton-rag" })),
			"validation_error",
			"quote_id",
		);
		expect(error.message).toContain("items[0].paper");
		const twice = await expectError(
			await postOrder(key, orderBody(file, { quote_id: given.id }, { quantity: 2 })),
			"validation_error",
			"quote_id",
		);
		expect(twice.message).toContain("items[0].quantity");
	});

	it("spelling out a default still matches the quote: the comparison is on the complete specification", async () => {
		const { key, file } = await partnerWithFile();
		const given = await quote(key, { ship_to: SHIP_TO, items: [PIECE] });
		const order = await createOrder(
			key,
			orderBody(file, { quote_id: given.id }, { glazing: "acrylic", mat_border_in: 2, paper: "archival-matte" }),
		);
		expect(order.costs?.quote_id).toBe(given.id);
	});

	it("the quote must be for the same country: another is a 422 on quote_id", async () => {
		const { key, file } = await partnerWithFile();
		const given = await quote(key, { ship_to: SHIP_TO, items: [PIECE] });
		const error = await expectError(
			await postOrder(key, orderBody(file, { ship_to: BERLIN, quote_id: given.id })),
			"validation_error",
			"quote_id",
		);
		expect(error.message).toContain("is for shipping to US, not DE");
	});

	it("another account's quote, the other mode's, or none at all is a 422 on quote_id", async () => {
		const { partner, key, file } = await partnerWithFile();
		const stranger = await createPartner();
		const theirs = await quote(stranger.keys.live.key, { ship_to: SHIP_TO, items: [PIECE] });
		const testMode = await quote(partner.keys.test.key, { ship_to: SHIP_TO, items: [PIECE] });
		for (const quoteId of [theirs.id, testMode.id, "quo_nothing"]) {
			const error = await expectError(
				await postOrder(key, orderBody(file, { quote_id: quoteId })),
				"validation_error",
				"quote_id",
			);
			expect(error.message).toBe(`No quote ${quoteId} in this account and mode.`);
		}
	});

	it("an expired quote is a 422 on quote_id, but a repeat of an order placed with it replays", async () => {
		const { partner, key, file } = await partnerWithFile();
		const given = await quote(key, { ship_to: SHIP_TO, items: [PIECE] });
		const body = orderBody(file, { quote_id: given.id });
		const first = await createOrder(key, body);
		// The same quote, stored as if made three days ago.
		const past = Date.now() - 72 * 3600_000;
		const expired = {
			...given,
			id: `${given.id}x`,
			created_at: new Date(past).toISOString(),
			expires_at: new Date(past + 48 * 3600_000).toISOString(),
		};
		await insertQuote(env.DB, { accountId: partner.account.id, mode: "live" }, expired);
		const error = await expectError(
			await postOrder(key, orderBody(file, { quote_id: expired.id })),
			"validation_error",
			"quote_id",
		);
		expect(error.message).toContain("expired");
		// The first order's repeat is answered as the first answer was.
		const replay = await postOrder(key, body);
		expect(replay.status).toBe(200);
		expect(((await replay.json()) as Order).id).toBe(first.id);
	});

	it("a method the quote does not offer is a 422 on shipping_method", async () => {
		const { key, file } = await partnerWithFile();
		const given = await quote(key, { ship_to: BERLIN, items: [PIECE] });
		await expectError(
			await postOrder(key, orderBody(file, { ship_to: BERLIN, quote_id: given.id, shipping_method: "budget" })),
			"validation_error",
			"shipping_method",
		);
	});
});

// Last in the file: it publishes a new price book, which every later test here would see.
describe("a new price book", () => {
	it("prices new orders, while an order against an earlier quote is charged the quote exactly", async () => {
		const { key, file } = await partnerWithFile();
		const given = await quote(key, { ship_to: SHIP_TO, items: [PIECE] });
		await publishChangedBook(key, (rates) => ({
			...rates,
			assembly: { cents_per_framed_piece: rates.assembly.cents_per_framed_piece + 1_000 },
		}));
		const quoted = await createOrder(key, orderBody(file, { quote_id: given.id }));
		expect(quoted.costs).toMatchObject({
			items: given.totals.items,
			total: given.totals.by_method.standard?.total,
			price_book_version: 1,
			quote_id: given.id,
			charge: "order",
		});
		const unquoted = await createOrder(key, orderBody(file));
		expect(unquoted.costs?.price_book_version).toBe(2);
		expect(unquoted.costs?.items).toBe(given.totals.items + 1_000);
		expect(unquoted.items[0]?.unit_price?.assembly).toBe((given.items[0]?.unit_price.assembly ?? 0) + 1_000);
	});

	it("a PATCH of the file alone keeps the order's charges; a change of what the item is reprices it", async () => {
		const { key, file } = await partnerWithFile();
		// Quoted under the book in force now (version 2, after the test above), then the book changes again.
		const given = await quote(key, { ship_to: SHIP_TO, items: [PIECE] });
		const body = {
			external_id: externalId(),
			ship_to: SHIP_TO,
			quote_id: given.id,
			items: [{ ...PIECE, print_file_url: `${FILE_HOST}/status/404` }],
		};
		const created = await createOrder(key, body);
		const held = await settleValidation(key, created.id);
		expect(held.hold_reason).toBe("file_fetch_failed");
		expect(held.costs?.quote_id).toBe(given.id);
		const itemPath = `/v1/orders/${held.id}/items/${held.items[0]?.id}`;
		const book = await publishChangedBook(key, (rates) => ({
			...rates,
			assembly: { cents_per_framed_piece: rates.assembly.cents_per_framed_piece + 500 },
		}));

		// A new file alone: the quote's charges stand.
		expect((await send("PATCH", itemPath, key, { print_file_id: file })).status).toBe(200);
		const fixed = await settleValidation(key, held.id);
		expect(fixed.status).toBe("in_production");
		expect(fixed.costs).toEqual(held.costs);

		// A new paper on a second held order: priced again with the book in force, the quote no longer applies.
		const again = await createOrder(key, { ...body, external_id: externalId() });
		const heldAgain = await settleValidation(key, again.id);
		const againPath = `/v1/orders/${heldAgain.id}/items/${heldAgain.items[0]?.id}`;
		expect((await send("PATCH", againPath, key, { print_file_id: file, paper: "cotton-rag" })).status).toBe(200);
		const repriced = await settleValidation(key, heldAgain.id);
		expect(repriced.status).toBe("in_production");
		expect(repriced.costs).toMatchObject({ price_book_version: book.version, quote_id: null });
		const requoted = await quote(key, { ship_to: SHIP_TO, items: [{ ...PIECE, paper: "cotton-rag" }] });
		expect(repriced.costs?.total).toBe(requoted.totals.by_method.standard?.total);
	});
});
