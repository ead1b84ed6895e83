/**
 * Secrets and optional settings, which `wrangler types` cannot see (they are not in wrangler.toml).
 * Set them with `wrangler secret put NAME`, or `--var NAME:value` locally (npm start does).
 */
interface SecretEnv {
	/** HMAC key of the operator console's session cookies and form tokens; without it the console refuses sign-in. */
	CONSOLE_SESSION_SECRET?: string;
	/** HMAC key of the worker's own upload URLs. */
	UPLOAD_SIGNING_SECRET?: string;
	/** S3 endpoint of R2 for presigned uploads, e.g. https://<account>.r2.cloudflarestorage.com. */
	R2_S3_ENDPOINT?: string;
	R2_S3_ACCESS_KEY_ID?: string;
	R2_S3_SECRET_ACCESS_KEY?: string;
	/** Seconds after which the cron restarts an order left received/validating (default 300). */
	STALLED_ORDER_SECONDS?: string;
	/** Seconds a pending delivery must be overdue before the cron sweep re-enqueues it (default 120). */
	WEBHOOK_SWEEP_OVERDUE_SECONDS?: string;
	/**
	 * Which D1 database holds each account's rows, as JSON ranges of account ids (src/databases.ts), e.g.
	 * `[{"from":"","binding":"DB"},{"from":"acct_V","binding":"DB_2"}]`. Unset: every account in DB.
	 */
	ACCOUNT_DATABASES?: string;
	/**
	 * "1" turns the cost tracer on (src/dev-tools/): `npm run bench:cost` and the workers-traced
	 * test project only, never deployed. Read once by the entry when the isolate loads.
	 */
	COST_TRACE?: string;
}

interface Env extends SecretEnv {}

declare namespace Cloudflare {
	interface Env extends SecretEnv {}
}

/** A text module (wrangler's and the tests' default rule for `*.txt`): the file's contents. */
declare module "*.txt" {
	const text: string;
	export default text;
}

/** workerd's AsyncLocalStorage (nodejs_compat); only what the cost tracer uses. */
declare module "node:async_hooks" {
	export class AsyncLocalStorage<T> {
		run<R>(store: T, callback: () => R): R;
		getStore(): T | undefined;
	}
}
