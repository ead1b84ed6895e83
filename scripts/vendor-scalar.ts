/**
 * `postinstall`: copies the API reference's browser bundle from the installed
 * `@scalar/api-reference` (pinned by the lockfile) to `src/openapi/vendor/scalar-standalone.txt`, a
 * text module that the worker serves itself, so `/v1/docs` needs nothing from another origin, and
 * writes the package's version beside it (`scalar-version.txt`, the bundle's URL). The copies are
 * not committed: every install makes them from the package it installed.
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(path.join(root, "package.json"));
const source = require.resolve("@scalar/api-reference/browser/standalone.js");
const target = path.join(root, "src", "openapi", "vendor", "scalar-standalone.txt");
await mkdir(path.dirname(target), { recursive: true });
await copyFile(source, target);
const manifest = JSON.parse(await readFile(path.join(path.dirname(source), "..", "..", "package.json"), "utf8")) as {
	version: string;
};
await writeFile(path.join(path.dirname(target), "scalar-version.txt"), manifest.version);
console.log(`vendored ${path.relative(root, source)} → ${path.relative(root, target)}`);
