/**
 * `eval "$(npm run --silent env:dev)"`: shell variables for the curl walkthrough in docs/partner-walkthrough.md, from the credentials
 * `npm start` keeps in .wrangler/dev-credentials.json. API follows the port the running `npm start` noted
 * (PORT, when set, wins); RECEIVER_URL follows the port the running `npm run receiver` noted (RECEIVER_PORT, when set, wins; else 9000).
 *
 *   API             http://localhost:<port>/v1
 *   RECEIVER_URL    http://127.0.0.1:<receiver port>/webhooks, the walkthrough's callback_url
 *   KEY, TEST_KEY   the development partner's live and test keys
 *   OPS, ADMIN      the service team's ops and admin keys
 *   WEBHOOK_SECRET, TEST_WEBHOOK_SECRET   the partner's live and test webhook secrets
 *
 * Prints nothing on stdout (so the eval sets nothing) and exits 1 when npm start has not run yet.
 */
import { CREDENTIALS_FILE, devServerPort, readSavedCredentials, receiverPort } from "./lib/dev-credentials.ts";
import { shellWord } from "./lib/shell.ts";

const saved = readSavedCredentials();
if (saved === null) {
	console.error(`env:dev: no ${CREDENTIALS_FILE}; run npm start first`);
	process.exit(1);
}
const variables: Array<[string, string | undefined]> = [
	["API", `http://localhost:${devServerPort()}/v1`],
	["RECEIVER_URL", `http://127.0.0.1:${receiverPort()}/webhooks`],
	["KEY", saved.partner?.live_key],
	["TEST_KEY", saved.partner?.test_key],
	["OPS", saved.service_team?.ops_key],
	["ADMIN", saved.service_team?.admin_key],
	["WEBHOOK_SECRET", saved.partner?.webhook_secret],
	// Files from before live and test had separate secrets hold one, which signs both.
	["TEST_WEBHOOK_SECRET", saved.partner?.test_webhook_secret ?? saved.partner?.webhook_secret],
];
const missing = variables.filter(([, value]) => value === undefined).map(([name]) => name);
if (missing.length > 0) {
	console.error(`env:dev: ${CREDENTIALS_FILE} lacks ${missing.join(", ")}; delete it and run npm start again`);
	process.exit(1);
}
for (const [name, value] of variables) console.log(`export ${name}=${shellWord(value ?? "")}`);
