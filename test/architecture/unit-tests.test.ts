/**
 * Where a test file runs is decided by its name: `*.unit.test.ts` in plain Node (the `unit` project),
 * every other file under test/ (but cli, browser, architecture and cost) in the Workers runtime. This
 * check keeps the names true: a unit file must not reach `cloudflare:*` (Node has no such module),
 * and a Workers file must (else it is pure logic paying for a workerd start of its own: rename it).
 * The import graph is esbuild's, one bundle per test file, as vitest would load it.
 */
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./source-files.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const OUTSIDE_BOTH = /^test\/(cli|browser|architecture|cost)\//;

/** Test file (relative) → whether its imports, followed through the sources, reach a `cloudflare:*` module. */
async function reachesWorkersRuntime(files: string[]): Promise<Map<string, boolean>> {
	const result = await build({
		entryPoints: files.map((file) => path.join(ROOT, file)),
		absWorkingDir: ROOT,
		bundle: true,
		write: false,
		metafile: true,
		outdir: path.join(ROOT, ".unit-check"),
		outbase: ROOT,
		format: "esm",
		platform: "neutral",
		conditions: ["workerd", "worker", "browser"],
		mainFields: ["browser", "module", "main"],
		loader: { ".txt": "text", ".sql": "text" },
		// Only the edges matter: packages and Node's modules are not followed.
		packages: "external",
		external: ["node:*", "cloudflare:*"],
		// Vite's `?raw` imports (a docs page as text) are data, not code.
		plugins: [
			{
				name: "vite-queries",
				setup: (bundler) => bundler.onResolve({ filter: /\?/ }, (args) => ({ path: args.path, external: true })),
			},
		],
		logLevel: "silent",
	});
	const reaches = new Map<string, boolean>();
	for (const output of Object.values(result.metafile.outputs)) {
		if (output.entryPoint === undefined) continue;
		reaches.set(
			output.entryPoint,
			output.imports.some((imported) => imported.path.startsWith("cloudflare:")),
		);
	}
	return reaches;
}

describe("which runtime each test file runs in", () => {
	it("runs pure-logic files in Node as *.unit.test.ts and only files that need workerd in the Workers pool", async () => {
		const files = (await sourceFiles(path.join(ROOT, "test")))
			.map((file) => path.relative(ROOT, file))
			.filter((file) => file.endsWith(".test.ts") && !OUTSIDE_BOTH.test(file));
		const reaches = await reachesWorkersRuntime(files);
		expect(reaches.size).toBe(files.length);
		const unitReachingWorkerd = files.filter((file) => file.endsWith(".unit.test.ts") && reaches.get(file) === true);
		const workersNeedingNone = files.filter((file) => !file.endsWith(".unit.test.ts") && reaches.get(file) === false);
		expect(unitReachingWorkerd, "these unit files import the Workers runtime: they cannot run in Node").toEqual([]);
		expect(workersNeedingNone, "these files are pure logic: name them *.unit.test.ts so Node runs them").toEqual([]);
	});
});
