/**
 * Running the project's own wrangler from Node scripts (start, admin CLI, bench, CLI tests), on the
 * Node that runs the script (the `node` devDependency under `npm run`).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { z } from "zod";

const run = promisify(execFile);

/** The project root (this file is scripts/lib/wrangler.ts). */
export const PROJECT_ROOT = path.resolve(import.meta.dirname, "..", "..");
export const WRANGLER_BIN = path.join(PROJECT_ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

/** Which D1 database a command acts on: the local one (optionally under another persistence folder) or the deployed one. */
export type D1Target =
	| { remote: true }
	| {
			remote: false;
			persistTo?: string;
			/** Another wrangler configuration (a generated one with more D1 bindings), and the binding to act on. */
			config?: string;
			binding?: string;
	  };

/** Environment for wrangler child processes: no telemetry, no colour codes in parsed output. */
export function wranglerEnv(): NodeJS.ProcessEnv {
	return {
		...process.env,
		WRANGLER_SEND_METRICS: "false",
		NO_COLOR: "1",
		FORCE_COLOR: "0",
		// Local runs use miniflare's placeholder Request.cf instead of fetching one from workers.cloudflare.com
		// (which fails offline with a stack trace). The service reads nothing from request.cf.
		CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? "false",
	};
}

/** Runs `wrangler <args>` in the project root and returns its stdout; throws with stderr on failure. */
export async function wrangler(args: readonly string[]): Promise<string> {
	try {
		const { stdout } = await run(process.execPath, [WRANGLER_BIN, ...args], {
			cwd: PROJECT_ROOT,
			env: wranglerEnv(),
			maxBuffer: 64 * 1024 * 1024,
		});
		return stdout;
	} catch (error) {
		const stderr = typeof error === "object" && error !== null && "stderr" in error ? String(error.stderr) : "";
		const stdout = typeof error === "object" && error !== null && "stdout" in error ? String(error.stdout) : "";
		throw new Error(`wrangler ${args.join(" ")} failed:\n${stderr || stdout}`);
	}
}

/** Where the command reads and writes: remote, or local (under another persistence folder if told). */
function targetFlags(target: D1Target): string[] {
	if (target.remote) return ["--remote"];
	return target.persistTo === undefined ? ["--local"] : ["--local", "--persist-to", target.persistTo];
}

/** The other wrangler configuration a local target names, or undefined. */
function configOfTarget(target: D1Target): string | undefined {
	return target.remote ? undefined : target.config;
}

/** The D1 binding a command acts on: DB unless the local target names another. */
function bindingOf(target: D1Target): string {
	return target.remote ? "DB" : (target.binding ?? "DB");
}

/** Which wrangler configuration a command reads (the project's wrangler.toml unless told) and which of its environments (the top level unless told). */
export type WranglerConfig = { config?: string; env?: string };

function configFlags(where: WranglerConfig): string[] {
	return [...(where.config === undefined ? [] : ["--config", where.config]), `--env=${where.env ?? ""}`];
}

const D1Databases = z.array(z.object({ binding: z.string().min(1) })).optional();
const RawConfig = z.object({
	d1_databases: D1Databases,
	env: z.record(z.string(), z.object({ d1_databases: D1Databases })).optional(),
});

/**
 * The D1 bindings the configuration's `[[d1_databases]]` names for the environment, in the file's order.
 * An environment inherits no bindings from the top level, so `--env staging` reads only its own.
 */
export async function d1BindingsOf(where: WranglerConfig = {}): Promise<string[]> {
	// Loaded only here: wrangler's module takes a second or two to load, and most scripts never ask.
	const { experimental_readRawConfig } = await import("wrangler");
	const { rawConfig } = experimental_readRawConfig({
		config: where.config ?? path.join(PROJECT_ROOT, "wrangler.toml"),
	});
	const parsed = RawConfig.parse(rawConfig);
	if (where.env === undefined || where.env === "") return (parsed.d1_databases ?? []).map(({ binding }) => binding);
	const environment = parsed.env?.[where.env];
	if (environment === undefined) throw new Error(`the wrangler configuration has no environment named ${where.env}`);
	return (environment.d1_databases ?? []).map(({ binding }) => binding);
}

/**
 * Applies pending D1 migrations to every database the configuration names for the environment, one after
 * another, and stops at the first that fails (naming it, and what was migrated before it). Returns the bindings migrated.
 */
export async function applyMigrations(target: D1Target, where: WranglerConfig = {}): Promise<string[]> {
	const read = { config: where.config ?? configOfTarget(target), env: where.env };
	const bindings = await d1BindingsOf(read);
	if (bindings.length === 0) throw new Error("the wrangler configuration names no D1 database for this environment");
	const migrated: string[] = [];
	for (const binding of bindings) {
		try {
			await wrangler(["d1", "migrations", "apply", binding, ...targetFlags(target), ...configFlags(read)]);
		} catch (error) {
			const before = migrated.length === 0 ? "none migrated before it" : `${migrated.join(", ")} migrated before it`;
			const after = bindings.slice(migrated.length + 1);
			const untouched = after.length === 0 ? "" : `; ${after.join(", ")} not attempted`;
			throw new Error(
				`Migrating ${binding} failed (${before}${untouched}).\n${String(error instanceof Error ? error.message : error)}`,
			);
		}
		migrated.push(binding);
	}
	return migrated;
}

/** Executes SQL text (several statements allowed) against the target. */
export async function executeSql(sql: string, target: D1Target): Promise<void> {
	const folder = await mkdtemp(path.join(tmpdir(), "fps-sql-"));
	try {
		const file = path.join(folder, "statements.sql");
		await writeFile(file, sql);
		const config = configOfTarget(target);
		await wrangler([
			"d1",
			"execute",
			bindingOf(target),
			...targetFlags(target),
			...(config === undefined ? [] : ["--config", config]),
			"--file",
			file,
		]);
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
}

/** Runs one query against the target (the database bound as DB unless `database` names another binding) and returns its rows. */
export async function queryRows<Row>(
	sql: string,
	target: D1Target,
	database: WranglerConfig & { binding?: string } = {},
): Promise<Row[]> {
	const binding = database.binding ?? bindingOf(target);
	const config = database.config ?? configOfTarget(target);
	const where = config === undefined && database.env === undefined ? [] : configFlags({ ...database, config });
	const stdout = await wrangler([
		"d1",
		"execute",
		binding,
		...targetFlags(target),
		...where,
		"--json",
		"--command",
		sql,
	]);
	const parsed = JSON.parse(stdout.slice(stdout.indexOf("["))) as Array<{ results?: Row[] }>;
	return parsed.flatMap((result) => result.results ?? []);
}
