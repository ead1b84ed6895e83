/**
 * A sheet of orders read into the API's order bodies: rows grouped by external id, the recipient from
 * the first row, each row's problems in the API's words, formula-like cells refused, and files the
 * sheet cannot use refused with a reason.
 */
import { describe, expect, it } from "vitest";
import {
	looksLikeFormula,
	MAX_SHEET_ROWS,
	readSheet,
	SHEET_COLUMNS,
	sheetTemplate,
} from "../../src/orders/order-sheet.ts";

const HEADER =
	"external_id,print_file_id,width_in,height_in,frame,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_zip,ship_to_country";
const RECIPIENT = "Ada Lovelace,350 Fifth Avenue,New York,NY,10118,US";

describe("reading a sheet of orders", () => {
	it("groups rows by external id into one order each, the recipient taken from the order's first row", () => {
		const read = readSheet(
			[
				HEADER,
				`PO-1,pf_a,8,10,walnut-flat-125,${RECIPIENT}`,
				"PO-2,pf_b,16,20,,Grace,1 Road,Boston,MA,02110,US",
				"PO-1,pf_c,10,8,,,,,,,",
			].join("\n"),
		);
		if (!read.ok) throw new Error(read.message);
		expect(read.orders.map((order) => [order.externalId, order.rows.map((row) => row.line)])).toEqual([
			["PO-1", [2, 4]],
			["PO-2", [3]],
		]);
		const [first] = read.orders;
		expect(first?.input?.items.map((item) => item.print_file_id)).toEqual(["pf_a", "pf_c"]);
		expect(first?.input?.ship_to).toMatchObject({ name: "Ada Lovelace", country: "US" });
	});

	it("puts each problem on its row in the API's words, and a differing recipient on the row that differs", () => {
		const read = readSheet(
			[
				HEADER,
				`PO-1,pf_a,8,big,,${RECIPIENT}`,
				"PO-1,,8,10,,Someone Else,,,,,",
				`PO-2,pf_b,8,10,,,350 Fifth Avenue,New York,NY,10118,US`,
			].join("\n"),
		);
		if (!read.ok) throw new Error(read.message);
		const [one, two] = read.orders;
		expect(one?.input).toBeNull();
		expect(one?.rows[0]?.problems).toEqual(["height_in: Invalid input: expected number, received string"]);
		expect(one?.rows[1]?.problems).toEqual(
			expect.arrayContaining([
				"ship_to_name: differs from line 2's for the same external_id.",
				"The row: must have one of print_file_id or print_file_url",
			]),
		);
		expect(two?.problems).toEqual(["ship_to_name is required."]);
	});

	it("refuses cells that start like a formula, but not signed numbers or phone numbers", () => {
		for (const cell of ["=1+1", "@SUM(A1)", "+cmd|' /C calc'!A0", "-2+3+cmd", "\tx"])
			expect(looksLikeFormula(cell)).toBe(true);
		for (const cell of ["+44 20 7946 0958", "-5", "PO-1", ""]) expect(looksLikeFormula(cell)).toBe(false);
		const read = readSheet([HEADER, `PO-1,pf_a,8,10,=HYPERLINK(1),${RECIPIENT}`].join("\n"));
		if (!read.ok) throw new Error(read.message);
		expect(read.orders[0]?.rows[0]?.problems).toEqual([
			"frame: starts like a spreadsheet formula (=, +, -, @); such cells are refused.",
		]);
		expect(read.orders[0]?.input).toBeNull();
	});

	it("refuses files it cannot use, with a reason: unknown or repeated columns, no rows, too many rows, broken quoting", () => {
		const refusals = [
			"external_id,colour\nPO-1,red",
			"external_id,frame,frame\nPO-1,a,b",
			"frame\nwalnut",
			HEADER,
			"",
			[HEADER, ...Array.from({ length: MAX_SHEET_ROWS + 1 }, (_, index) => `PO-${index},pf_a,8,10,,${RECIPIENT}`)].join(
				"\n",
			),
			`${HEADER}\n"PO-1,pf_a`,
		].map((text) => readSheet(text));
		for (const refused of refusals) expect(refused).toEqual({ ok: false, message: expect.any(String) });
	});

	it("offers a template of every column and one example row that reads as a valid order", () => {
		const template = sheetTemplate();
		expect(template.split("\r\n")[0]).toBe(SHEET_COLUMNS.join(","));
		const read = readSheet(template);
		if (!read.ok) throw new Error(read.message);
		expect(read.orders).toHaveLength(1);
		expect(read.orders[0]?.input).not.toBeNull();
	});
});
