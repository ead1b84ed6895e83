/**
 * docs/errors.md lists exactly what the service can send: every error type and code, hold reason,
 * print file invalid reason, item warning and address warning, taken from the modules that declare them (the same
 * lists the OpenAPI document's enums are built from), never re-listed here. Each declared error code
 * must also be named somewhere in src/ besides its catalog, so a code nothing throws cannot linger.
 * Reads files and pure modules only, so it runs in Node.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SHIP_TO_WARNINGS } from "../../src/addresses/ship-to-warnings.ts";
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from "../../src/error-catalog.ts";
import { ITEM_WARNINGS } from "../../src/orders/item-checks.ts";
import { HOLD_REASONS } from "../../src/orders/state-machine.ts";
import { INVALID_REASONS } from "../../src/print-files/invalid-reasons.ts";
import { WARNING_CODES } from "../../src/warning-catalog.ts";

const ROOT = path.join(import.meta.dirname, "..", "..");
const CATALOG_PAGE = readFileSync(path.join(ROOT, "docs", "errors.md"), "utf8");

/** The rows of the first table under the `## heading` of `page`, as their cells (header and rule left out). */
function tableRows(page: string, heading: string): string[][] {
	const start = page.indexOf(`\n## ${heading}\n`);
	if (start === -1) throw new Error(`docs/errors.md has no "## ${heading}" section`);
	const next = page.indexOf("\n## ", start + 1);
	const section = page.slice(start, next === -1 ? undefined : next);
	const lines = section.split("\n").filter((line) => line.startsWith("|"));
	return lines.slice(2).map((line) =>
		line
			.slice(1, -1)
			.split("|")
			.map((cell) => cell.trim()),
	);
}

/** The names a section's table lists in its first column, each written as `code`. */
function listedNames(heading: string): string[] {
	return tableRows(CATALOG_PAGE, heading).map(([first]) => /^`([a-z_]+)`$/.exec(first ?? "")?.[1] ?? `?${first}`);
}

/** Every TypeScript source file under src/, with its text. */
function sourceFiles(): Array<{ file: string; text: string }> {
	return readdirSync(path.join(ROOT, "src"), { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
		.map((entry) => {
			const file = path.join(entry.parentPath, entry.name);
			return { file: path.relative(ROOT, file), text: readFileSync(file, "utf8") };
		});
}

describe("docs/errors.md, the error catalog", () => {
	it("lists every error type with its status, and no other", () => {
		const rows = tableRows(CATALOG_PAGE, "Error types");
		const listed = Object.fromEntries(rows.map(([type, status]) => [type?.replaceAll("`", ""), Number(status)]));
		expect(listed).toEqual(ERROR_STATUS);
	});

	it("lists every error code with its status, type and what to do, as the catalog module says, and no other", () => {
		const declared = Object.entries(ERROR_CODES).map(([code, entry]) => [
			`\`${code}\``,
			`${ERROR_STATUS[entry.type]} \`${entry.type}\``,
			entry.action,
		]);
		expect(tableRows(CATALOG_PAGE, "Error codes")).toEqual(declared);
	});

	it("lists every hold reason, and no other", () => {
		expect(listedNames("Hold reasons").sort()).toEqual([...HOLD_REASONS].sort());
	});

	it("lists every invalid reason of a print file, and no other", () => {
		expect(listedNames("Invalid reasons").sort()).toEqual([...INVALID_REASONS].sort());
	});

	it("lists every item warning, and no other", () => {
		expect(listedNames("Warnings").sort()).toEqual([...ITEM_WARNINGS].sort());
	});

	it("lists every warning with what it means and what to do, as the catalog module says, in its order", () => {
		const declared = Object.entries(WARNING_CODES).map(([code, entry]) => [`\`${code}\``, entry.meaning, entry.action]);
		expect(tableRows(CATALOG_PAGE, "Warnings")).toEqual(declared);
		expect(Object.keys(WARNING_CODES)).toEqual([...ITEM_WARNINGS]);
	});

	it("lists every address warning, and no other", () => {
		expect(listedNames("Address warnings").sort()).toEqual([...SHIP_TO_WARNINGS].sort());
	});

	it("every section's rows say what the partner does", () => {
		const headings = ["Error types", "Error codes", "Hold reasons", "Invalid reasons", "Warnings", "Address warnings"];
		for (const heading of headings) {
			for (const row of tableRows(CATALOG_PAGE, heading)) expect(row.at(-1)?.length ?? 0).toBeGreaterThan(10);
		}
	});
});

describe("the error codes the source can produce", () => {
	it("every declared code is used by the source outside the catalog module, so none is documented in vain", () => {
		const users = sourceFiles().filter(({ file }) => file !== path.join("src", "error-catalog.ts"));
		const unused = (Object.keys(ERROR_CODES) as ErrorCode[]).filter(
			(code) => !users.some(({ text }) => text.includes(`"${code}"`)),
		);
		expect(unused).toEqual([]);
	});

	it("no code is also the name of an error type, so a code and a type are never mistaken for each other", () => {
		const types = new Set(Object.keys(ERROR_STATUS));
		expect(Object.keys(ERROR_CODES).filter((code) => types.has(code))).toEqual([]);
	});
});
