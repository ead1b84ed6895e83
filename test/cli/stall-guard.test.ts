/**
 * `npm test`'s stall guard (scripts/stall-guard.ts), run for real on small Node commands: a run that
 * ends keeps its exit code and is never run again; a run quiet for longer than the limit is stopped,
 * with the servers it started in groups of their own, and run again up to the tries.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const GUARD = path.join(import.meta.dirname, "../../scripts/stall-guard.ts");
const folder = mkdtempSync(path.join(tmpdir(), "stall-guard-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs the guard (in CI unless told) over `node -e script`, quiet for at most 1.2 s. */
function guard(script: string, options: { ci?: string; tries?: number } = {}) {
	return spawnSync(
		process.execPath,
		[GUARD, "--quiet-minutes", "0.02", "--tries", String(options.tries ?? 2), "--", process.execPath, "-e", script],
		{ encoding: "utf8", env: { ...process.env, CI: options.ci ?? "true" }, timeout: 60_000 },
	);
}

/** Whether a process is still running: a killed one may stay a zombie until its new parent reaps it. */
function running(pid: number): boolean {
	try {
		return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") === false;
	} catch {
		return false;
	}
}

/** Whether the process still runs after up to 2 s (a SIGKILL is delivered, not waited for). */
async function alive(pid: number): Promise<boolean> {
	for (let wait = 0; wait < 20 && running(pid); wait++) await new Promise((resolve) => setTimeout(resolve, 100));
	return running(pid);
}

/** A script that counts its runs in `file`, prints, then does what `then` says on its `run`-th run. */
function counting(file: string, then: string): string {
	return `const fs = require("node:fs");
const run = (fs.existsSync(${JSON.stringify(file)}) ? fs.readFileSync(${JSON.stringify(file)}, "utf8").length : 0) + 1;
fs.appendFileSync(${JSON.stringify(file)}, "x");
console.log("run " + run + " started");
${then}`;
}

const FOREVER = "setInterval(() => {}, 1000);";

describe("npm test's stall guard", () => {
	it("a run that ends passes its output and exit code through, and is run once", () => {
		const runs = path.join(folder, "ends");
		const result = guard(counting(runs, "process.exit(3);"));
		expect(result.status).toBe(3);
		expect(result.stdout).toContain("run 1 started");
		expect(result.stderr).not.toContain("stall-guard");
		expect(readFileSync(runs, "utf8")).toBe("x");
	});

	it("a failing run is never run again, however quick", () => {
		const runs = path.join(folder, "fails");
		expect(guard(counting(runs, "process.exit(1);")).status).toBe(1);
		expect(readFileSync(runs, "utf8")).toBe("x");
	});

	it("a run quiet past the limit is stopped and run again; a second that passes makes the guard pass", () => {
		const runs = path.join(folder, "stalls-once");
		const result = guard(counting(runs, `if (run === 1) { ${FOREVER} } else { console.log("passed"); }`));
		expect(result.status).toBe(0);
		expect(result.stdout).toContain("passed");
		expect(result.stderr).toContain("printed nothing for 0.02 min and was stopped (run 1 of 2); running it again");
		expect(result.stderr).toContain("run 1 started");
		expect(readFileSync(runs, "utf8")).toBe("xx");
	});

	it("a run that stalls every time fails after the tries, its processes all stopped", async () => {
		const runs = path.join(folder, "stalls-always");
		const pids = path.join(folder, "stalled-pids");
		const result = guard(counting(runs, `fs.appendFileSync(${JSON.stringify(pids)}, process.pid + "\\n"); ${FOREVER}`));
		expect(result.status).toBe(1);
		expect(result.stderr).toContain("(run 2 of 2); giving up after 2 runs");
		const stalled = readFileSync(pids, "utf8").trim().split("\n").map(Number);
		expect(stalled).toHaveLength(2);
		for (const pid of stalled) expect(await alive(pid)).toBe(false);
	});

	it("a stalled run's servers in process groups of their own, listed in the registry, are stopped too", async () => {
		const runs = path.join(folder, "server");
		const serverPid = path.join(folder, "server-pid");
		// As scripts/lib/dev-server.ts does: a detached child, noted in the registry by its pid.
		const script = counting(
			runs,
			`const { spawn } = require("node:child_process");
const server = spawn(process.execPath, ["-e", ${JSON.stringify(FOREVER)}], { detached: true, stdio: "ignore" });
server.unref();
fs.writeFileSync(require("node:path").join(process.env.FPS_DEV_SERVER_REGISTRY, String(server.pid)), "");
fs.writeFileSync(${JSON.stringify(serverPid)}, String(server.pid));
${FOREVER}`,
		);
		const result = guard(script, { tries: 1 });
		expect(result.status).toBe(1);
		expect(result.stderr).toContain("giving up after 1 runs");
		const pid = Number(readFileSync(serverPid, "utf8"));
		expect(pid).toBeGreaterThan(0);
		expect(await alive(pid)).toBe(false);
	});

	it("outside CI the command runs alone, unwatched, with its exit code", () => {
		const runs = path.join(folder, "alone");
		const result = guard(counting(runs, "process.exit(4);"), { ci: "" });
		expect(result.status).toBe(4);
		expect(existsSync(runs)).toBe(true);
	});
});
