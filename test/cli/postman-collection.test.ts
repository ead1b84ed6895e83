/**
 * The partner's Postman collection as a partner runs it: served by a real `wrangler dev` set up as
 * `npm start` runs it (R2 presigned uploads), run whole by newman with a fresh account's test key and
 * the sample file `npm run sample-file` writes, as docs/api.md tells. Every request passes, each
 * with assertions of its own; with a live key the run stops after its first request.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../scripts/lib/accounts.ts";
import { type DevServer, freePort, startDevServer } from "../../scripts/lib/dev-server.ts";
import { presignedUploadVars } from "../../scripts/lib/local-uploads.ts";
import { migrateFreshFolder } from "../../scripts/lib/migrated-template.ts";
import { runCollection } from "../../scripts/lib/newman-run.ts";
import { REHEARSAL, REHEARSAL_PRINT_FILE } from "../../scripts/lib/postman-rehearsal-steps.ts";
import { PROJECT_ROOT } from "../../scripts/lib/wrangler.ts";
import type { NewAccount } from "../../src/admin/provisioning.ts";

const run = promisify(execFile);
/** A whole run takes about 15 s here; waits are bounded by their tries. */
const RUN_TIMEOUT_MS = 100_000;

describe("the partner's Postman collection, run by newman against wrangler dev", () => {
	let folder = "";
	let workingDir = "";
	let server: DevServer | undefined;
	let partner: NewAccount;

	function origin(): string {
		if (server === undefined) throw new Error("wrangler dev did not start");
		return server.origin;
	}

	beforeAll(async () => {
		folder = await mkdtemp(path.join(tmpdir(), "fps-postman-"));
		const state = path.join(folder, "state");
		workingDir = path.join(folder, "run");
		await mkdir(workingDir);
		await migrateFreshFolder(state);
		partner = await createAccount({ remote: false, persistTo: state }, "Postman Partner");
		// The file the upload sends, made as the collection's description says.
		await run(process.execPath, [
			path.join(PROJECT_ROOT, "scripts", "sample-file.ts"),
			path.join(workingDir, REHEARSAL_PRINT_FILE),
		]);
		const port = await freePort();
		server = await startDevServer({
			port,
			persistTo: state,
			// As npm start: presigned R2 uploads, and test orders moving on by themselves 5 s apart.
			vars: {
				ENVIRONMENT: "development",
				SANDBOX_STEP_SECONDS: "5",
				...presignedUploadVars(`http://127.0.0.1:${port}`),
			},
		});
	});

	afterAll(async () => {
		await server?.stop();
		await rm(folder, { recursive: true, force: true });
	});

	it("passes every request with a test key: each sent, each with assertions, no failure", async () => {
		const result = await runCollection({
			collection: `${origin()}/v1/postman.json`,
			variables: { api_key: partner.keys.test.key },
			workingDir,
			timeoutMs: RUN_TIMEOUT_MS,
		});
		expect(result.failures).toEqual([]);
		const names = REHEARSAL.flatMap((stage) => stage.steps.map((step) => step.name));
		expect([...new Set(result.sent)]).toEqual(names);
		expect(result.withoutAssertions).toEqual([]);
		expect(result.assertions).toBeGreaterThan(2 * names.length);
		console.log(
			`newman: ${result.requests} requests (${names.length} in the collection), ${result.assertions} assertions, ${result.failures.length} failures, ${result.durationMs} ms`,
		);
	});

	it("stops after its first request with a live key, failing that request's check of the key", async () => {
		const result = await runCollection({
			collection: `${origin()}/v1/postman.json`,
			variables: { api_key: partner.keys.live.key },
			workingDir,
			timeoutMs: RUN_TIMEOUT_MS,
		});
		expect(result.sent).toEqual([REHEARSAL[0]?.steps[0]?.name]);
		expect(result.failures).toEqual([expect.stringContaining("the run uses a test key")]);
	});
});
