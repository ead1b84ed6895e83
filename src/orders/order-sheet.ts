/**
 * Orders as a spreadsheet: one CSV row per item, the rows of an order sharing its external_id, its
 * recipient and its shipping method in the same columns (on its first row, or repeated the same).
 * Read by csv-parse into the API's order bodies, validated by the API's own schema; each row keeps the
 * problems found in it, in the API's words. Pure: checking the files and the prices is the dry run's.
 */
import { CsvError, parse } from "csv-parse/sync";
import { FRAMING_FIELDS } from "../framing/spec.ts";
import { fieldPath, problemOfIssue } from "../http/validation.ts";
import { CreateOrderBody, type CreateOrderInput } from "./schema.ts";

/** Most bytes a sheet may have. */
export const MAX_SHEET_BYTES = 256 * 1024;
/** Most item rows a sheet may have (an order holds at most 50 items). */
export const MAX_SHEET_ROWS = 200;

const SHIP_TO_FIELDS = ["name", "address1", "address2", "city", "state", "zip", "country", "phone", "email"] as const;
const NUMBER_COLUMNS: ReadonlySet<string> = new Set([
	"width_in",
	"height_in",
	"quantity",
	"mat_border_in",
	"mat_bottom_border_in",
	"inner_mat_reveal_in",
]);
const ITEM_COLUMNS = [
	"print_file_id",
	"print_file_url",
	"width_in",
	"height_in",
	...FRAMING_FIELDS,
	"quantity",
] as const;
const ORDER_COLUMNS = [...SHIP_TO_FIELDS.map((name) => `ship_to_${name}` as const), "shipping_method"] as const;

/** The columns a sheet may have, in the template's order. */
export const SHEET_COLUMNS: readonly string[] = ["external_id", ...ITEM_COLUMNS, ...ORDER_COLUMNS];
const KNOWN_COLUMNS: ReadonlySet<string> = new Set(SHEET_COLUMNS);

/** The template a partner downloads: the header and one example row. */
export function sheetTemplate(): string {
	const example: Record<string, string> = {
		external_id: "PO-1001",
		print_file_url: "https://example.com/prints/harbour-at-dusk.jpg",
		width_in: "16",
		height_in: "20",
		frame: "walnut-flat-125",
		mat: "museum-rag-white-4ply",
		glazing: "museum-acrylic",
		quantity: "1",
		ship_to_name: "Ada Lovelace",
		ship_to_address1: "350 Fifth Avenue",
		ship_to_city: "New York",
		ship_to_state: "NY",
		ship_to_zip: "10118",
		ship_to_country: "US",
		shipping_method: "standard",
	};
	return `${SHEET_COLUMNS.join(",")}\r\n${SHEET_COLUMNS.map((column) => example[column] ?? "").join(",")}\r\n`;
}

/** One item row: its line in the file (the header is line 1), its order's external id, and what is wrong in it. */
export type SheetRow = { line: number; externalId: string; problems: string[] };

/** The rows of one external id: the API's order body they make (null when they make none) and what is wrong with the order as a whole. */
export type SheetOrder = { externalId: string; rows: SheetRow[]; input: CreateOrderInput | null; problems: string[] };

/** A sheet as read: its orders in the order of their first rows; or why the file cannot be used. */
export type ReadSheet = { ok: true; orders: SheetOrder[] } | { ok: false; message: string };

/**
 * Whether a cell would run as a formula in a spreadsheet (=, +, -, @, or a tab or carriage return first):
 * refused rather than kept, so no sheet made from these orders runs it. A signed number or a phone
 * number (+44 20 …) is data, not a formula.
 */
export function looksLikeFormula(cell: string): boolean {
	if (/^[=@\t\r]/.test(cell)) return true;
	return /^[+-]/.test(cell) && !/^[+-][\d ().-]*$/.test(cell);
}

function parsedRecords(text: string): { ok: true; records: string[][] } | { ok: false; message: string } {
	try {
		const records: string[][] = parse(text, {
			bom: true,
			relax_column_count: true,
			skip_empty_lines: true,
			max_record_size: 64 * 1024,
			to: MAX_SHEET_ROWS + 2,
		});
		return { ok: true, records };
	} catch (error) {
		if (error instanceof CsvError)
			return { ok: false, message: `The file is not a CSV the console reads: ${error.message}` };
		throw error;
	}
}

/** The header's columns, or why it cannot be used: an unknown column, a repeated one, or no external_id. */
function headerOf(fields: readonly string[]): { ok: true; columns: string[] } | { ok: false; message: string } {
	const columns = fields.map((field) => field.trim().toLowerCase());
	const unknown = columns.find((column) => !KNOWN_COLUMNS.has(column));
	if (unknown !== undefined) {
		return {
			ok: false,
			message: `The header names a column the console does not know: "${unknown.slice(0, 40)}". Use the template's columns.`,
		};
	}
	const repeated = columns.find((column, index) => columns.indexOf(column) !== index);
	if (repeated !== undefined) return { ok: false, message: `The header names the column ${repeated} twice.` };
	if (!columns.includes("external_id")) return { ok: false, message: "The header has no external_id column." };
	return { ok: true, columns };
}

/** A cell as the API's body takes it: a number column's number when it reads as one (else the text, for the schema to refuse). */
function bodyValueOf(column: string, cell: string): string | number {
	return NUMBER_COLUMNS.has(column) && /^\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell;
}

type ReadRow = { line: number; cells: Map<string, string>; problems: string[] };

/** Reads a sheet's text into orders, each row with what is wrong in it; or why the file cannot be used. */
export function readSheet(text: string): ReadSheet {
	const read = parsedRecords(text);
	if (!read.ok) return read;
	const [header, ...records] = read.records;
	if (header === undefined)
		return { ok: false, message: "The file is empty: it needs the header row and a row per item." };
	const parsedHeader = headerOf(header);
	if (!parsedHeader.ok) return parsedHeader;
	if (records.length === 0) return { ok: false, message: "The file has a header but no rows." };
	if (records.length > MAX_SHEET_ROWS) {
		return { ok: false, message: `The file has more than ${MAX_SHEET_ROWS} rows: split it into smaller files.` };
	}
	const groups = new Map<string, ReadRow[]>();
	records.forEach((fields, index) => {
		const row = rowOf(parsedHeader.columns, fields, index + 2);
		const externalId = row.cells.get("external_id") ?? "";
		groups.set(externalId, [...(groups.get(externalId) ?? []), row]);
	});
	return { ok: true, orders: [...groups].map(([externalId, rows]) => orderOf(externalId, rows)) };
}

function rowOf(columns: readonly string[], fields: readonly string[], line: number): ReadRow {
	const problems: string[] = [];
	if (fields.length !== columns.length) {
		problems.push(`The row has ${fields.length} fields; the header has ${columns.length}.`);
	}
	const cells = new Map<string, string>();
	columns.forEach((column, index) => {
		const cell = (fields[index] ?? "").trim();
		if (looksLikeFormula(cell)) {
			problems.push(`${column}: starts like a spreadsheet formula (=, +, -, @); such cells are refused.`);
		} else if (cell !== "") cells.set(column, cell);
	});
	if (!cells.has("external_id")) problems.push("external_id is required.");
	return { line, cells, problems };
}

/** The value of an order-level column: the first row that fills it; a later row that fills it differently is wrong. */
function orderValue(rows: readonly ReadRow[], column: string): string | undefined {
	const first = rows.find((row) => row.cells.has(column));
	const value = first?.cells.get(column);
	for (const row of rows) {
		const other = row.cells.get(column);
		if (first !== undefined && other !== undefined && other !== value) {
			row.problems.push(`${column}: differs from line ${first.line}'s for the same external_id.`);
		}
	}
	return value;
}

function orderOf(externalId: string, rows: ReadRow[]): SheetOrder {
	const shipTo = Object.fromEntries(
		SHIP_TO_FIELDS.flatMap((name) => {
			const value = orderValue(rows, `ship_to_${name}`);
			return value === undefined ? [] : [[name, value]];
		}),
	);
	const method = orderValue(rows, "shipping_method");
	const body = {
		external_id: externalId,
		ship_to: shipTo,
		items: rows.map((row) =>
			Object.fromEntries(
				ITEM_COLUMNS.flatMap((column) => {
					const cell = row.cells.get(column);
					return cell === undefined ? [] : [[column, bodyValueOf(column, cell)]];
				}),
			),
		),
		...(method === undefined ? {} : { shipping_method: method }),
	};
	const problems: string[] = [];
	const parsed = CreateOrderBody.safeParse(body);
	if (!parsed.success) {
		for (const issue of parsed.error.issues) {
			const { message } = problemOfIssue(issue, body);
			const [first, index] = issue.path;
			const row = first === "items" && typeof index === "number" ? rows[index] : undefined;
			if (row !== undefined && typeof index === "number") row.problems.push(itemWords(message, index));
			else problems.push(sheetWords(message, issue.path));
		}
	}
	const sheetRows = rows.map((row) => ({ line: row.line, externalId, problems: row.problems }));
	const clean = parsed.success && problems.length === 0 && sheetRows.every((row) => row.problems.length === 0);
	return { externalId, rows: sheetRows, input: clean ? parsed.data : null, problems };
}

/** The API's message on an item's field, said of the row's column (`items[2].frame: …` is the row's `frame: …`). */
export function itemWords(message: string, index: number): string {
	return message.replace(`items[${index}].`, "").replace(`items[${index}]`, "The row");
}

/** The API's message on an order's field, said of the sheet's column (`ship_to.zip` is `ship_to_zip`). */
function sheetWords(message: string, path: readonly PropertyKey[]): string {
	const field = fieldPath(path);
	if (field.startsWith("ship_to.")) return message.replace(field, field.replace("ship_to.", "ship_to_"));
	return message;
}
