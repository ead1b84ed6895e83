import { describe, expect, it } from "vitest";
import { refundCredit } from "../../src/claims/credit.ts";

const BASIS = {
	shipping: 2500,
	items: [
		{ id: "itm_a", quantity: 2, unitPrice: 14889 },
		{ id: "itm_b", quantity: 1, unitPrice: 4200 },
	],
};

describe("refundCredit", () => {
	it("is the unit price times the units claimed, item by item, without shipping for a damage claim", () => {
		const units = [
			{ item_id: "itm_a", quantity: 2 },
			{ item_id: "itm_b", quantity: 1 },
		];
		expect(refundCredit(BASIS, "damaged_in_transit", units)).toBe(14889 * 2 + 4200);
	});

	it("adds, for a lost claim, the claimed units' share of shipping rounded down to the cent", () => {
		// 2500 × 1 / 3 = 833.33…: 833.
		expect(refundCredit(BASIS, "lost_in_transit", [{ item_id: "itm_b", quantity: 1 }])).toBe(4200 + 833);
		// Every unit lost: all the shipping back.
		const all = [
			{ item_id: "itm_a", quantity: 2 },
			{ item_id: "itm_b", quantity: 1 },
		];
		expect(refundCredit(BASIS, "lost_in_transit", all)).toBe(14889 * 2 + 4200 + 2500);
	});

	it("counts 0 for an item without a price and no shipping for an order not priced", () => {
		const unpriced = { shipping: null, items: [{ id: "itm_a", quantity: 1, unitPrice: null }] };
		expect(refundCredit(unpriced, "lost_in_transit", [{ item_id: "itm_a", quantity: 1 }])).toBe(0);
	});
});
