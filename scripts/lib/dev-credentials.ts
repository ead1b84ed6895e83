/**
 * The development credentials `npm start` creates on its first run and keeps in
 * .wrangler/dev-credentials.json (git-ignored): the raw keys exist nowhere else, since D1 keeps hashes.
 * `npm start` writes them; `npm run env:dev`, `npm run receiver` and `npm run demo` read them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
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

/** Where `npm run receiver` notes the port it listens on, for `env:dev`'s RECEIVER_URL. */
export const RECEIVER_FILE = path.join(PROJECT_ROOT, ".wrangler", "receiver.json");

/** Notes the port a local server listens on (`npm start`'s or the receiver's), in its file. */
export function notePort(port: number, file: string): void {
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify({ port })}\n`);
}

/** The port noted in a file, or undefined when there is none or it cannot be read. */
function notedPort(file: string): string | undefined {
	if (!existsSync(file)) return undefined;
	let noted: unknown;
	try {
		noted = JSON.parse(readFileSync(file, "utf8"));
	} catch {
		return undefined;
	}
	const port = typeof noted === "object" && noted !== null ? Reflect.get(noted, "port") : undefined;
	return typeof port === "number" && Number.isInteger(port) ? String(port) : undefined;
}

type Settings = Record<string, string | undefined>;

function setting(settings: Settings, name: string): string | undefined {
	const value = settings[name];
	return value === undefined || value === "" ? undefined : value;
}

/**
 * The port of the local API: PORT when it is set, else the one the last `npm start` noted, else 8787.
 * A second terminal then points at the server actually running, whatever port it was started on.
 */
export function devServerPort(settings: Settings = process.env, file: string = DEV_SERVER_FILE): string {
	return setting(settings, "PORT") ?? notedPort(file) ?? "8787";
}

/** The port `npm run receiver` listens on: RECEIVER_PORT, else 9000. */
export function receiverListenPort(settings: Settings = process.env): string {
	return setting(settings, "RECEIVER_PORT") ?? "9000";
}

/** The receiver's port for another terminal: RECEIVER_PORT, else the one the running receiver noted, else 9000. */
export function receiverPort(settings: Settings = process.env, file: string = RECEIVER_FILE): string {
	return setting(settings, "RECEIVER_PORT") ?? notedPort(file) ?? "9000";
}
