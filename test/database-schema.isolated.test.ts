/**
 * A database added to the Worker gets the schema the first one has: DB_2 (bound only in vitest.config.ts)
 * starts empty in this file's own storage, is given the project's migrations as `npm run db:migrate`
 * gives them to every binding, and then matches DB table by table, column by column, index by index and
 * trigger by trigger.
 */
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

/** The second database the workers project binds. */
function secondDatabase(): D1Database {
	const second = env.DB_2;
	if (second === undefined) throw new Error("the workers project binds DB_2 (vitest.config.ts)");
	return second;
}

type MasterRow = { type: string; name: string; tbl_name: string; sql: string | null };

/** SQL text as written, its spacing and letter case aside (ALTER TABLE rewrites spacing in stored CREATE text). */
function normalizedSql(sql: string | null): string | null {
	return sql === null
		? null
		: sql
				.replace(/\s+/g, " ")
				.replace(/\s*([(),])\s*/g, "$1")
				.trim()
				.toLowerCase();
}

/** Every object of the schema with what defines it: tables with their columns and foreign keys, indexes with their columns, triggers and views with their text. */
async function schemaOf(database: D1Database): Promise<unknown[]> {
	const { results: objects } = await database
		.prepare(
			"SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY type, name",
		)
		.all<MasterRow>();
	return Promise.all(
		objects.map(async (object) => {
			const described = {
				type: object.type,
				name: object.name,
				table: object.tbl_name,
				sql: normalizedSql(object.sql),
			};
			if (object.type === "table") {
				const [columns, foreignKeys] = await Promise.all([
					database
						.prepare('SELECT name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?1) ORDER BY cid')
						.bind(object.name)
						.all(),
					database
						.prepare(
							'SELECT "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?1) ORDER BY id, seq',
						)
						.bind(object.name)
						.all(),
				]);
				return { ...described, columns: columns.results, foreignKeys: foreignKeys.results };
			}
			if (object.type === "index") {
				const columns = await database
					.prepare('SELECT seqno, name, "desc", coll, key FROM pragma_index_xinfo(?1) ORDER BY seqno')
					.bind(object.name)
					.all();
				return { ...described, columns: columns.results };
			}
			return described;
		}),
	);
}

describe("a newly added database", () => {
	it("starts empty and, once migrated, has the same tables, columns, indexes and triggers as DB", async () => {
		const second = secondDatabase();
		expect(await schemaOf(second)).toEqual([]);

		await applyD1Migrations(second, env.TEST_MIGRATIONS);

		const [first, added] = await Promise.all([schemaOf(env.DB), schemaOf(second)]);
		const kinds = new Set(first.map((object) => (object as { type: string }).type));
		expect([...kinds].sort()).toEqual(expect.arrayContaining(["index", "table", "trigger"]));
		expect(first.length).toBeGreaterThan(20);
		expect(added).toEqual(first);
	});

	it("records the same applied migrations, so the next migration applies to both alike", async () => {
		const names = (database: D1Database) =>
			database
				.prepare("SELECT name FROM d1_migrations ORDER BY id")
				.all<{ name: string }>()
				.then(({ results }) => results.map(({ name }) => name));
		const [first, added] = await Promise.all([names(env.DB), names(secondDatabase())]);
		expect(added).toEqual(first);
		expect(added).toEqual(env.TEST_MIGRATIONS.map(({ name }) => name));
	});
});
