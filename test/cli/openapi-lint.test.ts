/**
 * The OpenAPI documents as tools read them: the three the Worker serves, each linted by
 * `@redocly/cli` with `redocly.yaml` (the recommended rules; the few turned off say why there).
 * 0 errors and 0 warnings, or the test fails with redocly's report.
 *
 * The documents come from the app built in this process (scripts/lib/openapi-document.ts), asked on
 * the routes `wrangler dev` serves them on; test/cli/typed-client.test.ts checks that the in-process
 * document is the served one, so this file needs no server of its own.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../scripts/lib/openapi-document.ts";
import { PROJECT_ROOT } from "../../scripts/lib/wrangler.ts";

const run = promisify(execFile);
let folder = "";

beforeAll(async () => {
	folder = await mkdtemp(path.join(tmpdir(), "fps-openapi-lint-"));
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

/** The served documents: the partner's, the production floor's and the service team's. */
const DOCUMENTS = ["/v1/openapi.json", "/v1/ops/openapi.json", "/v1/admin/openapi.json"];

describe("the served OpenAPI documents under @redocly/cli lint", () => {
	it.each(DOCUMENTS)("%s has 0 errors and 0 warnings", async (documentPath) => {
		const file = path.join(folder, `${documentPath.replaceAll("/", "_")}.json`);
		await writeFile(file, JSON.stringify(await buildOpenApiDocument(documentPath)));
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
