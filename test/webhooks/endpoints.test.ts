import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app.ts";
import { SENT_EVENT_TYPES } from "../../src/openapi/event-catalog.ts";
import { MAX_ENDPOINTS_PER_MODE } from "../../src/webhooks/endpoints.ts";
import { verifySignature } from "../../src/webhooks/signature.ts";
import { expectConformance } from "../conformance.ts";
import { api, createKeyWithScopes, createPartner, expectError, send } from "../helpers.ts";
import { createOrder, orderBody, readyFile, settleValidation, TRACKING } from "../orders/order-helpers.ts";
import type { ReceivedRequest } from "../outbound/partner-hosts.ts";
import { waitFor } from "../polling.ts";
import { hookUrl, receivedAt, waitForReceived } from "./webhook-helpers.ts";

type Endpoint = {
	id: string;
	url: string;
	events: string[];
	description: string | null;
	mode: string;
	created_at: string;
};

type EndpointDelivery = { id: string; endpoint_id: string; status: string; url: string; attempts: number };
type LoggedEvent = {
	id: string;
	type: string;
	delivery: { id: string; status: string; url: string | null } | null;
	endpoint_deliveries: EndpointDelivery[];
};

async function addEndpoint(key: string, body: Record<string, unknown>): Promise<Endpoint> {
	const response = await send("POST", "/v1/webhook-endpoints", key, body);
	expect(response.status).toBe(201);
	return (await response.json()) as Endpoint;
}

async function listEndpoints(key: string): Promise<Endpoint[]> {
	const response = await api("/v1/webhook-endpoints", { key });
	expect(response.status).toBe(200);
	return ((await response.json()) as { data: Endpoint[] }).data;
}

async function eventsOfOrder(key: string, orderId: string): Promise<LoggedEvent[]> {
	const response = await api(`/v1/events?order_id=${orderId}`, { key });
	expect(response.status).toBe(200);
	return ((await response.json()) as { data: LoggedEvent[] }).data;
}

const eventNames = (requests: ReceivedRequest[]) =>
	requests.map((request) => (JSON.parse(request.body) as { event: string }).event);

/** Standard Webhooks headers of a received request, for the `standardwebhooks` package. */
function standardHeaders(request: ReceivedRequest): Record<string, string> {
	return {
		"webhook-id": request.headers["webhook-id"] ?? "",
		"webhook-timestamp": request.headers["webhook-timestamp"] ?? "",
		"webhook-signature": request.headers["webhook-signature"] ?? "",
	};
}

/** A partner whose live order is in production, with its callback URL. */
async function orderInProduction(key: string, callbackUrl: string) {
	const fileId = await readyFile(key, 2400, 3000);
	const created = await createOrder(key, orderBody(fileId, { callback_url: callbackUrl }));
	expect((await settleValidation(key, created.id)).status).toBe("in_production");
	return created;
}

describe("webhook endpoints", () => {
	it("registers an endpoint for the key's mode, subscribed to every sent event by default, and lists and reads it", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const url = hookUrl("ok");
		const endpoint = await addEndpoint(key, { url, description: "Shop fulfilment" });
		expect(endpoint).toMatchObject({ url, description: "Shop fulfilment", mode: "live" });
		expect(endpoint.id).toMatch(/^whe_[0-9A-Za-z]{24}$/);
		expect(endpoint.events).toEqual([...SENT_EVENT_TYPES]);
		expect(endpoint.events).not.toContain("order.received");
		const chosen = await addEndpoint(key, {
			url: hookUrl("ok"),
			events: ["order.delivered", "order.shipped", "order.shipped"],
		});
		expect(chosen.events).toEqual(["order.shipped", "order.delivered"]);
		expect(chosen.description).toBeNull();
		expect((await listEndpoints(key)).map((each) => each.id)).toEqual([endpoint.id, chosen.id]);
		const read = await api(`/v1/webhook-endpoints/${endpoint.id}`, { key });
		expect(read.status).toBe(200);
		expect(await read.json()).toEqual(endpoint);
	});

	it("keeps each account's and each mode's endpoints apart: another's is not found, listed, deleted or pinged", async () => {
		const owner = await createPartner();
		const other = await createPartner("Other Gallery");
		const endpoint = await addEndpoint(owner.keys.live.key, { url: hookUrl("ok") });
		for (const key of [other.keys.live.key, owner.keys.test.key]) {
			expect(await listEndpoints(key)).toEqual([]);
			await expectError(await api(`/v1/webhook-endpoints/${endpoint.id}`, { key }), "not_found", "id");
			await expectError(
				await api(`/v1/webhook-endpoints/${endpoint.id}`, { key, method: "DELETE" }),
				"not_found",
				"id",
			);
			await expectError(
				await api(`/v1/webhook-endpoints/${endpoint.id}/test`, { key, method: "POST" }),
				"not_found",
				"id",
			);
		}
		expect((await listEndpoints(owner.keys.live.key)).map((each) => each.id)).toEqual([endpoint.id]);
		expect(await receivedAt(endpoint.url)).toEqual([]);
		const overlong = `whe_${"x".repeat(5000)}`;
		await expectError(await api(`/v1/webhook-endpoints/${overlong}`, { key: owner.keys.live.key }), "not_found", "id");
	});

	it("refuses a URL the service may not call, an unknown or empty event list, an unknown field and a control character", async () => {
		const key = (await createPartner()).keys.live.key;
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ url: "not a url" }, "url"],
			[{ url: "https://10.0.0.8/hooks" }, "url"],
			[{ url: "ftp://hooks.partner.example/x" }, "url"],
			[{ url: hookUrl("ok"), events: [] }, "events"],
			[{ url: hookUrl("ok"), events: ["order.received"] }, "events[0]"],
			[{ url: hookUrl("ok"), events: ["order.exploded"] }, "events[0]"],
			[{ url: hookUrl("ok"), description: "two\nlines" }, "description"],
			[{ url: hookUrl("ok"), secret: "mine" }, "secret"],
			[{ url: `https://hooks.partner.example/${"a".repeat(2100)}` }, "url"],
		];
		for (const [body, field] of cases) {
			await expectError(await send("POST", "/v1/webhook-endpoints", key, body), "validation_error", field);
		}
		await expectError(await api("/v1/webhook-endpoints", { key, method: "POST", body: '{"url": ' }), "bad_request");
		expect(await listEndpoints(key)).toEqual([]);
	});

	it(`allows at most ${MAX_ENDPOINTS_PER_MODE} endpoints per account and mode, even when added all at once`, async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const answers = await Promise.all(
			Array.from({ length: MAX_ENDPOINTS_PER_MODE + 3 }, () =>
				send("POST", "/v1/webhook-endpoints", key, { url: hookUrl("ok") }),
			),
		);
		const statuses = answers.map((answer) => answer.status);
		expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_ENDPOINTS_PER_MODE);
		for (const answer of answers.filter((each) => each.status !== 201)) {
			const error = await expectError(answer, "conflict");
			expect(error.message).toMatch(/already has 10 live webhook endpoints/);
		}
		expect(await listEndpoints(key)).toHaveLength(MAX_ENDPOINTS_PER_MODE);
		// The test mode has its own ten.
		await addEndpoint(partner.keys.test.key, { url: hookUrl("ok") });
	});

	it("refuses a second endpoint at the same URL in the same mode with 409, and allows it in the other mode", async () => {
		const partner = await createPartner();
		const url = hookUrl("ok");
		await addEndpoint(partner.keys.live.key, { url });
		await expectError(await send("POST", "/v1/webhook-endpoints", partner.keys.live.key, { url }), "conflict", "url");
		await addEndpoint(partner.keys.test.key, { url });
	});

	it("one receiver is one endpoint: other spellings of a registered URL are a 409 on url, and the URL is kept normalised", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const url = hookUrl("ok");
		const path = new URL(url).pathname;
		const [, kind, id] = path.split("/");
		// Registered as written oddly, it is stored and answered as the URL parser writes it.
		const registered = await addEndpoint(key, { url: `HTTPS://Hooks.Partner.Example:443/${kind}/./${id}?#first` });
		expect(registered.url).toBe(url);
		expect((await listEndpoints(key)).map((each) => each.url)).toEqual([url]);
		const spellings = [
			url,
			`${url}?`,
			`${url}#x`,
			`HTTPS://HOOKS.PARTNER.EXAMPLE${path}`,
			`https://hooks.partner.example:443${path}`,
			`https://hooks.partner.example/${kind}/./${id}`,
			`https://hooks.partner.example/${kind}/elsewhere/../${id}`,
			`https:hooks.partner.example${path}`,
		];
		for (const spelling of spellings) {
			const error = await expectError(
				await send("POST", "/v1/webhook-endpoints", key, { url: spelling }),
				"conflict",
				"url",
			);
			expect(error.message, spelling).toContain(url);
		}
		// Case in the path, and a query that is not empty, are other URLs.
		expect((await addEndpoint(key, { url: url.replace("/ok/", "/OK/") })).url).toBe(url.replace("/ok/", "/OK/"));
		expect((await addEndpoint(key, { url: `${url}?a=1` })).url).toBe(`${url}?a=1`);
		expect(await listEndpoints(key)).toHaveLength(3);
	});

	it("spellings of one URL registered all at once: the database keeps one, the others are a 409 on url", async () => {
		const key = (await createPartner()).keys.live.key;
		const url = hookUrl("ok");
		const path = new URL(url).pathname;
		const spellings = [
			url,
			`${url}?`,
			`${url}#x`,
			`HTTPS://HOOKS.PARTNER.EXAMPLE${path}`,
			`${url.replace(path, `/.${path}`)}`,
		];
		const answers = await Promise.all(
			spellings.map((spelling) => send("POST", "/v1/webhook-endpoints", key, { url: spelling })),
		);
		expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
		for (const answer of answers.filter((each) => each.status !== 201)) await expectError(answer, "conflict", "url");
		expect((await listEndpoints(key)).map((each) => each.url)).toEqual([url]);
	});

	it("in development, http://127.0.0.1:P/hook and its other spellings are one endpoint", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const development: Env = { ...env, ENVIRONMENT: "development" };
		const post = async (url: string) => {
			const request = new Request("https://api.test/v1/webhook-endpoints", {
				method: "POST",
				headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
				body: JSON.stringify({ url }),
			});
			const response = await app.fetch(request, development, createExecutionContext());
			await expectConformance({ method: request.method, url: request.url }, response.clone());
			return response;
		};
		const port = 48213;
		const url = `http://127.0.0.1:${port}/hook`;
		const first = await post(url);
		expect(first.status).toBe(201);
		expect(((await first.json()) as Endpoint).url).toBe(url);
		for (const spelling of [
			`${url}?`,
			`HTTP://127.0.0.1:${port}/hook`,
			`${url}#x`,
			`http://2130706433:${port}/hook`,
			`http://127.0.0.1:${port}/./hook`,
			`http://0x7f.1:${port}/hook`,
		]) {
			const error = await expectError(await post(spelling), "conflict", "url");
			expect(error.message, spelling).toContain(url);
		}
		expect((await listEndpoints(key)).map((each) => each.url)).toEqual([url]);
		// The default port is no part of the URL either.
		const plain = await post("http://127.0.0.1:80/hook");
		expect(((await plain.json()) as Endpoint).url).toBe("http://127.0.0.1/hook");
		await expectError(await post("http://127.0.0.1/hook#again"), "conflict", "url");
	});

	it("needs orders:write to add, delete or ping an endpoint, and events:read to list one", async () => {
		const reader = await createKeyWithScopes(["events:read"]);
		const writer = await createKeyWithScopes(["orders:write"]);
		await expectError(await send("POST", "/v1/webhook-endpoints", reader, { url: hookUrl("ok") }), "forbidden");
		expect((await api("/v1/webhook-endpoints", { key: reader })).status).toBe(200);
		await expectError(await api("/v1/webhook-endpoints", { key: writer }), "forbidden");
		await expectError(await api("/v1/webhook-endpoints"), "unauthorized");
	});

	it("sends each event to the order's callback_url and to every endpoint subscribed to its type, each a delivery of its own", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const opsKey = await createKeyWithScopes(["ops"]);
		const everything = await addEndpoint(key, { url: hookUrl("ok") });
		const shippedOnly = await addEndpoint(key, { url: hookUrl("ok"), events: ["order.shipped"] });
		const testMode = await addEndpoint(partner.keys.test.key, { url: hookUrl("ok") });
		const callbackUrl = hookUrl("ok");
		const order = await orderInProduction(key, callbackUrl);
		await waitForReceived(everything.url, (requests) => eventNames(requests).includes("order.in_production"));
		expect((await send("POST", `/v1/ops/orders/${order.id}/ship`, opsKey, TRACKING)).status).toBe(200);

		// The ship is a shipment too: its shipment.created goes out beside order.shipped, each on its own.
		const wanted = ["order.in_production", "order.shipped", "shipment.created"];
		for (const url of [callbackUrl, everything.url]) {
			const requests = await waitForReceived(url, (all) => eventNames(all).length === wanted.length);
			expect(eventNames(requests).sort()).toEqual(wanted);
		}
		const shipped = await waitForReceived(shippedOnly.url);
		expect(eventNames(shipped)).toEqual(["order.shipped"]);
		// Every copy is the same event, signed for the live mode, and verifies with the maintained library.
		const copies = [...(await receivedAt(callbackUrl)), ...(await receivedAt(everything.url)), ...shipped].filter(
			(request) => JSON.parse(request.body).event === "order.shipped",
		);
		expect(new Set(copies.map((request) => request.body)).size).toBe(1);
		for (const request of copies) {
			expect(new Webhook(partner.webhook_secret).verify(request.body, standardHeaders(request))).toMatchObject({
				event: "order.shipped",
				order_id: order.id,
			});
		}
		expect(await receivedAt(testMode.url)).toEqual([]);

		const events = await waitFor(
			() => eventsOfOrder(key, order.id),
			(all) =>
				all
					.filter((event) => event.type !== "order.received")
					.every(
						(event) =>
							event.delivery?.status === "delivered" &&
							event.endpoint_deliveries.every((delivery) => delivery.status === "delivered"),
					),
		);
		const shippedEvent = events.find((event) => event.type === "order.shipped");
		expect(shippedEvent?.delivery).toMatchObject({ status: "delivered", url: callbackUrl });
		expect(shippedEvent?.endpoint_deliveries.map((delivery) => delivery.endpoint_id).sort()).toEqual(
			[everything.id, shippedOnly.id].sort(),
		);
		const ids = [shippedEvent?.delivery?.id, ...(shippedEvent?.endpoint_deliveries ?? []).map((each) => each.id)];
		expect(new Set(ids).size).toBe(3);
		for (const id of ids) expect(id).toMatch(/^dlv_/);
		const inProduction = events.find((event) => event.type === "order.in_production");
		expect(inProduction?.endpoint_deliveries.map((delivery) => delivery.endpoint_id)).toEqual([everything.id]);
		expect(events.find((event) => event.type === "order.received")).toMatchObject({
			delivery: null,
			endpoint_deliveries: [],
		});
	}, 30_000);

	it("sends a test order's events to the test endpoints only, signed with the test secret", async () => {
		const partner = await createPartner();
		const live = await addEndpoint(partner.keys.live.key, { url: hookUrl("ok") });
		const test = await addEndpoint(partner.keys.test.key, { url: hookUrl("ok"), events: ["order.in_production"] });
		const key = partner.keys.test.key;
		const fileId = await readyFile(key, 2400, 3000);
		const created = await createOrder(key, orderBody(fileId));
		// The sandbox may move it on at once; the endpoint gets only the type it chose.
		await settleValidation(key, created.id);
		const [request] = await waitForReceived(test.url);
		expect(request).toBeDefined();
		if (request === undefined) return;
		expect(new Webhook(partner.webhook_secrets.test).verify(request.body, standardHeaders(request))).toMatchObject({
			event: "order.in_production",
			order_id: created.id,
		});
		expect(() => new Webhook(partner.webhook_secrets.live).verify(request.body, standardHeaders(request))).toThrow();
		expect(await receivedAt(live.url)).toEqual([]);
		expect(eventNames(await receivedAt(test.url))).toEqual(["order.in_production"]);
	});

	it("retries a failing endpoint on its own schedule while the callback and the other endpoints are delivered", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const failing = await addEndpoint(key, { url: hookUrl("status/500") });
		const healthy = await addEndpoint(key, { url: hookUrl("ok") });
		const callbackUrl = hookUrl("ok");
		const order = await orderInProduction(key, callbackUrl);
		const [event] = await waitFor(
			() => eventsOfOrder(key, order.id),
			(all) => {
				const endpoints = all[0]?.endpoint_deliveries ?? [];
				return all[0]?.delivery?.status === "delivered" && endpoints.every((each) => each.attempts >= 1);
			},
		);
		const byEndpoint = new Map(event?.endpoint_deliveries.map((each) => [each.endpoint_id, each]));
		expect(byEndpoint.get(healthy.id)).toMatchObject({ status: "delivered", attempts: 1 });
		expect(byEndpoint.get(failing.id)).toMatchObject({
			status: "pending",
			attempts: 1,
			last_status_code: 500,
			last_error: "HTTP 500: status 500",
		});
		expect(byEndpoint.get(failing.id)).toHaveProperty("next_attempt_at");
		// The failing one shows up when the log is filtered by delivery status.
		const pending = await api(`/v1/events?order_id=${order.id}&delivery_status=pending`, { key });
		expect(((await pending.json()) as { data: LoggedEvent[] }).data.map((each) => each.id)).toEqual([event?.id]);
	});

	it("deletes an endpoint: 204, nothing more is sent to it, its pending deliveries end as failed, and redelivery skips it", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const opsKey = await createKeyWithScopes(["ops"]);
		const failing = await addEndpoint(key, { url: hookUrl("status/503") });
		const kept = await addEndpoint(key, { url: hookUrl("ok") });
		const order = await orderInProduction(key, hookUrl("ok"));
		await waitFor(
			() => eventsOfOrder(key, order.id),
			(all) => (all[0]?.endpoint_deliveries ?? []).every((each) => each.attempts >= 1),
		);
		const deleted = await api(`/v1/webhook-endpoints/${failing.id}`, { key, method: "DELETE" });
		expect(deleted.status).toBe(204);
		expect(await deleted.text()).toBe("");
		await expectError(await api(`/v1/webhook-endpoints/${failing.id}`, { key }), "not_found", "id");
		await expectError(await api(`/v1/webhook-endpoints/${failing.id}`, { key, method: "DELETE" }), "not_found", "id");
		const [event] = await eventsOfOrder(key, order.id);
		const failed = event?.endpoint_deliveries.find((each) => each.endpoint_id === failing.id);
		expect(failed).toMatchObject({ status: "failed", last_error: "The endpoint was deleted.", next_attempt_at: null });

		expect((await send("POST", `/v1/ops/orders/${order.id}/ship`, opsKey, TRACKING)).status).toBe(200);
		await waitForReceived(kept.url, (requests) => eventNames(requests).includes("order.shipped"));
		const [shipped] = await eventsOfOrder(key, order.id);
		expect(shipped?.endpoint_deliveries.map((each) => each.endpoint_id)).toEqual([kept.id]);

		const before = (await receivedAt(failing.url)).length;
		const redelivered = await api(`/v1/events/${event?.id}/redeliver`, { key, method: "POST" });
		expect(redelivered.status).toBe(200);
		const body = (await redelivered.json()) as LoggedEvent;
		expect(body.endpoint_deliveries.find((each) => each.endpoint_id === failing.id)?.status).toBe("failed");
		expect(body.endpoint_deliveries.find((each) => each.endpoint_id === kept.id)?.status).toMatch(/pending|delivered/);
		await waitForReceived(
			kept.url,
			(requests) => eventNames(requests).filter((name) => name === "order.in_production").length === 2,
		);
		expect((await receivedAt(failing.url)).length).toBe(before);
	}, 30_000);

	it("redelivers an event to its callback_url and its endpoints, and to an endpoint alone when the order has no callback_url", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const endpoint = await addEndpoint(key, { url: hookUrl("ok") });
		const fileId = await readyFile(key, 2400, 3000);
		const created = await createOrder(key, orderBody(fileId));
		expect((await settleValidation(key, created.id)).status).toBe("in_production");
		await waitForReceived(endpoint.url);
		const [event] = await eventsOfOrder(key, created.id);
		expect(event?.delivery).toMatchObject({ status: "no_endpoint", url: null });
		const answer = await api(`/v1/events/${event?.id}/redeliver`, { key, method: "POST" });
		expect(answer.status).toBe(200);
		await waitForReceived(endpoint.url, (requests) => requests.length === 2);
		const [first, second] = await receivedAt(endpoint.url);
		expect(first?.body).toBe(second?.body);
		expect(first?.headers["webhook-id"]).toBe(second?.headers["webhook-id"]);
	});

	it("pings an endpoint with a signed ping and answers what the receiver said, recording nothing", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const endpoint = await addEndpoint(key, { url: hookUrl("ok"), events: ["order.shipped"] });
		const answer = await api(`/v1/webhook-endpoints/${endpoint.id}/test`, { key, method: "POST" });
		expect(answer.status).toBe(200);
		const result = (await answer.json()) as { id: string; delivered: boolean; status_code: number; error: null };
		expect(result).toMatchObject({ delivered: true, status_code: 200, error: null });
		expect(result.id).toMatch(/^ping_/);
		const [request] = await receivedAt(endpoint.url);
		if (request === undefined) throw new Error("no ping arrived");
		const body = new Webhook(partner.webhook_secret).verify(request.body, standardHeaders(request));
		expect(body).toMatchObject({ id: result.id, event: "ping", endpoint_id: endpoint.id, mode: "live" });
		expect(request.headers["webhook-id"]).toBe(result.id);
		expect(
			await verifySignature(request.body, request.headers["svc-signature"] ?? "", [partner.webhook_secret], {
				toleranceSeconds: 300,
			}),
		).toBe(true);
		const events = await env.DB.prepare("SELECT COUNT(*) AS n FROM events WHERE account_id = ?1")
			.bind(partner.account.id)
			.first<{ n: number }>();
		expect(events?.n).toBe(0);
	});

	it("answers a ping that the receiver refuses or never answers with delivered false and the reason", async () => {
		const key = (await createPartner()).keys.live.key;
		const refusing = await addEndpoint(key, { url: hookUrl("status/410") });
		const refused = await api(`/v1/webhook-endpoints/${refusing.id}/test`, { key, method: "POST" });
		expect(await refused.json()).toMatchObject({ delivered: false, status_code: 410, error: "HTTP 410: status 410" });
		const hanging = await addEndpoint(key, { url: hookUrl("hang") });
		const timedOut = await api(`/v1/webhook-endpoints/${hanging.id}/test`, { key, method: "POST" });
		expect(timedOut.status).toBe(200);
		expect(await timedOut.json()).toMatchObject({ delivered: false, status_code: null, error: "No answer within 1 s" });
	});
});
