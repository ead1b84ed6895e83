/**
 * One way of writing a piece's measures on every floor page: the mat's borders read the same on the
 * console's order page and the work ticket, and the packing slip writes sizes in inches and fractions
 * as the other pages do (8 1/16, never 8.06).
 */
import { describe, expect, it } from "vitest";
import { consoleRequest, htmlOf, signedInOperator, textOf } from "../console/console-helpers.ts";
import { MUSEUM_PIECE } from "../framing/museum-piece.ts";
import { createOrder, orderBody, partnerWithFile, readyFile, settleValidation } from "../orders/order-helpers.ts";

/** Every mat's borders on a page, as measured ("2 1/8 in all round", "2 3/8 in top and sides, 2 7/8 in bottom"), in order. */
function borderMeasures(text: string): string[] {
	return [...text.matchAll(/borders (\d[\d /]* in (?:all round|top and sides, \d[\d /]* in bottom))/g)].map(
		(match) => match[1] ?? "",
	);
}

describe("the same measures on every floor page", () => {
	it("the mat's borders read the same on the order page and the work ticket: measured from the opening, the order page naming the ordered border", async () => {
		const { key } = await partnerWithFile();
		const file = await readyFile(key, 4800, 6000);
		const plain = await createOrder(key, orderBody(file));
		const museum = await createOrder(key, orderBody(file, {}, MUSEUM_PIECE));
		const operator = await signedInOperator();
		for (const order of [plain, museum]) {
			await settleValidation(key, order.id);
			const page = textOf(
				await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200),
			);
			const ticket = textOf(
				await htmlOf(await consoleRequest(`/ops/orders/${order.id}/work-ticket`, { cookie: operator.cookie }), 200),
			);
			expect(borderMeasures(page).length).toBeGreaterThan(0);
			expect(borderMeasures(ticket)).toEqual(borderMeasures(page));
		}
		const plainPage = textOf(
			await htmlOf(await consoleRequest(`/ops/orders/${plain.id}`, { cookie: operator.cookie }), 200),
		);
		expect(borderMeasures(plainPage)).toEqual(["2 1/8 in all round"]);
		// The order page names the border as ordered beside it, so it matches the partner's order too.
		expect(plainPage).toContain("borders 2 1/8 in all round from the opening (ordered: 2 in, to the print's edge)");
	});

	it("the packing slip writes a print's size in inches and fractions, as the order page and the ticket do", async () => {
		const { key } = await partnerWithFile();
		const file = await readyFile(key, 4800, 6000);
		// Not a size the catalog offers, so it is held; the slip still shows what was ordered.
		const order = await createOrder(key, orderBody(file, {}, { width_in: 8.0625, height_in: 10.5 }));
		const operator = await signedInOperator();
		const slip = textOf(
			await htmlOf(await consoleRequest(`/ops/orders/${order.id}/packing-slip`, { cookie: operator.cookie }), 200),
		);
		expect(slip).toContain("8 1/16 × 10 1/2 in");
		expect(slip).not.toContain("8.06");
	});
});
