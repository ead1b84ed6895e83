/**
 * `npm run db:migrate` for real, in Node: a throwaway wrangler configuration naming two databases (and an
 * environment whose first database's migrations fail) over a throwaway `--persist-to` folder. A small
 * migrations folder keeps it to a few wrangler runs; the project's own migrations are compared database
 * to database in the Workers runtime (test/schema-parity.isolated.test.ts).
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { d1BindingsOf, PROJECT_ROOT, queryRows } from "../../scripts/lib/wrangler.ts";

const run = promisify(execFile);

let folder = "";
let config = "";

const GOOD = [
	"CREATE TABLE parcels (id TEXT PRIMARY KEY, weight_grams INTEGER NOT NULL);",
	"CREATE INDEX parcels_by_weight ON parcels (weight_grams);",
].join("\n");
const SECOND = [
	"CREATE TABLE parcel_counts (total INTEGER NOT NULL);",
	"INSERT INTO parcel_counts (total) VALUES (0);",
	"CREATE TRIGGER parcels_counted AFTER INSERT ON parcels BEGIN UPDATE parcel_counts SET total = total + 1; END;",
].join("\n");

function database(binding: string, id: string, migrations: string, section = "d1_databases"): string {
	return [
		`[[${section}]]`,
		`binding = "${binding}"`,
		`database_name = "migrate-test-${binding.toLowerCase()}"`,
		`database_id = "00000000-0000-0000-0000-${id.padStart(12, "0")}"`,
		`migrations_dir = "${migrations}"`,
	].join("\n");
}

async function migrate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	try {
		const { stdout, stderr } = await run(
			process.execPath,
			[
				path.join(PROJECT_ROOT, "scripts", "migrate.ts"),
				"--config",
				config,
				"--persist-to",
				path.join(folder, "state"),
				...args,
			],
			{ cwd: PROJECT_ROOT, timeout: 150_000 },
		);
		return { code: 0, stdout, stderr };
	} catch (error) {
		const failed = error as { code?: number; stdout?: string; stderr?: string };
		return { code: failed.code ?? 1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
	}
}

type SchemaRow = { type: string; name: string; sql: string | null };

function schemaOf(binding: string): Promise<SchemaRow[]> {
	return queryRows<SchemaRow>(
		"SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY type, name",
		{ remote: false, persistTo: path.join(folder, "state") },
		{ binding, config },
	);
}

beforeAll(async () => {
	folder = await mkdtemp(path.join(tmpdir(), "fps-migrate-"));
	await mkdir(path.join(folder, "good"));
	await mkdir(path.join(folder, "broken"));
	await writeFile(path.join(folder, "good", "0001_parcels.sql"), GOOD);
	await writeFile(path.join(folder, "good", "0002_parcel_counts.sql"), SECOND);
	await writeFile(path.join(folder, "broken", "0001_broken.sql"), "CREATE TABLE half (id TEXT PRIMARY KEY;\n");
	config = path.join(folder, "wrangler.toml");
	await writeFile(
		config,
		[
			'name = "migrate-test"',
			'compatibility_date = "2026-11-01"',
			database("DB", "a", "good"),
			database("DB_2", "b", "good"),
			"[env.broken]",
			database("DB_BROKEN", "c", "broken", "env.broken.d1_databases"),
			database("DB_NEVER", "d", "good", "env.broken.d1_databases"),
		].join("\n\n"),
	);
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe("npm run db:migrate", () => {
	it("reads every D1 binding of the chosen environment, in the file's order, none inherited", async () => {
		expect(await d1BindingsOf({ config })).toEqual(["DB", "DB_2"]);
		expect(await d1BindingsOf({ config, env: "broken" })).toEqual(["DB_BROKEN", "DB_NEVER"]);
		await expect(d1BindingsOf({ config, env: "nowhere" })).rejects.toThrow("no environment named nowhere");
	});

	it("migrates every database the configuration names, each to the same tables, indexes and triggers", async () => {
		const result = await migrate();
		expect(result.code, result.stderr).toBe(0);
		expect(result.stdout).toContain("Migrated: DB, DB_2");
		const [first, second] = await Promise.all([schemaOf("DB"), schemaOf("DB_2")]);
		expect(first.map(({ type, name }) => `${type} ${name}`)).toEqual([
			"index parcels_by_weight",
			"table d1_migrations",
			"table parcel_counts",
			"table parcels",
			"trigger parcels_counted",
		]);
		expect(second).toEqual(first);
	});

	it("stops at the first database that fails, naming it and the databases it did not attempt", async () => {
		const result = await migrate("--env", "broken");
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("Migrating DB_BROKEN failed (none migrated before it; DB_NEVER not attempted)");
	});
});
