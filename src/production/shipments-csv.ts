/**
 * A CSV of tracking numbers as label tools and spreadsheets export it (RFC 4180: quoted fields,
 * doubled quotes, CRLF or LF, a UTF-8 byte order mark), separated by commas, semicolons (what
 * spreadsheets save in much of Europe) or tabs: the header row decides which, and names the
 * columns, in any order and case, by the names the common tools use. Pure; the import decides
 * what each row does.
 */

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
 * read as comma-separated.
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

/** Splits CSV text into records of fields, with each record's first line; null with a message for a broken quote. */
function records(text: string, separator: Separator): { fields: string[]; line: number }[] | { error: string } {
	const out: { fields: string[]; line: number }[] = [];
	let fields: string[] = [];
	let field = "";
	let quoted = false;
	let line = 1;
	let recordLine = 1;
	let index = 0;
	const endRecord = () => {
		fields.push(field);
		// A blank line is no record.
		if (!(fields.length === 1 && fields[0] === "")) out.push({ fields, line: recordLine });
		fields = [];
		field = "";
	};
	while (index < text.length) {
		const character = text[index];
		if (quoted) {
			if (character === '"') {
				if (text[index + 1] === '"') {
					field += '"';
					index += 2;
					continue;
				}
				quoted = false;
			} else {
				if (character === "\n") line += 1;
				field += character;
			}
			index += 1;
			continue;
		}
		if (character === '"' && field === "") quoted = true;
		else if (character === separator) {
			fields.push(field);
			field = "";
		} else if (character === "\n" || character === "\r") {
			if (character === "\r" && text[index + 1] === "\n") index += 1;
			endRecord();
			line += 1;
			recordLine = line;
		} else field += character;
		index += 1;
	}
	if (quoted) return { error: `A quoted field that starts on line ${recordLine} is never closed.` };
	if (field !== "" || fields.length > 0) endRecord();
	return out;
}

/** Why a file's bytes are refused before any row is read. */
export const NOT_UTF8 = "The file is not UTF-8 text: export it as CSV UTF-8.";

/** The file's bytes as text, or null when they are not UTF-8 (nothing is guessed or replaced). */
export function decodeImport(bytes: ArrayBuffer | Uint8Array): string | null {
	try {
		return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
	} catch {
		return null;
	}
}

/** Reads an import file: the header's columns, then each row's values (a row with another field count is kept, with its problem). */
export function parseImport(text: string): ParsedImport {
	const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
	const separator = detectSeparator(body);
	const split = records(body, separator);
	if ("error" in split) return { ok: false, message: split.error };
	const [header, ...data] = split;
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
