declare namespace Cloudflare {
	interface Env {
		/** Injected by vitest.config.ts so the setup file can apply the D1 migrations. */
		TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
	}
}

/** A file's text, imported with Vite's `?raw` (the README's worked example test reads the README). */
declare module "*.md?raw" {
	const text: string;
	export default text;
}
