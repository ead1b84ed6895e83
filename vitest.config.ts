import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { partnerHosts } from "./test/outbound/partner-hosts.ts";

export default defineConfig(async () => {
	const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
	return {
		test: {
			projects: [
				{
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
								},
								// A second database, for the tests of accounts spread over two (test/databases.test.ts).
								d1Databases: { DB_2: "framed-print-api-second" },
								outboundService: partnerHosts,
							},
						}),
					],
					test: {
						name: "workers",
						include: ["test/**/*.test.ts"],
						exclude: ["test/cli/**", "test/browser/**", "test/architecture/**", "test/cost/**"],
						setupFiles: ["./test/apply-migrations.ts"],
					},
				},
				{
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
									COST_TRACE: "1",
								},
								outboundService: partnerHosts,
							},
						}),
					],
					test: {
						name: "workers-traced",
						include: ["test/cost/**/*.test.ts"],
						setupFiles: ["./test/apply-migrations.ts"],
					},
				},
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
