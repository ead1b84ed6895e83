/**
 * `npm run receiver`: a webhook receiver on loopback for trying the API by hand (docs/partner-walkthrough.md).
 * Every request is verified with the `standardwebhooks` package alone, `new Webhook(secret).verify(body, headers)`,
 * with each webhook secret exactly as issued (`whsec_...`), and printed on one line: verified or REFUSED with the
 * reason, then event type, order id, status and version. Verified requests are answered 204, others 400.
 *
 * Port: RECEIVER_PORT (default 9000), noted in .wrangler/receiver.json for `env:dev`. Secrets: WEBHOOK_SECRET
 * (several may be given, comma-separated, such as the live and the test secret) and TEST_WEBHOOK_SECRET; when
 * neither is set, the live and test secrets `npm start` keeps in .wrangler/dev-credentials.json.
 *
 * Every request is saved, verified or not, in RECEIVER_SAVE_DIR (default .wrangler/webhooks): its body exactly as
 * received (`<time>-<webhook-id>.body`) and its signature headers as shell assignments (`.env`: SVC_SIGNATURE,
 * WEBHOOK_ID, WEBHOOK_TIMESTAMP, WEBHOOK_SIGNATURE and BODY_FILE), the newest also as `last.body` and `last.env`,
 * for verifying by hand with openssl (docs/webhooks.md).
 */

import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import {
	CREDENTIALS_FILE,
	notePort,
	RECEIVER_FILE,
	readSavedCredentials,
	receiverListenPort,
} from "./lib/dev-credentials.ts";
import { shellWord } from "./lib/shell.ts";
import { PROJECT_ROOT } from "./lib/wrangler.ts";

const HOST = "127.0.0.1";
const PORT = Number(receiverListenPort());
const SAVE_DIR = path.resolve(process.env.RECEIVER_SAVE_DIR ?? path.join(PROJECT_ROOT, ".wrangler", "webhooks"));
/** Larger bodies are refused unread; the service's events are a few hundred bytes. */
const MAX_BODY_BYTES = 1024 * 1024;

type Secret = { label: string; webhook: Webhook };

function fail(message: string): never {
	console.error(`receiver: ${message}`);
	process.exit(2);
}

function secretsFromEnvironment(): Array<{ label: string; value: string }> {
	const listed = (name: string, label: string) =>
		(process.env[name] ?? "")
			.split(",")
			.map((value) => value.trim())
			.filter((value) => value !== "")
			.map((value, index, all) => ({ label: all.length > 1 ? `${label} #${index + 1}` : label, value }));
	return [...listed("WEBHOOK_SECRET", "WEBHOOK_SECRET"), ...listed("TEST_WEBHOOK_SECRET", "TEST_WEBHOOK_SECRET")];
}

function secretsFromDevCredentials(): Array<{ label: string; value: string }> {
	const saved = readSavedCredentials();
	if (saved === null) {
		fail(`no WEBHOOK_SECRET set and no ${path.relative(process.cwd(), CREDENTIALS_FILE)}: run npm start first`);
	}
	const found = [
		{ label: "live secret", value: saved.partner?.webhook_secret },
		{ label: "test secret", value: saved.partner?.test_webhook_secret },
	].filter((secret): secret is { label: string; value: string } => typeof secret.value === "string");
	if (found.length === 0) fail(`${CREDENTIALS_FILE} holds no webhook secret`);
	return found;
}

function loadSecrets(): { secrets: Secret[]; source: string } {
	const fromEnvironment = secretsFromEnvironment();
	const listed = fromEnvironment.length > 0 ? fromEnvironment : secretsFromDevCredentials();
	const secrets = listed.map(({ label, value }) => {
		try {
			return { label, webhook: new Webhook(value) };
		} catch (error) {
			return fail(`${label} is not a webhook secret (${error instanceof Error ? error.message : error})`);
		}
	});
	const source = fromEnvironment.length > 0 ? "the environment" : path.relative(process.cwd(), CREDENTIALS_FILE);
	return { secrets, source };
}

function header(headers: IncomingHttpHeaders, name: string): string {
	const value = headers[name];
	return Array.isArray(value) ? value.join(" ") : (value ?? "");
}

/** The first secret the Standard Webhooks headers verify with, or the reason none does. */
function verify(
	secrets: Secret[],
	body: string,
	headers: IncomingHttpHeaders,
): { secret: string } | { reason: string } {
	const standard = {
		"webhook-id": header(headers, "webhook-id"),
		"webhook-timestamp": header(headers, "webhook-timestamp"),
		"webhook-signature": header(headers, "webhook-signature"),
	};
	let reason = "no secret";
	for (const { label, webhook } of secrets) {
		try {
			webhook.verify(body, standard, { jsonParse: false });
			return { secret: label };
		} catch (error) {
			reason = error instanceof Error ? error.message : String(error);
		}
	}
	return { reason };
}

/** Event type, order id, status and version, whatever the body holds. */
function summary(body: string): string {
	try {
		const event = JSON.parse(body) as Record<string, unknown>;
		const text = (value: unknown) => (value === undefined || value === null ? "-" : String(value));
		return `${text(event.event)} ${text(event.order_id)} status=${text(event.status)} version=${text(event.version)} (${text(event.id)})`;
	} catch {
		return `a body that is not JSON (${Buffer.byteLength(body)} bytes)`;
	}
}

/** A file name part from a header value a peer chose: letters, digits, `_` and `-` only. */
function fileSafe(value: string): string {
	return value.replaceAll(/[^A-Za-z0-9_-]/g, "").slice(0, 64) || "unsigned";
}

/** Saves the body exactly as received and its signature headers as shell assignments; returns the body's path. */
function save(time: string, body: Buffer, headers: IncomingHttpHeaders): string {
	mkdirSync(SAVE_DIR, { recursive: true });
	const stem = path.join(SAVE_DIR, `${time.replaceAll(/[-:.]/g, "")}-${fileSafe(header(headers, "webhook-id"))}`);
	const bodyFile = `${stem}.body`;
	const assignments = [
		["SVC_SIGNATURE", header(headers, "svc-signature")],
		["WEBHOOK_ID", header(headers, "webhook-id")],
		["WEBHOOK_TIMESTAMP", header(headers, "webhook-timestamp")],
		["WEBHOOK_SIGNATURE", header(headers, "webhook-signature")],
		["BODY_FILE", bodyFile],
	].map(([name, value]) => `${name}=${shellWord(value ?? "")}`);
	writeFileSync(bodyFile, body);
	writeFileSync(
		`${stem}.env`,
		`# ${time}: the signature headers of ${path.basename(bodyFile)}\n${assignments.join("\n")}\n`,
	);
	copyFileSync(bodyFile, path.join(SAVE_DIR, "last.body"));
	copyFileSync(`${stem}.env`, path.join(SAVE_DIR, "last.env"));
	return path.relative(process.cwd(), bodyFile);
}

const { secrets, source } = loadSecrets();

const server = createServer((request, response) => {
	const chunks: Buffer[] = [];
	let size = 0;
	request.on("data", (chunk: Buffer) => {
		size += chunk.byteLength;
		if (size <= MAX_BODY_BYTES) chunks.push(chunk);
	});
	request.on("end", () => {
		const time = new Date().toISOString();
		if (size > MAX_BODY_BYTES) {
			console.log(`${time} REFUSED (body over ${MAX_BODY_BYTES} bytes) ${request.method} ${request.url}`);
			response.writeHead(400).end();
			return;
		}
		const bytes = Buffer.concat(chunks);
		const saved = save(time, bytes, request.headers);
		const body = bytes.toString("utf8");
		const result = verify(secrets, body, request.headers);
		if ("secret" in result) {
			console.log(`${time} verified (${result.secret}) ${summary(body)} saved ${saved}`);
			response.writeHead(204).end();
		} else {
			console.log(
				`${time} REFUSED (${result.reason}) ${request.method} ${request.url} ${summary(body)} saved ${saved}`,
			);
			response.writeHead(400, { "Content-Type": "text/plain" }).end(`${result.reason}\n`);
		}
	});
});

server.on("error", (error) => fail(error.message));
server.listen(PORT, HOST, () => {
	notePort(PORT, RECEIVER_FILE);
	console.log(
		`Webhook receiver on http://${HOST}:${PORT}/webhooks (any path) verifying with ${secrets.length} secret(s) from ${source}: ${secrets.map((secret) => secret.label).join(", ")}. Saving each request in ${path.relative(process.cwd(), SAVE_DIR) || "."}. Ctrl-C stops it.`,
	);
});

let stopping = false;
function stop(signal: string): void {
	if (stopping) return;
	stopping = true;
	server.close(() => {
		console.log(`receiver stopped (${signal})`);
		process.exit(0);
	});
	server.closeAllConnections();
}
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
