/**
 * Building and packing the SDK (clients/typescript, `@framed-print/client`): its TypeScript compiled
 * by `tsc -p clients/typescript/tsconfig.json` to ESM JavaScript with declarations in
 * clients/typescript/dist, the generated `schema.d.ts` copied beside them (tsc does not copy
 * declaration files it reads), then `npm pack` into a folder of the caller's.
 */
import { execFile } from "node:child_process";
import { chmod, copyFile, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { PROJECT_ROOT } from "./wrangler.ts";

const run = promisify(execFile);

/** The package's folder. */
export const SDK_FOLDER = path.join(PROJECT_ROOT, "clients", "typescript");
/** Where the build goes (gitignored). */
export const SDK_DIST = path.join(SDK_FOLDER, "dist");

/**
 * Relative imports in the emitted declarations still name `.ts` files (tsc rewrites them in the
 * JavaScript only): they are pointed at the `.js` beside each declaration, as a consumer's
 * `moduleResolution: nodenext` expects. `./schema.d.ts` is a declaration file and stays.
 */
async function pointDeclarationsAtJavaScript(): Promise<void> {
	for (const name of await readdir(SDK_DIST)) {
		if (!name.endsWith(".d.ts") || name === "schema.d.ts") continue;
		const file = path.join(SDK_DIST, name);
		const text = await readFile(file, "utf8");
		await writeFile(file, text.replace(/(from\s+"\.\/[\w-]+)(?<!\.d)\.ts"/g, '$1.js"'));
	}
}

/** Builds clients/typescript/dist from nothing; how long it took, in milliseconds. */
export async function buildSdk(): Promise<number> {
	const started = performance.now();
	await rm(SDK_DIST, { recursive: true, force: true });
	const tsc = path.join(PROJECT_ROOT, "node_modules", ".bin", "tsc");
	await run(tsc, ["-p", path.join(SDK_FOLDER, "tsconfig.json")], { cwd: PROJECT_ROOT, timeout: 120_000 }).catch(
		(error: { stdout?: string; stderr?: string }) => {
			throw new Error(`tsc could not build the SDK:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
		},
	);
	await copyFile(path.join(SDK_FOLDER, "schema.d.ts"), path.join(SDK_DIST, "schema.d.ts"));
	await pointDeclarationsAtJavaScript();
	await chmod(path.join(SDK_DIST, "cli.js"), 0o755);
	return Math.round(performance.now() - started);
}

/** `npm pack` of the built package into `destination`: the tarball's path and size in bytes. */
export async function packSdk(destination: string): Promise<{ tarball: string; bytes: number }> {
	const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", destination], {
		cwd: SDK_FOLDER,
		timeout: 120_000,
		env: { ...process.env, npm_config_update_notifier: "false" },
	});
	const packed: unknown = JSON.parse(stdout);
	const filename = Array.isArray(packed) ? (packed[0] as { filename?: unknown } | undefined)?.filename : undefined;
	if (typeof filename !== "string") throw new Error(`npm pack did not say what it wrote: ${stdout}`);
	const tarball = path.join(destination, filename);
	return { tarball, bytes: (await stat(tarball)).size };
}
