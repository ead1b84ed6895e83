/**
 * What a local D1 database weighs on disk: its SQLite file under a wrangler state folder, and the bytes
 * of a VACUUMed copy of it (by table, indexes included), so deleted rows' free pages do not count.
 */
import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

/** The local D1 database's SQLite file (miniflare keeps one per database under the state folder). */
export async function databaseFile(persistTo: string): Promise<string> {
	const folder = path.join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
	const files = (await readdir(folder)).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
	if (files.length !== 1 || files[0] === undefined) throw new Error(`expected one D1 database in ${folder}: ${files}`);
	return path.join(folder, files[0]);
}

/** Bytes by table, its indexes included (SQLite's dbstat), largest first. */
export type TableBytes = { table: string; bytes: number }[];

/**
 * The bytes of a VACUUMed copy of `source` after `change` (SQL run on the copy first), with its
 * bytes by table, and the copy removed. VACUUM INTO writes the compacted copy without touching the source.
 */
export async function vacuumed(
	source: string,
	folder: string,
	change = "",
): Promise<{ bytes: number; tables: TableBytes }> {
	const copy = path.join(folder, `copy-${Date.now()}.sqlite`);
	const from = new DatabaseSync(source, { readOnly: true });
	from.exec(`VACUUM INTO '${copy.replaceAll("'", "''")}'`);
	from.close();
	const database = new DatabaseSync(copy);
	if (change !== "") {
		database.exec(change);
		database.exec("VACUUM");
	}
	const rows = database
		.prepare(
			`SELECT s.tbl_name AS table_name, SUM(d.pgsize) AS bytes FROM dbstat d JOIN sqlite_schema s ON s.name = d.name
			  GROUP BY s.tbl_name ORDER BY bytes DESC`,
		)
		.all();
	database.close();
	const tables = rows.map((row) => ({ table: String(row.table_name), bytes: Number(row.bytes) }));
	const { size } = await stat(copy);
	await rm(copy, { force: true });
	return { bytes: size, tables };
}
