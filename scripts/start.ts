/**
 * `npm start`: applies the local D1 migrations (which seed the catalog) to every database wrangler.toml names, creates development
 * credentials on first run, then runs `wrangler dev` on port 8787 and prints the credentials once
 * the API answers. Local D1, R2, Durable Object and queue state persists under .wrangler/.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import { randomBase62 } from "../src/ids.ts";
import { accountExists, createAccount, createAccountWithKeys } from "./lib/accounts.ts";
import {
	CREDENTIALS_FILE,
	DEV_SERVER_FILE,
	type DevCredentials,
	notePort,
	readSavedCredentials,
	receiverListenPort,
} from "./lib/dev-credentials.ts";
import { startDevServer } from "./lib/dev-server.ts";
import { presignedUploadVars } from "./lib/local-uploads.ts";
import { applyMigrations, type D1Target } from "./lib/wrangler.ts";

const PORT = Number(process.env.PORT ?? 8787);

async function loadCredentials(target: D1Target): Promise<DevCredentials | null> {
	const saved = readSavedCredentials();
	if (saved === null) return null;
	if (saved.partner === undefined || saved.service_team === undefined || saved.upload_signing_secret === undefined) {
		return null;
	}
	// The local database may have been wiped since; then the saved keys are worthless.
	const stillThere =
		(await accountExists(target, saved.partner.account_id)) &&
		(await accountExists(target, saved.service_team.account_id));
	if (!stillThere) return null;
	const credentials: DevCredentials = {
		partner: saved.partner,
		service_team: saved.service_team,
		upload_signing_secret: saved.upload_signing_secret,
		// Files written before the console existed lack its secret: add one and keep the keys.
		console_session_secret: saved.console_session_secret ?? randomBase62(43),
	};
	if (saved.console_session_secret === undefined) await saveCredentials(credentials);
	return credentials;
}

async function createCredentials(target: D1Target): Promise<DevCredentials> {
	const partner = await createAccount(target, "Development Partner", PARTNER_SCOPES);
	const team = await createAccountWithKeys(target, "Service team (development)", [
		{ mode: "live", scopes: ["ops"] },
		{ mode: "live", scopes: ["admin"] },
	]);
	const [opsKey, adminKey] = team.keys;
	if (opsKey === undefined || adminKey === undefined) throw new Error("service-team keys were not created");
	const credentials: DevCredentials = {
		partner: {
			account_id: partner.account.id,
			live_key: partner.keys.live.key,
			test_key: partner.keys.test.key,
			webhook_secret: partner.webhook_secrets.live,
			test_webhook_secret: partner.webhook_secrets.test,
		},
		service_team: { account_id: team.account.id, ops_key: opsKey.key, admin_key: adminKey.key },
		upload_signing_secret: randomBase62(43),
		console_session_secret: randomBase62(43),
	};
	await saveCredentials(credentials);
	return credentials;
}

async function saveCredentials(credentials: DevCredentials): Promise<void> {
	await mkdir(path.dirname(CREDENTIALS_FILE), { recursive: true });
	await writeFile(CREDENTIALS_FILE, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}

function banner(origin: string, credentials: DevCredentials, createdNow: boolean): string {
	const base = `${origin}/v1`;
	return [
		"",
		`Framed-print API running at ${base}   (reference: ${base}/docs, OpenAPI: ${base}/openapi.json)`,
		createdNow
			? "Development credentials (created now; kept in .wrangler/dev-credentials.json):"
			: "Development credentials (from .wrangler/dev-credentials.json):",
		`  partner live key     ${credentials.partner.live_key}`,
		`  partner test key     ${credentials.partner.test_key}`,
		`  live webhook secret  ${credentials.partner.webhook_secret}`,
		// Migration 0007 copied the one secret of older databases as the test secret.
		`  test webhook secret  ${credentials.partner.test_webhook_secret ?? credentials.partner.webhook_secret}`,
		`  ops key              ${credentials.service_team.ops_key}`,
		`  admin key            ${credentials.service_team.admin_key}`,
		`Operator console: ${origin}/ops   (sign in with the ops key)`,
		'Shell variables for the curl walkthrough in docs/partner-walkthrough.md: eval "$(npm run --silent env:dev)"',
		`Webhook receiver that verifies and prints each delivery: npm run receiver   (http://127.0.0.1:${receiverListenPort()}/webhooks; RECEIVER_PORT picks another port)`,
		"Try it:",
		`  curl -H "Authorization: Bearer ${credentials.partner.test_key}" ${base}/catalog`,
		"Expected in wrangler's output above, and harmless (docs/development.md, start-up output):",
		'  "local_dev.experimental_s3_credentials fields are experimental": that setting gives the local R2 bucket',
		"    the S3 endpoint that upload URLs are presigned against, as R2's own endpoint is in production.",
		'  "Scheduled Workers are not automatically triggered": the cron runs safety nets (stalled orders, overdue',
		"    webhook deliveries); locally the queue delivers by itself, and the curl wrangler shows runs them once.",
		"",
	].join("\n");
}

const target: D1Target = { remote: false };
console.log("Applying local D1 migrations (schema and catalog seed) to every database wrangler.toml names...");
await applyMigrations(target);
const saved = await loadCredentials(target);
const credentials = saved ?? (await createCredentials(target));

// Upload URLs are R2 presigned PUTs against wrangler's local S3 endpoint, as they would be in production.
const server = await startDevServer({
	port: PORT,
	vars: {
		// The contract's development setting: http and loopback allowed for callback_url and print_file_url.
		ENVIRONMENT: "development",
		// Test-mode orders move through production, shipping and delivery a few seconds apart.
		SANDBOX_STEP_SECONDS: "5",
		UPLOAD_SIGNING_SECRET: credentials.upload_signing_secret,
		CONSOLE_SESSION_SECRET: credentials.console_session_secret,
		...presignedUploadVars(`http://localhost:${PORT}`),
	},
	inheritOutput: true,
});
// The other terminals' scripts (env:dev, demo) follow this port without being told it.
notePort(PORT, DEV_SERVER_FILE);
console.log(banner(`http://localhost:${PORT}`, credentials, saved === null));

let stopping = false;
const stop = () => {
	if (stopping) return;
	stopping = true;
	void server.stop().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
