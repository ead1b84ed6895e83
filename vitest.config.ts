import { availableParallelism } from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { partnerHosts } from "./test/outbound/partner-hosts.ts";

/**
 * Where each test file runs (docs/development.md, "The test suite"):
 * - `unit`: `*.unit.test.ts`, pure logic, in plain Node;
 * - `workers`: the rest of test/, in the Workers runtime, the files of one runner sharing one
 *   workerd and its storage (starting workerd and migrating D1 for every file was most of the
 *   suite's time); each file makes its own accounts, so files do not see each other's orders;
 * - `workers-isolated`: `*.isolated.test.ts`, each file with a workerd and storage of its own,
 *   for files that change what is service-wide (the price book) or count what is service-wide
 *   (the floor's queue across accounts and the ticket batches read from it, the retention sweep's batch);
 * - `workers-traced`: test/cost/, with the cost tracer on;
 * - `cli` and `browser`: Node scripts, real `wrangler dev` and Chromium.
 * test/architecture/unit-tests.test.ts keeps the `unit` names true.
 */
const OUTSIDE_WORKERS = ["test/cli/**", "test/browser/**", "test/architecture/**", "test/cost/**"];

export default defineConfig(async () => {
	const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));

	function workersProject(
		name: string,
		files: { include: string[]; exclude: string[] },
		options: { isolate: boolean; costTrace?: boolean },
	): TestProjectInlineConfiguration {
		return {
			// TIFFs are no asset Vite knows: the colour fixtures are imported as `?inline` data URLs too.
			assetsInclude: ["**/*.tif"],
			plugins: [
				cloudflareTest({
					wrangler: { configPath: "./wrangler.toml" },
					miniflare: {
						bindings: {
							TEST_MIGRATIONS: migrations,
							UPLOAD_SIGNING_SECRET: "test-upload-signing-secret-0123456789",
							CONSOLE_SESSION_SECRET: "test-console-session-secret-0123456789",
							// A receiver that does not answer is given up on quickly in the tests.
							WEBHOOK_TIMEOUT_SECONDS: "1",
							// The cost tracer on (src/dev-tools/): X-Cost headers and every SQL statement recorded.
							...(options.costTrace === true ? { COST_TRACE: "1" } : {}),
						},
						// A second database, for the tests of accounts spread over two (test/databases.isolated.test.ts).
						d1Databases: { DB_2: "framed-print-api-second" },
						outboundService: partnerHosts,
					},
				}),
			],
			test: {
				name,
				...files,
				isolate: options.isolate,
				setupFiles: ["./test/apply-migrations.ts"],
			},
		};
	}

	return {
		test: {
			// Vitest's default leaves one core free; on two cores that was one workerd at a time, the other core idle.
			maxWorkers: Math.max(2, availableParallelism() - 1),
			projects: [
				{
					test: {
						name: "unit",
						environment: "node",
						include: ["test/**/*.unit.test.ts"],
					},
				},
				workersProject(
					"workers",
					{
						include: ["test/**/*.test.ts"],
						exclude: [...OUTSIDE_WORKERS, "test/**/*.unit.test.ts", "test/**/*.isolated.test.ts"],
					},
					{ isolate: false },
				),
				workersProject(
					"workers-isolated",
					{ include: ["test/**/*.isolated.test.ts"], exclude: OUTSIDE_WORKERS },
					{ isolate: true },
				),
				workersProject(
					"workers-traced",
					{ include: ["test/cost/**/*.test.ts"], exclude: [] },
					{ isolate: true, costTrace: true },
				),
				{
					test: {
						name: "cli",
						environment: "node",
						include: ["test/cli/**/*.test.ts", "test/architecture/**/*.test.ts"],
						testTimeout: 120_000,
						hookTimeout: 120_000,
					},
				},
				{
					test: {
						// Debian's Chromium against a real `wrangler dev` (npm run test:browser).
						name: "browser",
						environment: "node",
						include: ["test/browser/**/*.test.ts"],
						testTimeout: 180_000,
						hookTimeout: 180_000,
					},
				},
			],
		},
	};
});
