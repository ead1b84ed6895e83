/**
 * A typed client for the Framed-Print Fulfillment API: `createClient` for the API (openapi-fetch over
 * the types generated from the service's OpenAPI document, `schema.d.ts`) and `verifyWebhook` for the
 * webhooks it sends (Standard Webhooks headers, signed with the `standardwebhooks` package, which the
 * service signs with too).
 *
 * Web APIs (fetch, TextEncoder) and two pure-JavaScript packages: it runs in Node 20+, browsers,
 * Cloudflare Workers and Deno.
 */
import createFetchClient, { type Client, type Middleware } from "openapi-fetch";
import { Webhook } from "standardwebhooks";
import type { components, paths, webhooks } from "./schema.d.ts";
import { WEBHOOK_EVENT_TYPES } from "./webhook-events.ts";

export type { components, operations, paths, webhooks } from "./schema.d.ts";
export {
	type SignWebhookOptions,
	signWebhook,
	WEBHOOK_USER_AGENT,
	type WebhookDeliveryHeaders,
} from "./sign-webhook.ts";
export { WEBHOOK_EVENT_TYPES } from "./webhook-events.ts";

/** The document's named schemas: `Schemas["Order"]`, `Schemas["CreateOrderRequest"]`, … */
export type Schemas = components["schemas"];

/** The client `createClient` returns: `GET`, `POST`, `PUT`, `PATCH`, `DELETE` on the API's paths, typed. */
export type FramedPrintClient = Client<paths>;

export type ClientOptions = {
	/** The service's origin, such as `http://localhost:8787`; the paths carry `/v1` themselves. */
	baseUrl: string;
	/** An API key, `fps_live_…` or `fps_test_…`, sent as `Authorization: Bearer <key>` on every call. */
	apiKey: string;
	/** The fetch to call instead of `globalThis.fetch` (a proxy, a test double, a Worker's service binding). */
	fetch?: (request: Request) => Promise<Response>;
};

/** Sets `Authorization: Bearer <key>` on every request the client makes. */
function bearerAuth(apiKey: string): Middleware {
	return {
		onRequest({ request }) {
			request.headers.set("Authorization", `Bearer ${apiKey}`);
			return request;
		},
	};
}

/**
 * A client for the API at `baseUrl`, authenticated with `apiKey`. Every call answers
 * `{ data, error, response }`: `data` typed by the operation's success response, `error` by its
 * error responses (the `{ error: { type, message, field?, request_id } }` envelope).
 */
export function createClient(options: ClientOptions): FramedPrintClient {
	if (options.apiKey === "") throw new TypeError("createClient needs an apiKey (fps_live_… or fps_test_…)");
	const client = createFetchClient<paths>({
		baseUrl: options.baseUrl,
		...(options.fetch === undefined ? {} : { fetch: options.fetch }),
	});
	client.use(bearerAuth(options.apiKey));
	return client;
}

/** The names of the events the service sends (the document's `webhooks`). */
export type WebhookEventType = keyof webhooks;

type WebhookBody<Type extends WebhookEventType> = NonNullable<
	webhooks[Type]["post"]["requestBody"]
>["content"]["application/json"];

/** A webhook body, by the document's `webhooks`: narrow it on `event`. */
export type WebhookEvent = { [Type in WebhookEventType]: WebhookBody<Type> }[WebhookEventType];

/** The event types this client knows, for the check at run time (generated with `schema.d.ts`). */
const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set<WebhookEventType>(WEBHOOK_EVENT_TYPES);

/** Why `verifyWebhook` refused a request. */
export type WebhookRefusal =
	| "missing_header"
	| "invalid_timestamp"
	| "timestamp_out_of_tolerance"
	| "invalid_secret"
	| "no_matching_signature"
	| "invalid_body"
	| "unknown_event";

/** Thrown by `verifyWebhook`; `reason` says why, `message` says it in a sentence. */
export class WebhookVerificationError extends Error {
	override name = "WebhookVerificationError";
	readonly reason: WebhookRefusal;

	constructor(reason: WebhookRefusal, message: string) {
		super(message);
		this.reason = reason;
	}
}

/** The request's headers: a `Headers` (fetch, Workers, Deno) or a plain object (Node's `IncomingHttpHeaders`, Express). */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export type VerifyWebhookOptions = {
	/** How far `webhook-timestamp` may be from now, either way; 300 (5 minutes) unless given. */
	toleranceSeconds?: number;
	/** Now, in unix seconds; the clock's unless given. */
	nowSeconds?: number;
};

const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const encoder = new TextEncoder();

function isHeaders(headers: WebhookHeaders): headers is Headers {
	return typeof headers.get === "function";
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
	if (isHeaders(headers)) return headers.get(name) ?? undefined;
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== name || value === undefined) continue;
		return typeof value === "string" ? value : value.join(" ");
	}
	return undefined;
}

function requiredHeader(headers: WebhookHeaders, name: string): string {
	const value = headerOf(headers, name)?.trim();
	if (value === undefined || value === "") {
		throw new WebhookVerificationError("missing_header", `The webhook has no ${name} header.`);
	}
	return value;
}

/**
 * The `standardwebhooks` signer of a secret as issued: it reads the base64 after `whsec_` as the key,
 * and refuses a secret that is not base64.
 */
function signerOf(secret: string): Webhook {
	try {
		return new Webhook(secret);
	} catch {
		throw new WebhookVerificationError(
			"invalid_secret",
			"The webhook secret is not one the service issued (whsec_ followed by base64).",
		);
	}
}

/** Looks at every byte whatever the first difference, so the time taken says nothing about where it is. */
function equalInConstantTime(a: Uint8Array, b: Uint8Array): boolean {
	if (a.length !== b.length) return false;
	let difference = 0;
	for (let index = 0; index < a.length; index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
	return difference === 0;
}

/** The `v1,<base64>` entries of `webhook-signature` (space-separated; other versions are skipped). */
function v1Signatures(header: string): Uint8Array[] {
	return header
		.split(/\s+/)
		.filter((entry) => entry.startsWith("v1,"))
		.map((entry) => encoder.encode(entry));
}

/**
 * The body as the text that was signed: a string as it is, bytes decoded as UTF-8 without losing a
 * byte order mark, so the text encodes back to the same bytes. Bytes that are not UTF-8 were never
 * signed by the service.
 */
function bodyText(rawBody: string | Uint8Array | ArrayBuffer): string {
	if (typeof rawBody === "string") return rawBody;
	try {
		return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(rawBody);
	} catch {
		throw new WebhookVerificationError("invalid_body", "The signed webhook body is not UTF-8 JSON.");
	}
}

function isWebhookEvent(value: unknown): value is WebhookEvent {
	return (
		typeof value === "object" &&
		value !== null &&
		"event" in value &&
		typeof value.event === "string" &&
		KNOWN_EVENT_TYPES.has(value.event)
	);
}

/**
 * Verifies a webhook's Standard Webhooks headers and returns its body, parsed and typed.
 *
 * - `rawBody`: the request body exactly as received (a string, or its bytes), not JSON parsed and
 *   serialized again: the signature covers the bytes.
 * - `headers`: the request's headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
 * - `secret`: the mode's webhook secret as issued (`whsec_…`), or several (the current one first)
 *   while you move to a rotated one.
 *
 * Accepts when one `v1` signature of `webhook-signature` (several during a rotation) is the one the
 * `standardwebhooks` package signs for `<webhook-id>.<webhook-timestamp>.<body>` with the secret
 * (HMAC-SHA256 keyed by the base64 after `whsec_`), compared in constant time, and `webhook-timestamp`
 * is within 5 minutes of now (checked here, so `options` can change the window). Otherwise throws a
 * `WebhookVerificationError` naming the reason. A signed body whose `event` this client does not
 * know (a service newer than the client) is refused with `unknown_event`: regenerate the client.
 * Deduplicate on the event's `id` (the same on every retry).
 */
export async function verifyWebhook(
	rawBody: string | Uint8Array | ArrayBuffer,
	headers: WebhookHeaders,
	secret: string | readonly string[],
	options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
	const id = requiredHeader(headers, "webhook-id");
	const timestamp = requiredHeader(headers, "webhook-timestamp");
	const signatureHeader = requiredHeader(headers, "webhook-signature");

	if (!/^\d{1,15}$/.test(timestamp)) {
		throw new WebhookVerificationError("invalid_timestamp", `webhook-timestamp is not unix seconds: "${timestamp}".`);
	}
	const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
	const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
	const age = now - Number(timestamp);
	// Written as "not within" so that a NaN tolerance or clock refuses instead of letting the request through.
	if (!(Math.abs(age) <= tolerance)) {
		throw new WebhookVerificationError(
			"timestamp_out_of_tolerance",
			age > 0
				? `The webhook was signed ${age} s ago, more than the ${tolerance} s allowed: a replay, or a clock far off.`
				: `The webhook is signed ${-age} s in the future, more than the ${tolerance} s allowed: a clock far off.`,
		);
	}

	const secrets = typeof secret === "string" ? [secret] : secret;
	if (secrets.length === 0) throw new WebhookVerificationError("invalid_secret", "verifyWebhook needs a secret.");
	const signers = secrets.map(signerOf);
	const candidates = v1Signatures(signatureHeader);
	const body = bodyText(rawBody);
	const signedAt = new Date(Number(timestamp) * 1000);
	let matched = false;
	for (const signer of signers) {
		const expected = encoder.encode(signer.sign(id, signedAt, body));
		for (const candidate of candidates) if (equalInConstantTime(expected, candidate)) matched = true;
	}
	if (!matched) {
		throw new WebhookVerificationError(
			"no_matching_signature",
			candidates.length === 0
				? "webhook-signature holds no v1 signature."
				: "No webhook-signature matches the body under the secret: a changed body, another mode's secret, or not from the service.",
		);
	}

	let parsed: unknown;
	try {
		// A byte order mark is signed like any byte, but is no part of the JSON.
		parsed = JSON.parse(body.replace(/^\uFEFF/, ""));
	} catch {
		throw new WebhookVerificationError("invalid_body", "The signed webhook body is not UTF-8 JSON.");
	}
	if (!isWebhookEvent(parsed)) {
		throw new WebhookVerificationError(
			"unknown_event",
			"The signed webhook body is not an event this client knows: regenerate the client from the service's document.",
		);
	}
	return parsed;
}
