import { describe, expect, it } from "vitest";
import { MAX_IMPORT_ROWS, parseImport } from "../../src/production/shipments-csv.ts";

describe("parseImport", () => {
	it("reads the columns by their header names, in any order and case, as label tools name them", () => {
		const parsed = parseImport(
			"Tracking URL,Order Number,Carrier,Tracking Number\r\nhttps://t.example/1,PO-1,UPS,1Z1\r\nhttps://t.example/2,PO-2,USPS,9400\r\n",
		);
		expect(parsed).toEqual({
			ok: true,
			rows: [
				{
					line: 2,
					values: { external_id: "PO-1", carrier: "UPS", number: "1Z1", url: "https://t.example/1" },
					problem: null,
				},
				{
					line: 3,
					values: { external_id: "PO-2", carrier: "USPS", number: "9400", url: "https://t.example/2" },
					problem: null,
				},
			],
		});
	});

	it("takes quoted fields with commas, doubled quotes and line breaks, a byte order mark, and LF endings", () => {
		const parsed = parseImport(
			'\uFEFForder_id,carrier,tracking_number,tracking_url\nord_1,"Parcel, Inc. ""Express""",A1,"https://t.example/a"\n\n',
		);
		expect(parsed.ok && parsed.rows[0]?.values).toEqual({
			order_id: "ord_1",
			carrier: 'Parcel, Inc. "Express"',
			number: "A1",
			url: "https://t.example/a",
		});
		const multiline = parseImport(
			'order_id,carrier,tracking_number,tracking_url\nord_1,"two\nlines",A1,https://t.example\nord_2,UPS,B2,https://t.example\n',
		);
		expect(multiline.ok && multiline.rows.map((row) => row.line)).toEqual([2, 4]);
	});

	it("keeps a row with the wrong number of fields, with its problem, for the report", () => {
		const parsed = parseImport("order_id,carrier,tracking_number,tracking_url\nord_1,UPS,1Z1\n");
		expect(parsed.ok && parsed.rows[0]?.problem).toBe("This row has 3 fields; the header has 4.");
	});

	it("refuses the whole file without the columns it needs, naming them", () => {
		expect(parseImport("order,carrier\nord_1,UPS\n")).toEqual({
			ok: false,
			message:
				"The header row must name the columns order_id or external_id, tracking_number, tracking_url (it has: order, carrier).",
		});
	});

	it("refuses an empty file, a header alone, a quote never closed, and more rows than the bound", () => {
		expect(parseImport("").ok).toBe(false);
		expect(parseImport("order_id,carrier,tracking_number,tracking_url\n")).toMatchObject({
			ok: false,
			message: expect.stringContaining("no shipments"),
		});
		expect(parseImport('order_id,carrier,tracking_number,tracking_url\nord_1,"UPS,1Z,x\n')).toMatchObject({
			ok: false,
			message: "A quoted field that starts on line 2 is never closed.",
		});
		const many = `order_id,carrier,tracking_number,tracking_url\n${"ord_1,UPS,1Z,https://t.example\n".repeat(MAX_IMPORT_ROWS + 1)}`;
		expect(parseImport(many)).toEqual({
			ok: false,
			message: "The file has 5001 rows; at most 5000 are taken at once.",
		});
	});
});
