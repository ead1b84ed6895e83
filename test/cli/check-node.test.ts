/**
 * `npm install`'s Node check (scripts/check-node.cjs): on a Node too old to install, a message that
 * says what to do and a failed install; on Node 20 or 21, a note that the EBADENGINE warnings are
 * harmless; on 22.12 and newer, silence.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = path.join(import.meta.dirname, "../../scripts/check-node.cjs");
const folder = mkdtempSync(path.join(tmpdir(), "check-node-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs the check as if Node `version` had started npm (the preload rewrites process.versions.node). */
function check(version: string, args: string[] = []) {
	const preload = path.join(folder, `node-${version}.cjs`);
	writeFileSync(preload, `Object.defineProperty(process.versions, "node", { value: ${JSON.stringify(version)} });`);
	return spawnSync(process.execPath, ["--require", preload, SCRIPT, ...args], {
		encoding: "utf8",
		env: { ...process.env, npm_config_user_agent: `npm/11.0.0 node/v${version} linux x64` },
	});
}

describe("npm install's Node check", () => {
	it("before install, Node 18 fails with what to install and why", () => {
		const result = check("18.19.0");
		expect(result.status).toBe(1);
		expect(result.stderr).toContain("needs Node.js 20 or newer to install; this is Node 18.19.0");
		expect(result.stderr).toContain("Install Node 22.12 or newer");
	});

	it("before install, Node 20 passes", () => {
		expect(check("20.20.2").status).toBe(0);
	});

	it("after an install on Node 20, says the EBADENGINE warnings are harmless; after one on 22.12, says nothing", () => {
		const older = check("20.20.2", ["--after"]);
		expect(older.status).toBe(0);
		expect(older.stdout).toContain("the EBADENGINE warnings above");
		const current = check("22.12.0", ["--after"]);
		expect(current.status).toBe(0);
		expect(current.stdout).toBe("");
	});
});
