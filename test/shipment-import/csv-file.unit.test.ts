import { describe, expect, it } from "vitest";
import { detectSeparator, MAX_IMPORT_ROWS, parseImport } from "../../src/shipment-import/csv-file.ts";

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

	it("refuses the whole file without the columns it needs, naming the columns it found and the ones it expected", () => {
		expect(parseImport("order,carrier\nord_1,UPS\n")).toEqual({
			ok: false,
			message:
				'The header row is missing order_id or external_id and tracking_number. Read as comma-separated, it has the columns "order", "carrier"; the import needs order_id or external_id, carrier and tracking_number, and tracking_url unless the carrier\'s page follows from the number.',
		});
	});

	it("takes a file without a tracking_url column, the URL then left to the carrier's template", () => {
		const parsed = parseImport("order_id,carrier,tracking_number\nord_1,UPS,1Z1\n");
		expect(parsed.ok && parsed.rows[0]?.values).toEqual({ order_id: "ord_1", carrier: "UPS", number: "1Z1" });
	});

	it("refuses an empty file, a header alone, a quote never closed, and more rows than the bound", () => {
		expect(parseImport("").ok).toBe(false);
		expect(parseImport("order_id,carrier,tracking_number,tracking_url\n")).toMatchObject({
			ok: false,
			message: expect.stringContaining("no shipments"),
		});
		expect(parseImport('order_id,carrier,tracking_number,tracking_url\nord_1,"UPS,1Z,x\n')).toMatchObject({
			ok: false,
			message: "The row that starts on line 2 opens a quoted field that is never closed.",
		});
		const many = `order_id,carrier,tracking_number,tracking_url\n${"ord_1,UPS,1Z,https://t.example\n".repeat(MAX_IMPORT_ROWS + 1)}`;
		expect(parseImport(many)).toEqual({
			ok: false,
			message: "The file has 5001 rows; at most 5000 are taken at once.",
		});
	});
});

describe("detectSeparator", () => {
	it("reads a semicolon-separated file, as spreadsheets save CSV in much of Europe", () => {
		const parsed = parseImport(
			"Order Number;Carrier;Tracking Number;Tracking URL\r\nPO-1;DHL;JD014600;https://t.example/a,b\r\n",
		);
		expect(parsed).toEqual({
			ok: true,
			rows: [
				{
					line: 2,
					values: { external_id: "PO-1", carrier: "DHL", number: "JD014600", url: "https://t.example/a,b" },
					problem: null,
				},
			],
		});
	});

	it("reads a tab-separated file", () => {
		const parsed = parseImport("order_id\tcarrier\ttracking_number\nord_1\tFedEx\t7946\n");
		expect(parsed.ok && parsed.rows[0]?.values).toEqual({ order_id: "ord_1", carrier: "FedEx", number: "7946" });
	});

	it("decides from the header line alone, ignoring separators inside quoted names and in later rows", () => {
		expect(detectSeparator('"order_id";"carrier, name";"tracking_number"\nord_1,a,b,c,d,e;f\n')).toBe(";");
		expect(detectSeparator('"order;id","carrier","tracking;number"\n')).toBe(",");
		expect(detectSeparator('order_id\t"carrier;a;b"\ttracking_number\n')).toBe("\t");
		expect(detectSeparator("order_id\n;;;;\n")).toBe(",");
	});

	it("a semicolon file whose header still lacks a column names what it read, split on semicolons", () => {
		expect(parseImport("Bestellnummer;Carrier;Sendungsnummer\nPO-1;DHL;1\n")).toEqual({
			ok: false,
			message:
				'The header row is missing order_id or external_id and tracking_number. Read as semicolon-separated, it has the columns "Bestellnummer", "Carrier", "Sendungsnummer"; the import needs order_id or external_id, carrier and tracking_number, and tracking_url unless the carrier\'s page follows from the number.',
		});
	});
});

describe("the file as csv-parse reads it", () => {
	const HEADER = "order_id,carrier,tracking_number,tracking_url";

	it("a UTF-8 byte order mark before a quoted header name is not part of the name", () => {
		const parsed = parseImport('\uFEFF"order_id","carrier","tracking_number"\r\nord_1,UPS,1Z1\r\n');
		expect(parsed).toEqual({
			ok: true,
			rows: [{ line: 2, values: { order_id: "ord_1", carrier: "UPS", number: "1Z1" }, problem: null }],
		});
	});

	it("a semicolon file keeps a quoted cell's semicolons and commas in the cell", () => {
		const parsed = parseImport(
			'order_id;carrier;tracking_number;item_ids\nord_1;"Parcel; Co, Ltd";1Z1;"itm_a:2;itm_b"\nord_2;UPS;1Z2;itm_c\n',
		);
		expect(parsed.ok && parsed.rows.map((row) => [row.line, row.values.carrier, row.values.item_ids])).toEqual([
			[2, "Parcel; Co, Ltd", "itm_a:2;itm_b"],
			[3, "UPS", "itm_c"],
		]);
	});

	it("a quoted field with line breaks (LF, CRLF or CR) is one field; each row's line is where it starts", () => {
		const parsed = parseImport(
			`${HEADER}\r\nord_1,"Parcel\r\nCo",1Z1,https://t.example/1\r\nord_2,"A\nB\rC",1Z2,https://t.example/2\r\n\r\nord_3,UPS,1Z3,https://t.example/3\r\n`,
		);
		expect(parsed.ok && parsed.rows.map((row) => [row.line, row.values.carrier])).toEqual([
			[2, "Parcel\nCo"],
			[4, "A\nB\rC"],
			[8, "UPS"],
		]);
	});

	it("a row with broken quoting refuses the file, naming its line", () => {
		const before = `${HEADER}\nord_1,UPS,1Z1,https://t.example/1\nord_2,"two\nlines",1Z2,https://t.example/2\n\n`;
		expect(parseImport(`${before}ord_3,"UPS"X,1Z3,https://t.example/3\n`)).toEqual({
			ok: false,
			message:
				'Line 6: a quoted field goes on after its closing quote. Quote the whole field and double each quote inside it ("").',
		});
		expect(parseImport(`${before}ord_3,U"PS,1Z3,https://t.example/3\n`)).toEqual({
			ok: false,
			message:
				'Line 6: a field holds a quote but does not start with one. Quote the whole field and double each quote inside it ("").',
		});
		expect(parseImport(`${before}ord_3,"UPS,1Z3,https://t.example/3\nord_4,UPS,1Z4,x\n`)).toEqual({
			ok: false,
			message: "The row that starts on line 6 opens a quoted field that is never closed.",
		});
	});
});
