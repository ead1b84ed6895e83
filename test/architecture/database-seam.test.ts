/**
 * Every store gets its D1 database from src/databases.ts, by the owner of the rows: nothing else reads
 * the DB binding, so that spreading accounts over several databases stays a change of configuration.
 * Reads the source, so it runs in Node.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./source-files.ts";

const SRC = path.join(import.meta.dirname, "..", "..", "src");
const SEAM = path.join(SRC, "databases.ts");

/** The ways code reaches the binding: `env.DB`, `env["DB"]`, and `const { DB } = env`. */
const READS_OF_DB = [/\.DB\b/, /\[\s*["'`]DB["'`]\s*\]/, /\{[^}]*\bDB\b[^}]*\}\s*=/];

/** Each line of `text` that reads the DB binding, with its number. */
function readsOfDb(text: string): string[] {
	return text.split("\n").flatMap((line, index) => {
		const code = line.replace(/\/\/.*$/, "");
		return READS_OF_DB.some((pattern) => pattern.test(code)) ? [`${index + 1}: ${line.trim()}`] : [];
	});
}

describe("the database seam", () => {
	it("no file under src/ but databases.ts reads the DB binding", async () => {
		const offenders: string[] = [];
		for (const file of await sourceFiles(SRC)) {
			if (file === SEAM) continue;
			for (const read of readsOfDb(await readFile(file, "utf8"))) offenders.push(`${path.relative(SRC, file)}:${read}`);
		}
		expect(offenders).toEqual([]);
	});

	it("the check catches each way of reading the binding", () => {
		expect(readsOfDb("await findOrder(env.DB, id);")).toHaveLength(1);
		expect(readsOfDb("const db = c.env.DB;")).toHaveLength(1);
		expect(readsOfDb('const db = env["DB"];')).toHaveLength(1);
		expect(readsOfDb("const { DB } = c.env;")).toHaveLength(1);
		expect(readsOfDb("const { PRINT_FILES, DB, ORDER_MACHINE } = env;")).toHaveLength(1);
		expect(readsOfDb("const database = databaseOf(env, owner.accountId); // not env.DB")).toEqual([]);
		expect(readsOfDb("env.DB_2; env.DBX")).toEqual([]);
	});

	it("the seam itself is where the binding is read", async () => {
		expect(readsOfDb(await readFile(SEAM, "utf8")).length).toBeGreaterThan(0);
	});
});
