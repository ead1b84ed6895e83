/**
 * The development credentials `npm start` creates on its first run and keeps in
 * .wrangler/dev-credentials.json (git-ignored): the raw keys exist nowhere else, since D1 keeps hashes.
 * `npm start` writes them; `npm run env:dev`, `npm run receiver` and `npm run demo` read them.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "./wrangler.ts";

export const CREDENTIALS_FILE = path.join(PROJECT_ROOT, ".wrangler", "dev-credentials.json");

export type DevCredentials = {
	partner: {
		account_id: string;
		live_key: string;
		test_key: string;
		/** Signs live webhooks. */
		webhook_secret: string;
		/** Signs test webhooks (absent from files written before live and test had separate secrets). */
		test_webhook_secret?: string;
	};
	service_team: { account_id: string; ops_key: string; admin_key: string };
	/** Signs the worker's own upload URLs (UPLOAD_METHOD=worker); a secret in production. */
	upload_signing_secret: string;
	/** Signs the operator console's session cookies and form tokens; a secret in production. */
	console_session_secret: string;
};

/** What the file holds, as written (files from earlier versions lack some fields), or null when there is none. */
export function readSavedCredentials(): Partial<DevCredentials> | null {
	if (!existsSync(CREDENTIALS_FILE)) return null;
	return JSON.parse(readFileSync(CREDENTIALS_FILE, "utf8")) as Partial<DevCredentials>;
}
