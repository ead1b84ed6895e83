/** Starting and stopping `wrangler dev` from scripts and tests, always stopping what was started. */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { oneStartAtATime } from "./start-lock.ts";
import { PROJECT_ROOT, WRANGLER_BIN, wranglerEnv } from "./wrangler.ts";

export type DevServer = {
	/** Origin such as http://127.0.0.1:8787. */
	origin: string;
	/** wrangler's process id, which is also its process group's (workerd runs in that group). */
	pid: number | undefined;
	/** Stops wrangler and its workerd children; safe to call twice. */
	stop(): Promise<void>;
	/** Kills wrangler and its workerd children at once (SIGKILL), as a crash would. */
	kill(): Promise<void>;
};

export type DevServerOptions = {
	port: number;
	persistTo?: string;
	/** Another wrangler configuration than the project's wrangler.toml (a generated one with more bindings). */
	config?: string;
	/** Extra `--var NAME:value` pairs. */
	vars?: Record<string, string>;
	/** The loopback port of wrangler's DevTools inspector (its own free port when left out). */
	inspectorPort?: number;
	/** Pass wrangler's output through to this process (npm start) instead of buffering it for errors. */
	inheritOutput?: boolean;
	readyTimeoutMs?: number;
	/** Called with each chunk of wrangler's output (stdout and stderr), when it is buffered (not inherited). */
	onOutput?: (chunk: string) => void;
};

/**
 * The environment variable naming a folder where each server started here leaves a file named by its
 * process group while it runs (scripts/stall-guard.ts sets it, to stop a stalled run's servers too:
 * each runs in a group of its own, out of reach of the run's).
 */
export const DEV_SERVER_REGISTRY = "FPS_DEV_SERVER_REGISTRY";

/** Notes the server's group in the registry, if one is set, until it exits. */
function register(child: ChildProcess): void {
	const folder = process.env[DEV_SERVER_REGISTRY];
	if (folder === undefined || folder === "" || child.pid === undefined) return;
	const file = path.join(folder, String(child.pid));
	try {
		writeFileSync(file, "");
	} catch {
		// The guard's folder is gone (the guard stopped): nothing is left to note it in.
		return;
	}
	child.once("exit", () => rmSync(file, { force: true }));
}

/** A free loopback port, chosen by the OS. */
export async function freePort(): Promise<number> {
	const server = createServer();
	server.listen(0, "127.0.0.1");
	await once(server, "listening");
	const address = server.address();
	server.close();
	if (address === null || typeof address === "string") throw new Error("could not pick a free port");
	return address.port;
}

function stopProcessGroup(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
	const exited = once(child, "exit").then(() => undefined);
	// wrangler was started as a group leader (detached), so this reaches the workerd it spawned too.
	process.kill(-child.pid, "SIGTERM");
	const forced = setTimeout(() => {
		if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
	}, 5000);
	return exited.finally(() => clearTimeout(forced));
}

/** Starts `wrangler dev` on loopback and resolves once GET /v1/health answers 200. */
export function startDevServer(options: DevServerOptions): Promise<DevServer> {
	// Two wrangler dev starting together can pick the same internal port, and one then exits.
	return oneStartAtATime(() => startNow(options));
}

/** Spawns wrangler dev and waits until it answers `/v1/health`, stopping it on failure. */
async function startNow(options: DevServerOptions): Promise<DevServer> {
	const args = [WRANGLER_BIN, "dev", "--ip", "127.0.0.1", "--port", String(options.port)];
	if (options.persistTo !== undefined) args.push("--persist-to", options.persistTo);
	if (options.config !== undefined) args.push("--config", options.config);
	for (const [name, value] of Object.entries(options.vars ?? {})) args.push("--var", `${name}:${value}`);
	if (options.inspectorPort !== undefined) args.push("--inspector-port", String(options.inspectorPort));
	// No hotkeys: wrangler runs in its own process group, where reading the terminal would stop it.
	args.push("--show-interactive-dev-session=false");
	const child = spawn(process.execPath, args, {
		cwd: PROJECT_ROOT,
		env: wranglerEnv(),
		detached: true,
		stdio: options.inheritOutput ? ["ignore", "inherit", "inherit"] : ["ignore", "pipe", "pipe"],
	});
	register(child);
	let output = "";
	child.stdout?.on("data", (chunk: Buffer) => {
		output = (output + chunk.toString()).slice(-20_000);
		options.onOutput?.(chunk.toString());
	});
	child.stderr?.on("data", (chunk: Buffer) => {
		output = (output + chunk.toString()).slice(-20_000);
		options.onOutput?.(chunk.toString());
	});
	const origin = `http://127.0.0.1:${options.port}`;
	const server: DevServer = {
		origin,
		pid: child.pid,
		stop: () => stopProcessGroup(child),
		kill: async () => {
			if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
			const exited = once(child, "exit");
			process.kill(-child.pid, "SIGKILL");
			await exited;
		},
	};
	const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
	try {
		while (Date.now() < deadline) {
			if (child.exitCode !== null) throw new Error(`wrangler dev exited with code ${child.exitCode}`);
			const healthy = await fetch(`${origin}/v1/health`).then(
				(response) => response.status === 200,
				() => false,
			);
			if (healthy) return server;
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		throw new Error(`wrangler dev did not become healthy within ${options.readyTimeoutMs ?? 90_000} ms`);
	} catch (error) {
		await server.stop();
		throw new Error(`${error instanceof Error ? error.message : String(error)}\n${output}`);
	}
}
