/** What several Node-side tests do alike: type-check a consumer file strictly, and stop a local HTTP server. */
import { execFile } from "node:child_process";
import type { Server } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { PROJECT_ROOT } from "../../scripts/lib/wrangler.ts";

const run = promisify(execFile);

/**
 * What the project's `tsc` says of `file` in `cwd`, checked strictly as an ES2022 module resolved the
 * way Node resolves packages (`nodenext`), with `extraArgs` added: "" when it type-checks.
 */
export function typeErrorsOf(
	file: string,
	cwd: string,
	options: { extraArgs?: readonly string[]; timeoutMs: number },
): Promise<string> {
	const tsc = path.join(PROJECT_ROOT, "node_modules", ".bin", "tsc");
	const args = ["--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext"];
	return run(tsc, [...args, ...(options.extraArgs ?? []), file], { cwd, timeout: options.timeoutMs }).then(
		() => "",
		(error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}` || String(error),
	);
}

/** Stops `server` (if it started) and drops its open connections, so the close does not wait on them. */
export function closeServer(server: Server | undefined): Promise<void> {
	return new Promise<void>((resolve) => {
		if (server === undefined) resolve();
		else {
			server.close(() => resolve());
			server.closeAllConnections();
		}
	});
}
