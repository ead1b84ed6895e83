/**
 * Running the project's own wrangler from Node scripts (start, admin CLI, bench, CLI tests), on the
 * Node that runs the script (the `node` devDependency under `npm run`).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

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

function targetFlags(target: D1Target): string[] {
	if (target.remote) return ["--remote"];
	const config = target.config === undefined ? [] : ["--config", target.config];
	return target.persistTo === undefined
		? ["--local", ...config]
		: ["--local", "--persist-to", target.persistTo, ...config];
}

/** The D1 binding a command acts on: DB unless the local target names another. */
function bindingOf(target: D1Target): string {
	return target.remote ? "DB" : (target.binding ?? "DB");
}

/** Applies pending D1 migrations to the target. */
export async function applyMigrations(target: D1Target): Promise<void> {
	await wrangler(["d1", "migrations", "apply", bindingOf(target), ...targetFlags(target)]);
}

/** Executes SQL text (several statements allowed) against the target. */
export async function executeSql(sql: string, target: D1Target): Promise<void> {
	const folder = await mkdtemp(path.join(tmpdir(), "fps-sql-"));
	try {
		const file = path.join(folder, "statements.sql");
		await writeFile(file, sql);
		await wrangler(["d1", "execute", bindingOf(target), ...targetFlags(target), "--file", file]);
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
}

/** Runs one query against the target and returns its rows. */
export async function queryRows<Row>(sql: string, target: D1Target): Promise<Row[]> {
	const stdout = await wrangler([
		"d1",
		"execute",
		bindingOf(target),
		...targetFlags(target),
		"--json",
		"--command",
		sql,
	]);
	const parsed = JSON.parse(stdout.slice(stdout.indexOf("["))) as Array<{ results?: Row[] }>;
	return parsed.flatMap((result) => result.results ?? []);
}
