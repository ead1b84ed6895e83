/**
 * The OpenAPI documents as tools read them: the three a real `wrangler dev` serves, each linted by
 * `@redocly/cli` with `redocly.yaml` (the recommended rules; the few turned off say why there).
 * 0 errors and 0 warnings, or the test fails with redocly's report.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevServer, freePort, startDevServer } from "../../scripts/lib/dev-server.ts";
import { applyMigrations, PROJECT_ROOT } from "../../scripts/lib/wrangler.ts";

const run = promisify(execFile);
let folder = "";
let server: DevServer | undefined;

beforeAll(async () => {
	folder = await mkdtemp(path.join(tmpdir(), "fps-openapi-lint-"));
	await applyMigrations({ remote: false, persistTo: folder });
	server = await startDevServer({ port: await freePort(), persistTo: folder });
});

afterAll(async () => {
	await server?.stop();
	await rm(folder, { recursive: true, force: true });
});

/** The served documents: the partner's, the production floor's and the service team's. */
const DOCUMENTS = ["/v1/openapi.json", "/v1/ops/openapi.json", "/v1/admin/openapi.json"];

describe("the served OpenAPI documents under @redocly/cli lint", () => {
	it.each(DOCUMENTS)("%s has 0 errors and 0 warnings", async (documentPath) => {
		if (server === undefined) throw new Error("wrangler dev did not start");
		const response = await fetch(`${server.origin}${documentPath}`);
		expect(response.status).toBe(200);
		const file = path.join(folder, `${documentPath.replaceAll("/", "_")}.json`);
		await writeFile(file, await response.text());
		const redocly = path.join(PROJECT_ROOT, "node_modules", ".bin", "redocly");
		const result = await run(redocly, ["lint", file, "--config", path.join(PROJECT_ROOT, "redocly.yaml")], {
			cwd: PROJECT_ROOT,
			env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
		}).catch((error: { stdout?: string; stderr?: string }) => {
			throw new Error(`redocly lint failed:\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
		});
		const report = `${result.stdout}\n${result.stderr}`;
		expect(report, report).toContain("Your API description is valid");
		expect(report, report).not.toMatch(/You have \d+ warnings?/);
	});
});
