declare namespace Cloudflare {
	interface Env {
		/** Injected by vitest.config.ts so the setup file can apply the D1 migrations. */
		TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
	}
}
