/**
 * The outside world of the Workers tests, served from Node through Miniflare's `outboundService`:
 * every outbound `fetch` of the worker under test lands here (there is no network).
 *
 * `https://files.partner.example` is a partner's file server: tests PUT bytes to a path, and the
 * worker then GETs them as a `print_file_url`. Special paths: `/redirect?to=<url>` answers 302,
 * `/status/<code>` answers that status, `/chunked/<path>` serves a stored file without Content-Length,
 * `/loop` redirects to itself for ever.
 * Any other host answers 502, as an unreachable one would.
 */
const files = new Map<string, Uint8Array>();

export async function partnerHosts(request: Request): Promise<Response> {
	const url = new URL(request.url);
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
