import { describe, expect, it } from "vitest";
import { conformanceProblems } from "../conformance.ts";
import { api, createPartner } from "../helpers.ts";

/** A real answer of the service, to be altered one way at a time. */
async function realEndpointAnswer(): Promise<{ body: Record<string, unknown>; headers: Headers }> {
	const key = (await createPartner()).keys.live.key;
	const response = await api("/v1/webhook-endpoints", {
		method: "POST",
		key,
		body: JSON.stringify({ url: "https://hooks.partner.example/ok/conformance" }),
	});
	expect(response.status).toBe(201);
	return { body: (await response.json()) as Record<string, unknown>, headers: new Headers(response.headers) };
}

const sent = { method: "POST", url: "https://api.test/v1/webhook-endpoints" };

function answer(body: unknown, headers: Headers, status = 201): Response {
	return new Response(JSON.stringify(body), { status, headers });
}

describe("the conformance harness (every response of the workers tests, checked against the document)", () => {
	it("passes a real answer as the service sent it", async () => {
		const { body, headers } = await realEndpointAnswer();
		expect(await conformanceProblems(sent, answer(body, headers))).toEqual([]);
	});

	it("fails a field the document does not name, a missing field, a wrong type and a malformed date-time", async () => {
		const { body, headers } = await realEndpointAnswer();
		const altered: Array<[string, Record<string, unknown>]> = [
			["extra", { ...body, secret: "whsec_leaked" }],
			["missing", Object.fromEntries(Object.entries(body).filter(([name]) => name !== "url"))],
			["type", { ...body, events: "order.shipped" }],
			["format", { ...body, created_at: "yesterday" }],
		];
		for (const [what, changed] of altered) {
			const problems = await conformanceProblems(sent, answer(changed, headers));
			expect(problems, what).toEqual([expect.stringContaining("the body does not match the document")]);
		}
	});

	it("fails a status the operation does not list, an undocumented header and a listed header that is missing", async () => {
		const { body, headers } = await realEndpointAnswer();
		expect(await conformanceProblems(sent, answer(body, headers, 202))).toEqual([
			expect.stringContaining("the status is not documented"),
		]);
		const extra = new Headers(headers);
		extra.set("X-Debug-Query", "SELECT 1");
		extra.set("ETag", '"abc"');
		const problems = await conformanceProblems(sent, answer(body, extra));
		expect(problems).toEqual([expect.stringContaining("header etag"), expect.stringContaining("header x-debug-query")]);
		const without = new Headers(headers);
		without.delete("X-Request-Id");
		expect(await conformanceProblems(sent, answer(body, without))).toEqual([
			expect.stringContaining("header x-request-id is missing"),
		]);
	});

	it("fails a content type the response does not list, and leaves routes outside the document alone", async () => {
		const { headers } = await realEndpointAnswer();
		const html = new Headers(headers);
		html.set("Content-Type", "text/html");
		expect(await conformanceProblems(sent, new Response("<p>hi</p>", { status: 201, headers: html }))).toEqual([
			expect.stringContaining("Content-Type text/html is not documented"),
		]);
		const console = { method: "GET", url: "https://api.test/ops/orders" };
		expect(await conformanceProblems(console, new Response("<p>hi</p>", { status: 200, headers: html }))).toEqual([]);
	});

	it("checks the floor's and the service team's operations against their own documents too", async () => {
		for (const url of ["https://api.test/v1/ops/orders/ord_x", "https://api.test/v1/admin/accounts/acct_x/keys"]) {
			const method = url.includes("/ops/") ? "GET" : "POST";
			const problems = await conformanceProblems({ method, url }, new Response("{}", { status: 202 }));
			expect(problems, url).toEqual([expect.stringContaining("the status is not documented")]);
		}
	});
});
