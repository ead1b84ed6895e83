/**
 * The Standard Webhooks headers (standardwebhooks.com) every webhook carries beside `SVC-Signature`,
 * signed by the `standardwebhooks` package itself, so the headers are what its verifiers (in any
 * language) accept.
 *
 * The key: the mode's webhook secret exactly as issued. A secret is `whsec_` and 32 base62
 * characters; base62 is part of the base64 alphabet and 32 characters need no padding, so the text
 * after `whsec_` is already the base64 secret the scheme expects, and its 24 decoded bytes are the
 * HMAC key. Nothing is derived or stored beside the secret: a receiver hands the same text to its
 * library, `new Webhook(secret)`.
 */
import { Webhook } from "standardwebhooks";

/** The three headers, by their lower-case names. */
export type StandardWebhookHeaders = Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string>;

/**
 * `webhook-id` (the event's id, the same on every retry), `webhook-timestamp` (unix seconds of this
 * attempt) and `webhook-signature`: one `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per secret,
 * space-separated, in the given order (new first during a rotation). Throws when a secret is not
 * `whsec_` and base64: the service's fault, not the receiver's.
 */
export function standardWebhookHeaders(
	messageId: string,
	rawBody: string,
	secrets: readonly string[],
	nowSeconds: number,
): StandardWebhookHeaders {
	if (secrets.length === 0) throw new TypeError("standardWebhookHeaders needs at least one secret");
	const timestamp = Math.floor(nowSeconds);
	const signedAt = new Date(timestamp * 1000);
	const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, signedAt, rawBody));
	return { "webhook-id": messageId, "webhook-timestamp": String(timestamp), "webhook-signature": signatures.join(" ") };
}
