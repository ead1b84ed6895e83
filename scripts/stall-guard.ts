/**
 * `npm test`'s guard against a run that stalls: runs a test command and, in CI, watches its output.
 * A run that prints nothing for `--quiet-minutes` (longer than any one test file takes: the slowest,
 * the admin CLI's, takes about two minutes) has stalled, as the Workers test pool now and then does
 * after a file finishes (a known upstream bug: the run stops printing and never ends). The guard then
 * stops it and everything it started (its process group, and the `wrangler dev` servers its tests
 * started in groups of their own, which scripts/lib/dev-server.ts lists in FPS_DEV_SERVER_REGISTRY),
 * says so, and runs the command again, up to `--tries` runs in all. A run that ends, passing or failing,
 * is never run again: its exit code is the guard's.
 *
 * Outside CI the command runs as it would alone (the terminal's own output, colours and all).
 *
 *   node scripts/stall-guard.ts [--quiet-minutes 10] [--tries 2] -- <command> [args...]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { isCi } from "./lib/ci.ts";
import { DEV_SERVER_REGISTRY } from "./lib/dev-server.ts";

type Options = { quietMs: number; tries: number; command: string[] };

function parseArgs(argv: readonly string[]): Options {
	const split = argv.indexOf("--");
	const flags = split === -1 ? [] : argv.slice(0, split);
	const command = split === -1 ? [...argv] : argv.slice(split + 1);
	let quietMinutes = 10;
	let tries = 2;
	for (let index = 0; index < flags.length; index += 2) {
		const value = Number(flags[index + 1]);
		if (flags[index] === "--quiet-minutes" && value > 0) quietMinutes = value;
		else if (flags[index] === "--tries" && Number.isInteger(value) && value >= 1) tries = value;
		else throw new Error(`stall-guard: unknown or bad flag ${flags[index]} ${flags[index + 1] ?? ""}`);
	}
	if (command.length === 0) throw new Error("stall-guard: no command after --");
	return { quietMs: quietMinutes * 60_000, tries, command };
}

/** Kills a process group, ignoring one already gone. */
function killGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
	}
}

/** Stops the stalled run's group (TERM, then KILL after 10 s) and the dev servers its tests left. */
async function stopEverything(child: ChildProcess, registry: string): Promise<void> {
	const pid = child.pid;
	if (pid !== undefined && child.exitCode === null && child.signalCode === null) {
		const exited = once(child, "exit");
		killGroup(pid, "SIGTERM");
		const forced = setTimeout(() => killGroup(pid, "SIGKILL"), 10_000);
		await exited;
		clearTimeout(forced);
		// Whatever of the group outlived its leader.
		killGroup(pid, "SIGKILL");
	}
	for (const name of await readdir(registry).catch(() => [])) {
		const server = Number(name);
		if (Number.isInteger(server) && server > 0) killGroup(server, "SIGKILL");
		await rm(path.join(registry, name), { force: true });
	}
}

type RunEnd = { kind: "exited"; code: number } | { kind: "stalled"; lastLines: string };

/** One run of the command, its output passed through; ends when it exits or has been quiet too long. */
async function runOnce(options: Options, registry: string): Promise<RunEnd> {
	const [file, ...args] = options.command;
	if (file === undefined) throw new Error("stall-guard: no command");
	const child = spawn(file, args, {
		detached: true,
		stdio: ["ignore", "pipe", "pipe"],
		env: { ...process.env, [DEV_SERVER_REGISTRY]: registry },
	});
	// The run is in a group of its own, which a signal to this one does not reach: it is passed on.
	const passOn = (signal: NodeJS.Signals) => {
		void stopEverything(child, registry).finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
	};
	process.once("SIGINT", passOn);
	process.once("SIGTERM", passOn);
	child.once("exit", () => {
		process.off("SIGINT", passOn);
		process.off("SIGTERM", passOn);
	});
	let tail = "";
	let lastOutput = Date.now();
	const onChunk = (chunk: Buffer, to: NodeJS.WriteStream) => {
		lastOutput = Date.now();
		tail = (tail + chunk.toString()).slice(-2_000);
		to.write(chunk);
	};
	child.stdout?.on("data", (chunk: Buffer) => onChunk(chunk, process.stdout));
	child.stderr?.on("data", (chunk: Buffer) => onChunk(chunk, process.stderr));
	const exited = new Promise<RunEnd>((resolve, reject) => {
		child.on("error", reject);
		child.on("exit", (code, signal) => {
			const end: RunEnd = { kind: "exited", code: code ?? (signal === null ? 1 : 128) };
			// Its last output, unless something it left behind holds the pipes open: then not waited for.
			const late = setTimeout(() => resolve(end), 5_000);
			child.on("close", () => {
				clearTimeout(late);
				resolve(end);
			});
		});
	});
	const stalled = new Promise<RunEnd>((resolve) => {
		const timer = setInterval(
			() => {
				if (Date.now() - lastOutput < options.quietMs) return;
				clearInterval(timer);
				resolve({ kind: "stalled", lastLines: tail.split("\n").slice(-5).join("\n") });
			},
			Math.min(10_000, options.quietMs / 4),
		);
		void exited.finally(() => clearInterval(timer));
	});
	const end = await Promise.race([exited, stalled]);
	if (end.kind === "stalled") await stopEverything(child, registry);
	return end;
}

async function guarded(options: Options): Promise<number> {
	const registry = await mkdtemp(path.join(tmpdir(), "fps-dev-servers-"));
	try {
		for (let run = 1; run <= options.tries; run++) {
			const end = await runOnce(options, registry);
			if (end.kind === "exited") return end.code;
			const minutes = options.quietMs / 60_000;
			const next = run < options.tries ? "running it again" : `giving up after ${run} runs`;
			console.error(
				`\nstall-guard: \`${options.command.join(" ")}\` printed nothing for ${minutes} min and was stopped (run ${run} of ${options.tries}); ${next}. Its last output:\n${end.lastLines}\n`,
			);
		}
		return 1;
	} finally {
		await rm(registry, { recursive: true, force: true });
	}
}

const options = parseArgs(process.argv.slice(2));
if (isCi()) {
	process.exit(await guarded(options));
}
const [file, ...args] = options.command;
const alone = spawn(file ?? "", args, { stdio: "inherit" });
// Ctrl-C reaches the command too (one process group): this waits for it to finish stopping.
process.on("SIGINT", () => undefined);
const [code, signal] = (await once(alone, "exit")) as [number | null, NodeJS.Signals | null];
process.exit(code ?? (signal === null ? 1 : 128));
