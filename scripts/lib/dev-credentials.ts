/**
 * The development credentials `npm start` creates on its first run and keeps in
 * .wrangler/dev-credentials.json (git-ignored): the raw keys exist nowhere else, since D1 keeps hashes.
 * `npm start` writes them; `npm run env:dev`, `npm run receiver` and `npm run demo` read them.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
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

/** Where `npm start` notes the port it serves on, so the other scripts follow it without being told. */
export const DEV_SERVER_FILE = path.join(PROJECT_ROOT, ".wrangler", "dev-server.json");

/** Notes the port `npm start` serves on. */
export function saveDevServerPort(port: number): void {
	writeFileSync(DEV_SERVER_FILE, `${JSON.stringify({ port })}\n`);
}

/**
 * The port of the local API: PORT when it is set, else the one the last `npm start` noted, else 8787.
 * A second terminal then points at the server actually running, whatever port it was started on.
 */
export function devServerPort(): string {
	if (process.env.PORT !== undefined && process.env.PORT !== "") return process.env.PORT;
	if (!existsSync(DEV_SERVER_FILE)) return "8787";
	const noted: unknown = JSON.parse(readFileSync(DEV_SERVER_FILE, "utf8"));
	const port = typeof noted === "object" && noted !== null ? Reflect.get(noted, "port") : undefined;
	return typeof port === "number" && Number.isInteger(port) ? String(port) : "8787";
}

/** The receiver's port: RECEIVER_PORT, else 9000. */
export function receiverPort(): string {
	return process.env.RECEIVER_PORT !== undefined && process.env.RECEIVER_PORT !== ""
		? process.env.RECEIVER_PORT
		: "9000";
}
