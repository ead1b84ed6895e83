declare namespace Cloudflare {
	interface Env {
		/** Injected by vitest.config.ts so the setup file can apply the D1 migrations. */
		TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
		/** A second D1 database for accounts spread over two: test/databases.isolated.test.ts. */
		DB_2?: D1Database;
	}
}

/** A file's text, imported with Vite's `?raw` (the worked example's test reads docs/pricing.md). */
declare module "*.md?raw" {
	const text: string;
	export default text;
}

/** A file's bytes as a `data:` URL, imported with Vite's `?inline` (the colour fixtures uploaded in the Workers tests). */
declare module "*?inline" {
	const dataUrl: string;
	export default dataUrl;
}
