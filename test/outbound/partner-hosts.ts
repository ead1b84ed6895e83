/**
 * The outside world of the Workers tests, served from Node through Miniflare's `outboundService`:
 * every outbound `fetch` of the worker under test lands here (there is no network).
 *
 * `https://files.partner.example` is a partner's file server: tests PUT bytes to a path, and the
 * worker then GETs them as a `print_file_url`. Special paths: `/redirect?to=<url>` answers 302,
 * `/status/<code>` answers that status, `/chunked/<path>` serves a stored file without Content-Length,
 * `/loop` redirects to itself for ever.
 * `https://hooks.partner.example` is a partner's webhook receiver. It records every request (method,
 * headers, body) under its path, and `GET /__received/<path>` returns what arrived there as JSON. What
 * it answers depends on the path's first segment: `/ok/...` 200; `/fail-then-ok/<n>/...` 500 for the
 * first n requests to that path, then 200; `/status/<code>/...` that status (a 3xx with a Location);
 * `/retry-after/<seconds>/...` 429 with that Retry-After; `/slow/<ms>/...` 200 after that many ms;
 * `/slow-body/<code>/<ms>/...` that status at once, with a body of which "partial " comes at once
 * and the rest after that many ms; `/hang/...` never answers (until the caller gives up).
 * Any other host answers 502, as an unreachable one would.
 */
const files = new Map<string, Uint8Array>();

/** A request the webhook receiver got. */
export type ReceivedRequest = {
	method: string;
	path: string;
	headers: Record<string, string>;
	body: string;
	at: number;
};
const received = new Map<string, ReceivedRequest[]>();

async function webhookReceiver(request: Request, url: URL): Promise<Response> {
	if (request.method === "GET" && url.pathname.startsWith("/__received/")) {
		const path = url.pathname.slice("/__received".length);
		return Response.json(received.get(path) ?? []);
	}
	const entry: ReceivedRequest = {
		method: request.method,
		path: url.pathname,
		headers: Object.fromEntries(request.headers),
		body: await request.text(),
		at: Date.now(),
	};
	const log = received.get(url.pathname) ?? [];
	log.push(entry);
	received.set(url.pathname, log);
	const [, kind, argument] = url.pathname.split("/");
	switch (kind) {
		case "fail-then-ok":
			return new Response(log.length <= Number(argument) ? "not yet" : "ok", {
				status: log.length <= Number(argument) ? 500 : 200,
			});
		case "status": {
			const status = Number(argument);
			const headers =
				status >= 300 && status < 400 ? { Location: "https://hooks.partner.example/ok/redirected" } : undefined;
			return new Response(status >= 300 && status < 400 ? null : `status ${status}`, { status, headers });
		}
		case "retry-after":
			return new Response("slow down", { status: 429, headers: { "Retry-After": String(argument) } });
		case "slow":
			await new Promise((resolve) => setTimeout(resolve, Number(argument)));
			return new Response("ok", { status: 200 });
		case "slow-body":
			return slowBodyResponse(Number(argument), Number(url.pathname.split("/")[3]), request.signal);
		case "hang":
			await new Promise((resolve) => {
				const timer = setTimeout(resolve, 60_000);
				request.signal.addEventListener("abort", () => {
					clearTimeout(timer);
					resolve(undefined);
				});
			});
			return new Response("too late", { status: 200 });
		default:
			return new Response("ok", { status: 200 });
	}
}

/** A response whose status line comes at once and whose body trickles: "partial " now, the rest after `ms`. */
function slowBodyResponse(status: number, ms: number, abort: AbortSignal): Response {
	const encoder = new TextEncoder();
	let timer: ReturnType<typeof setTimeout> | undefined;
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			controller.enqueue(encoder.encode("partial "));
			timer = setTimeout(() => {
				controller.enqueue(encoder.encode("and the rest, much later"));
				controller.close();
			}, ms);
			abort.addEventListener("abort", () => {
				if (timer !== undefined) clearTimeout(timer);
			});
		},
		cancel() {
			// The caller stopped reading: nothing more to send.
			if (timer !== undefined) clearTimeout(timer);
		},
	});
	return new Response(body, { status });
}

export async function partnerHosts(request: Request): Promise<Response> {
	const url = new URL(request.url);
	if (url.hostname === "hooks.partner.example") return webhookReceiver(request, url);
	if (url.hostname !== "files.partner.example") {
		return new Response(`no host ${url.hostname} in the tests`, { status: 502 });
	}
	if (request.method === "PUT") {
		files.set(url.pathname, new Uint8Array(await request.arrayBuffer()));
		return new Response(null, { status: 201 });
	}
	if (url.pathname === "/redirect") {
		return new Response(null, { status: 302, headers: { Location: url.searchParams.get("to") ?? "/" } });
	}
	if (url.pathname === "/loop") {
		return new Response(null, { status: 302, headers: { Location: "/loop" } });
	}
	const status = /^\/status\/(\d{3})$/.exec(url.pathname);
	if (status?.[1] !== undefined) return new Response("as asked", { status: Number(status[1]) });
	const slow = /^\/slow\/(\d+)(\/.*)$/.exec(url.pathname);
	if (slow?.[1] !== undefined && slow[2] !== undefined) {
		await new Promise((resolve) => setTimeout(resolve, Number(slow[1])));
		const stored = files.get(slow[2]);
		return stored === undefined ? new Response("not found", { status: 404 }) : new Response(stored, { status: 200 });
	}
	const chunked = url.pathname.startsWith("/chunked/");
	const bytes = files.get(chunked ? url.pathname.slice("/chunked".length) : url.pathname);
	if (bytes === undefined) return new Response("not found", { status: 404 });
	if (chunked) {
		const stream = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(bytes);
				controller.close();
			},
		});
		return new Response(stream, { status: 200 });
	}
	return new Response(bytes, { status: 200, headers: { "Content-Length": String(bytes.byteLength) } });
}
