/**
 * Signing a webhook exactly as the service signs its deliveries, for `framed-print listen` (which
 * forwards the account's events to a local receiver) and for a partner's own tests: the same two
 * signatures, with the same libraries and keys.
 *
 * - `SVC-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of the body>`, keyed with the secret's text
 *   as issued (`whsec_…`, UTF-8), by Web Crypto;
 * - the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature`
 *   (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`, keyed with the base64 after `whsec_`), by the
 *   `standardwebhooks` package, which `verifyWebhook` and the service use too.
 *
 * Web APIs only (Web Crypto, TextEncoder): Node 20+, browsers, Workers, Deno.
 */
import { Webhook } from "standardwebhooks";

/** The headers a delivery carries, by the names the service sends them under. */
export type WebhookDeliveryHeaders = {
	"Content-Type": "application/json";
	"User-Agent": string;
	"SVC-Signature": string;
	"webhook-id": string;
	"webhook-timestamp": string;
	"webhook-signature": string;
};

/** The User-Agent the service's deliveries carry. */
export const WEBHOOK_USER_AGENT = "FramedPrintWebhooks/1.0";

export type SignWebhookOptions = {
	/** The message id: the event's `id` (the service sends it as `webhook-id`, the same on every retry). */
	id: string;
	/** When it is signed, in unix seconds; now unless given. */
	timestampSeconds?: number;
};

const encoder = new TextEncoder();

function toHex(bytes: Uint8Array): string {
	return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** `t=<seconds>,v1=<hex HMAC-SHA256(secret as UTF-8 text, body)>`, as the service's `SVC-Signature`. */
async function svcSignature(rawBody: string, secret: string, timestampSeconds: number): Promise<string> {
	const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
		"sign",
	]);
	const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(rawBody)));
	return `t=${timestampSeconds},v1=${toHex(digest)}`;
}

/**
 * The headers the service would send `rawBody` with, signed with `secret` (the mode's webhook secret
 * as issued, `whsec_…`). `rawBody` is the exact text to send: the signatures cover its bytes.
 * Throws a `TypeError` when the secret is not `whsec_` followed by base64.
 */
export async function signWebhook(
	rawBody: string,
	secret: string,
	options: SignWebhookOptions,
): Promise<WebhookDeliveryHeaders> {
	const timestampSeconds = Math.floor(options.timestampSeconds ?? Date.now() / 1000);
	let signer: Webhook;
	try {
		signer = new Webhook(secret);
	} catch {
		throw new TypeError("The webhook secret is not one the service issued (whsec_ followed by base64).");
	}
	return {
		"Content-Type": "application/json",
		"User-Agent": WEBHOOK_USER_AGENT,
		"SVC-Signature": await svcSignature(rawBody, secret, timestampSeconds),
		"webhook-id": options.id,
		"webhook-timestamp": String(timestampSeconds),
		"webhook-signature": signer.sign(options.id, new Date(timestampSeconds * 1000), rawBody),
	};
}
