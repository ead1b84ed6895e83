/**
 * `framed-print listen`'s loop: follows the account's event log through the API
 * (`GET /v1/events?after=<event id>`, oldest first) and forwards each event to a local URL with the
 * body and headers its webhook has, signed with the account's webhook secret.
 *
 * The body sent is `JSON.stringify` of the log's `body`. The service records each body as
 * `JSON.stringify` of the event and serves it parsed; parsing and serializing again gives the same
 * text (property order is kept, numbers and strings come back as they were written), so the bytes
 * forwarded are the bytes the service signs and sends. test/cli/sdk-listen.test.ts checks it against
 * real deliveries.
 *
 * Polling, every 2 seconds by default: the API has no long poll or stream, and a short interval on a
 * laptop costs a request a couple of seconds, within every rate limit (a full page is followed at once).
 *
 * Fetch, timers and Web Crypto only; the state (where it stopped) is the caller's.
 */
import { createClient, type Schemas } from "./index.ts";
import { signWebhook } from "./sign-webhook.ts";
import { WEBHOOK_EVENT_TYPES } from "./webhook-events.ts";

/** One event forwarded, as `listen` reports it. */
export type ForwardedEvent = {
	event: Schemas["Event"];
	/** The local receiver's status code; null when it could not be reached (see `error`). */
	status: number | null;
	error: string | null;
	/** How long the receiver took, in milliseconds. */
	ms: number;
};

/** Where the log is read from and where `listen` stopped: the last event's id, or `start`. */
export type ListenPosition = string;

export type ListenOptions = {
	/** The API, such as `http://localhost:8787/v1` (`/v1` may be left out). */
	apiUrl: string;
	/** The key whose mode's events are followed: `fps_test_…` or `fps_live_…`. */
	apiKey: string;
	/** That mode's webhook secret, as issued (`whsec_…`): what the forwarded requests are signed with. */
	secret: string;
	/** The local URL each event is POSTed to. */
	forwardTo: string;
	/**
	 * Only these event types are forwarded (the others are read past); every type the service sends
	 * when left out. Events the log lists but the service never sends (`order.received`) are never forwarded.
	 */
	events?: readonly string[];
	/** Where to start: after this event id, `start` (the oldest event kept) or `now` (the newest). */
	from: ListenPosition | "now";
	/** Called after each event (forwarded or read past), with the position to resume from. */
	savePosition(position: ListenPosition): Promise<void>;
	/** Called once per event forwarded. */
	onForward(forwarded: ForwardedEvent): void;
	/** Called when the API cannot be reached, is rate limited or fails (it is asked again after the interval). */
	onApiUnreachable?(message: string): void;
	/** Stops the loop (after the event being forwarded). */
	signal: AbortSignal;
	/** Between two reads that found the end of the log; 2000 ms unless given. */
	intervalMs?: number;
	/** How long the receiver has to answer; 10 000 ms, as the service allows, unless given. */
	forwardTimeoutMs?: number;
	/** The fetch to call instead of `globalThis.fetch`. */
	fetch?: (request: Request) => Promise<Response>;
};

/** Why `listen` stopped on its own: the API refused it (a key, a position it no longer has). */
export class ListenError extends Error {
	override name = "ListenError";
}

/** An answer worth asking again after a pause (rate limited, the service's failure), not a refusal. */
class PassingTrouble extends Error {}

function refusalOf(response: Response, message: string, advice = ""): Error {
	const text = `${response.status}: ${message}`;
	return response.status === 429 || response.status >= 500 ? new PassingTrouble(text) : new ListenError(text + advice);
}

/** The service's origin from an API URL given with or without its `/v1`. */
export function originOf(apiUrl: string): string {
	return apiUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
}

const PAGE_SIZE = 100;

function pause(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		if (signal.aborted) return resolve();
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal.removeEventListener("abort", done);
			resolve();
		}
		signal.addEventListener("abort", done);
	});
}

/** POSTs one event's body, signed now, to the receiver, and times the answer. */
async function forward(options: ListenOptions, event: Schemas["Event"]): Promise<ForwardedEvent> {
	const body = JSON.stringify(event.body);
	const headers = await signWebhook(body, options.secret, { id: event.id });
	const started = performance.now();
	try {
		const response = await fetch(options.forwardTo, {
			method: "POST",
			headers,
			body,
			redirect: "manual",
			signal: AbortSignal.timeout(options.forwardTimeoutMs ?? 10_000),
		});
		await response.body?.cancel();
		return { event, status: response.status, error: null, ms: Math.round(performance.now() - started) };
	} catch (error) {
		const message = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
		return { event, status: null, error: message || String(error), ms: Math.round(performance.now() - started) };
	}
}

/**
 * Follows the log until `signal` aborts, forwarding each new event in order. Throws a `ListenError`
 * when the API refuses the key or no longer has the event to resume after (archived after 90 days).
 */
export async function listen(options: ListenOptions): Promise<void> {
	const api = createClient({
		baseUrl: originOf(options.apiUrl),
		apiKey: options.apiKey,
		...(options.fetch === undefined ? {} : { fetch: options.fetch }),
	});
	const sent: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);
	const wanted = options.events === undefined || options.events.length === 0 ? sent : new Set(options.events);
	const interval = options.intervalMs ?? 2000;

	async function unreachable(error: unknown): Promise<void> {
		options.onApiUnreachable?.(error instanceof Error ? error.message : String(error));
		await pause(interval, options.signal);
	}

	let position = options.from;
	while (position === "now" && !options.signal.aborted) {
		try {
			const newest = await api.GET("/v1/events", { params: { query: { limit: 1 } } });
			if (newest.error) throw refusalOf(newest.response, newest.error.error.message);
			position = newest.data.data[0]?.id ?? "start";
			await options.savePosition(position);
		} catch (error) {
			if (error instanceof ListenError) throw error;
			await unreachable(error);
		}
	}

	while (!options.signal.aborted) {
		let page: Schemas["Event"][];
		try {
			const read = await api.GET("/v1/events", { params: { query: { after: position, limit: PAGE_SIZE } } });
			if (read.error) {
				const advice =
					read.error.error.code === "event_not_found" ? " Start again with --from now or --from start." : "";
				throw new ListenError(`${read.response.status}: ${read.error.error.message}${advice}`);
			}
			page = read.data.data;
		} catch (error) {
			if (error instanceof ListenError) throw error;
			await unreachable(error);
			continue;
		}
		for (const event of page) {
			if (options.signal.aborted) return;
			if (sent.has(event.type) && wanted.has(event.type)) options.onForward(await forward(options, event));
			position = event.id;
			await options.savePosition(position);
		}
		if (page.length < PAGE_SIZE) await pause(interval, options.signal);
	}
}
