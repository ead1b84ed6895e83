/**
 * A CSV of tracking numbers as label tools and spreadsheets export it (RFC 4180: quoted fields,
 * doubled quotes, CRLF or LF, a UTF-8 byte order mark), separated by commas, semicolons (what
 * spreadsheets save in much of Europe) or tabs: the header row decides which, and names the
 * columns, in any order and case, by the names the common tools use. The fields are read by
 * csv-parse. Pure; the import decides what each row does.
 */
import { CsvError, parse } from "csv-parse/sync";

/** Most data rows a file may have. */
export const MAX_IMPORT_ROWS = 5_000;
/** Most bytes a file may have (a label tool's export with 40 columns of 5,000 rows fits). */
export const MAX_IMPORT_BYTES = 4 * 1024 * 1024;

/** The columns the import reads, and the header names each is known by (compared lowercased, spaces and _ alike). */
const COLUMN_NAMES = {
	order_id: ["order_id", "order id", "orderid"],
	external_id: ["external_id", "external id", "order number", "order_number", "order #", "order no", "reference"],
	carrier: ["carrier", "carrier name", "shipping carrier", "provider"],
	number: ["tracking_number", "tracking number", "tracking", "tracking #", "tracking no", "tracking code"],
	url: ["tracking_url", "tracking url", "tracking link", "tracking page", "url"],
	item_ids: ["item_ids", "item ids", "item_id", "item id"],
} as const;

/** A column the import reads. */
export type ImportColumn = keyof typeof COLUMN_NAMES;

/** One data row: its line in the file (the header is line 1) and the values of the columns found. */
export type ImportRow = { line: number; values: Partial<Record<ImportColumn, string>>; problem: string | null };

/** The file as read: its rows, or why none can be used. */
export type ParsedImport = { ok: true; rows: ImportRow[] } | { ok: false; message: string };

/** The columns a file needs, as the refusal of a header that lacks one says. */
const EXPECTED_COLUMNS =
	"order_id or external_id, carrier and tracking_number, and tracking_url unless the carrier's page follows from the number";

function normalise(name: string): string {
	return name.trim().toLowerCase().replaceAll("_", " ").replace(/\s+/g, " ");
}

/** The separators a file may use, by what the operator calls them. */
const SEPARATORS = { ",": "comma", ";": "semicolon", "\t": "tab" } as const;

/** A field separator the import reads. */
export type Separator = keyof typeof SEPARATORS;

/**
 * The separator of a file: the one of comma, semicolon and tab found most often in its header row,
 * outside quotes (a quoted "Order; number" says nothing). A header with none of them is one column,
 * read as comma-separated. Not csv-parse's own guess (`delimiter_auto`): that one scores every
 * character of the first 2 KiB, letters too, and trips on a quoted header read with the wrong separator.
 */
export function detectSeparator(text: string): Separator {
	const counts: Record<Separator, number> = { ",": 0, ";": 0, "\t": 0 };
	let quoted = false;
	for (const character of text) {
		if (character === '"') quoted = !quoted;
		else if (!quoted && (character === "\n" || character === "\r")) break;
		else if (!quoted && (character === "," || character === ";" || character === "\t")) counts[character] += 1;
	}
	const [best] = (Object.keys(counts) as Separator[]).sort((a, b) => counts[b] - counts[a]);
	return best !== undefined && counts[best] > 0 ? best : ",";
}

/** One record of the file: its fields, and the line it starts on (the header is line 1). */
type CsvRecord = { fields: string[]; line: number };

/** Line breaks inside a record's fields: a quoted field may hold some, and the record starts that many lines earlier. */
function breaksIn(fields: readonly string[]): number {
	return fields.reduce((sum, field) => sum + (field.match(/[\r\n]/g)?.length ?? 0), 0);
}

/**
 * The file's records, read by csv-parse with `separator`: RFC 4180 quoting (a quote inside an unquoted
 * field, or text after a closing quote, is an error, never a guess), LF, CRLF or CR line ends, blank
 * lines skipped, rows of any field count kept. Or why the file cannot be read, naming the line.
 */
function records(
	text: string,
	separator: Separator,
): { ok: true; records: CsvRecord[] } | { ok: false; message: string } {
	const read: CsvRecord[] = [];
	// Where the record after the last one read starts, but for blank lines: a quote never closed is
	// only noticed at the end of the file, so its row is placed from here.
	let lastEnd = 0;
	let blankLinesBefore = 0;
	try {
		// CRLF becomes LF first, so that a quoted field's CRLF counts as the one line break it is.
		parse(text.replaceAll("\r\n", "\n"), {
			delimiter: separator,
			record_delimiter: ["\n", "\r"],
			bom: true,
			relax_column_count: true,
			skip_empty_lines: true,
			on_record: (fields: string[], context) => {
				// The context's line is the record's last; its fields' line breaks say where it began.
				read.push({ fields, line: context.lines - breaksIn(fields) });
				lastEnd = context.lines;
				blankLinesBefore = context.empty_lines;
				// Kept here, with its line: nothing for csv-parse to collect.
				return null;
			},
		});
	} catch (error) {
		if (!(error instanceof CsvError)) throw error;
		const line = typeof error.lines === "number" ? error.lines : 0;
		switch (error.code) {
			case "CSV_QUOTE_NOT_CLOSED": {
				const blank = typeof error.empty_lines === "number" ? error.empty_lines - blankLinesBefore : 0;
				return {
					ok: false,
					message: `The row that starts on line ${lastEnd + 1 + blank} opens a quoted field that is never closed.`,
				};
			}
			case "INVALID_OPENING_QUOTE":
				return {
					ok: false,
					message: `Line ${line}: a field holds a quote but does not start with one. Quote the whole field and double each quote inside it ("").`,
				};
			case "CSV_INVALID_CLOSING_QUOTE":
				return {
					ok: false,
					message: `Line ${line}: a quoted field goes on after its closing quote. Quote the whole field and double each quote inside it ("").`,
				};
			default:
				return { ok: false, message: `Line ${line}: ${error.message}` };
		}
	}
	return { ok: true, records: read };
}

/** Why a file's bytes are refused before any row is read. */
export const NOT_UTF8 = "The file is not UTF-8 text: export it as CSV UTF-8.";

/** Reads an import file: the header's columns, then each row's values (a row with another field count is kept, with its problem). */
export function parseImport(text: string): ParsedImport {
	const separator = detectSeparator(text);
	const split = records(text, separator);
	if (!split.ok) return split;
	const [header, ...data] = split.records;
	if (header === undefined)
		return { ok: false, message: "The file is empty: it needs a header row and a row per shipment." };
	const positions: Partial<Record<ImportColumn, number>> = {};
	for (const [column, names] of Object.entries(COLUMN_NAMES) as [ImportColumn, readonly string[]][]) {
		const found = header.fields.findIndex((name) => names.includes(normalise(name)));
		if (found >= 0) positions[column] = found;
	}
	const missing: string[] = [];
	if (positions.order_id === undefined && positions.external_id === undefined) missing.push("order_id or external_id");
	if (positions.carrier === undefined) missing.push("carrier");
	if (positions.number === undefined) missing.push("tracking_number");
	if (missing.length > 0) {
		const found = header.fields.map((name) => `"${name.trim()}"`).join(", ");
		return {
			ok: false,
			message: `The header row is missing ${missing.join(" and ")}. Read as ${SEPARATORS[separator]}-separated, it has the columns ${found}; the import needs ${EXPECTED_COLUMNS}.`,
		};
	}
	if (data.length === 0) return { ok: false, message: "The file has a header row but no shipments." };
	if (data.length > MAX_IMPORT_ROWS) {
		return { ok: false, message: `The file has ${data.length} rows; at most ${MAX_IMPORT_ROWS} are taken at once.` };
	}
	return {
		ok: true,
		rows: data.map(({ fields, line }) => {
			const values: Partial<Record<ImportColumn, string>> = {};
			for (const [column, position] of Object.entries(positions) as [ImportColumn, number][]) {
				const value = fields[position]?.trim();
				if (value !== undefined && value !== "") values[column] = value;
			}
			const problem =
				fields.length === header.fields.length
					? null
					: `This row has ${fields.length} fields; the header has ${header.fields.length}.`;
			return { line, values, problem };
		}),
	};
}

/** One entry of a row's `item_ids`: an item, and how many of its units (null: every unit that remains). */
export type ItemEntry = { item_id: string; quantity: number | null };

/** Most entries an `item_ids` cell may name (a shipment's limit in the ops API). */
const MAX_ITEM_ENTRIES = 100;

/**
 * Reads an `item_ids` cell: item ids separated by semicolons, commas, bars or spaces, each alone (every
 * unit of it that remains) or with a count after a colon (`itm_a:2;itm_b`). The same item twice adds up.
 */
export function parseItemIds(cell: string): { ok: true; entries: ItemEntry[] } | { ok: false; message: string } {
	const parts = cell.split(/[;,|\s]+/).filter((part) => part !== "");
	if (parts.length === 0) return { ok: false, message: "item_ids: name at least one item." };
	if (parts.length > MAX_ITEM_ENTRIES) {
		return { ok: false, message: `item_ids: at most ${MAX_ITEM_ENTRIES} items a row; this row names ${parts.length}.` };
	}
	const entries: ItemEntry[] = [];
	for (const part of parts) {
		const match = /^(itm_[A-Za-z0-9]{1,60})(?::(\d{1,4}))?$/.exec(part);
		if (match === null) {
			const shown = part.length > 40 ? `${part.slice(0, 40)}…` : part;
			return {
				ok: false,
				message: `item_ids: "${shown}" is not an item id, or an item id and a count (itm_… or itm_…:2).`,
			};
		}
		const [, itemId = "", count] = match;
		const quantity = count === undefined ? null : Number(count);
		if (quantity === 0) return { ok: false, message: `item_ids: ${itemId}:0 ships nothing; leave the item out.` };
		const earlier = entries.find((entry) => entry.item_id === itemId);
		if (earlier === undefined) entries.push({ item_id: itemId, quantity });
		else if (earlier.quantity === null || quantity === null) {
			return { ok: false, message: `item_ids: ${itemId} is named twice, once without a count.` };
		} else earlier.quantity += quantity;
	}
	return { ok: true, entries };
}
