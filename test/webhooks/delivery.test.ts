import {
	createExecutionContext,
	createMessageBatch,
	createScheduledController,
	getQueueResult,
	waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import worker from "../../src/index.ts";
import { SENT_ORDER_EVENT_SCHEMAS } from "../../src/orders/events.ts";
import type { Order } from "../../src/orders/response.ts";
import { attemptDelivery } from "../../src/webhooks/deliver.ts";
import type { DeliveryMessage } from "../../src/webhooks/enqueue.ts";
import { verifySignature } from "../../src/webhooks/signature.ts";
import { OVERDUE_MS } from "../../src/webhooks/sweep.ts";
import { startDelivery } from "../../src/webhooks/webhook-sender.do.ts";
import { api, createKeyWithScopes, createPartner, send } from "../helpers.ts";
import { createOrder, orderBody, readOrder, readyFile, settleValidation, TRACKING } from "../orders/order-helpers.ts";
import type { ReceivedRequest } from "../outbound/partner-hosts.ts";
import { waitFor } from "../polling.ts";
import {
	callbackDeliveryId,
	HOOKS,
	hookUrl,
	ORDER_SHIPPED_FIELDS,
	receivedAt,
	storedEvent,
	waitForReceived,
} from "./webhook-helpers.ts";

type DeliveryRow = {
	event_id: string;
	url: string | null;
	status: string;
	attempts: number;
	next_attempt_at: string | null;
	enqueued_at: string | null;
	last_attempt_at: string | null;
	last_status_code: number | null;
	last_error: string | null;
	delivered_at: string | null;
};

async function deliveryOf(eventId: string): Promise<DeliveryRow> {
	const row = await env.DB.prepare("SELECT * FROM deliveries WHERE event_id = ?1").bind(eventId).first<DeliveryRow>();
	if (row === null) throw new Error(`no delivery row for ${eventId}`);
	return row;
}

/** Polls the deliveries table until the row satisfies `done` (bounded). */
function waitForDelivery(eventId: string, done: (row: DeliveryRow) => boolean): Promise<DeliveryRow> {
	return waitFor(() => deliveryOf(eventId), done, {
		failure: (row) => `delivery ${eventId} still ${JSON.stringify(row)}`,
	});
}

async function eventIdOf(orderId: string, type: string): Promise<string> {
	const row = await env.DB.prepare("SELECT id FROM events WHERE order_id = ?1 AND type = ?2")
		.bind(orderId, type)
		.first<{ id: string }>();
	if (row === null) throw new Error(`no ${type} event for ${orderId}`);
	return row.id;
}

async function eventCreatedAt(eventId: string): Promise<Date> {
	const row = await env.DB.prepare("SELECT created_at FROM events WHERE id = ?1")
		.bind(eventId)
		.first<{ created_at: string }>();
	if (row === null) throw new Error(`no event ${eventId}`);
	return new Date(row.created_at);
}

async function freshOwner() {
	const partner = await createPartner();
	return { partner, owner: { accountId: partner.account.id, mode: "live" as const } };
}

/** The Standard Webhooks headers of a received request, as `Webhook.verify` takes them. */
function standardHeadersOf(
	request: ReceivedRequest,
): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
	return {
		"webhook-id": request.headers["webhook-id"] ?? "",
		"webhook-timestamp": request.headers["webhook-timestamp"] ?? "",
		"webhook-signature": request.headers["webhook-signature"] ?? "",
	};
}

/** Asserts `at` is `base` + `seconds` (±10%). */
function expectAfter(at: string | null, base: Date, seconds: number, jitter = 0.1) {
	expect(at).not.toBeNull();
	const delta = (new Date(at ?? "").getTime() - base.getTime()) / 1000;
	expect(delta).toBeGreaterThanOrEqual(seconds * (1 - jitter) - 0.001);
	expect(delta).toBeLessThanOrEqual(seconds * (1 + jitter) + 0.001);
}

describe("webhook delivery", () => {
	it("sends order.shipped, signed, with exactly the spec's fields, and records it delivered", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const opsKey = await createKeyWithScopes(["ops"]);
		const callbackUrl = hookUrl("ok");
		const fileId = await readyFile(key, 2400, 3000);
		const created = await createOrder(key, orderBody(fileId, { callback_url: callbackUrl }));
		expect((await settleValidation(key, created.id)).status).toBe("in_production");

		const bodiesOf = (requests: ReceivedRequest[]) =>
			requests.map((request) => JSON.parse(request.body) as Record<string, unknown>);
		await waitForReceived(callbackUrl, (requests) =>
			bodiesOf(requests).some((body) => body.event === "order.in_production"),
		);

		const shipResponse = await send("POST", `/v1/ops/orders/${created.id}/ship`, opsKey, TRACKING);
		expect(shipResponse.status).toBe(200);
		const order: Order = await readOrder(key, created.id);
		expect(order.status).toBe("shipped");

		const requests = await waitForReceived(callbackUrl, (all) =>
			bodiesOf(all).some((body) => body.event === "order.shipped"),
		);
		const shipped = requests.filter((request) => JSON.parse(request.body).event === "order.shipped");
		expect(shipped).toHaveLength(1);
		const request = shipped[0] as ReceivedRequest;
		expect(request.method).toBe("POST");
		expect(request.headers["content-type"]).toMatch(/^application\/json/);
		expect(request.headers["user-agent"]).toMatch(/framed.?print/i);
		const signature = request.headers["svc-signature"] ?? "";
		expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
		expect(await verifySignature(request.body, signature, [partner.webhook_secret], { toleranceSeconds: 300 })).toBe(
			true,
		);
		expect(await verifySignature(request.body, signature, ["whsec_wrong"], { toleranceSeconds: 300 })).toBe(false);
		// The Standard Webhooks headers beside it, verified by its maintained library with the secret as issued.
		const standard = {
			"webhook-id": request.headers["webhook-id"] ?? "",
			"webhook-timestamp": request.headers["webhook-timestamp"] ?? "",
			"webhook-signature": request.headers["webhook-signature"] ?? "",
		};
		expect(standard["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
		expect(new Webhook(partner.webhook_secret).verify(request.body, standard)).toEqual(JSON.parse(request.body));
		expect(() => new Webhook("whsec_d3JvbmdzZWNyZXR3cm9uZ3NlY3JldA==").verify(request.body, standard)).toThrow();
		expect(() =>
			new Webhook(partner.webhook_secret).verify(request.body.replace("shipped", "shipped "), standard),
		).toThrow();

		const body = JSON.parse(request.body) as Record<string, unknown>;
		const eventId = await eventIdOf(created.id, "order.shipped");
		expect(Object.keys(body).sort()).toEqual([...ORDER_SHIPPED_FIELDS].sort());
		expect(standard["webhook-id"]).toBe(eventId);
		// The body is exactly what the document's webhooks say: no field more, none less.
		expect(SENT_ORDER_EVENT_SCHEMAS["order.shipped"].strict().safeParse(body).success).toBe(true);
		expect(body).toMatchObject({
			id: eventId,
			version: order.version,
			event: "order.shipped",
			order_id: created.id,
			external_id: created.external_id,
			status: "shipped",
			tracking: order.tracking,
			shipped_at: order.shipped_at,
		});
		expect(order.tracking).toEqual(TRACKING);
		expect(body.created_at).toBe((await eventCreatedAt(eventId)).toISOString());

		const row = await waitForDelivery(eventId, (delivery) => delivery.status === "delivered");
		expect(row).toMatchObject({ status: "delivered", attempts: 1, last_status_code: 200, last_error: null });
		expect(row.delivered_at).not.toBeNull();
		expect(row.next_attempt_at).toBeNull();
	}, 30_000);

	it("a delivery carries Standard Webhooks headers that standardwebhooks' Webhook.verify accepts with the mode's secret as issued", async () => {
		const { partner, owner } = await freshOwner();
		const url = hookUrl("ok");
		const { eventId, deliveryId } = await storedEvent(owner, url);
		expect(await attemptDelivery(env, deliveryId)).toEqual({ kind: "done" });
		const [request] = await waitForReceived(url);
		if (request === undefined) throw new Error("nothing arrived");
		const standard = standardHeadersOf(request);
		expect(standard["webhook-id"]).toBe(eventId);
		expect(standard["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
		// The documented secret: webhook_secret exactly as issued, `whsec_` and all, handed to the library.
		expect(new Webhook(partner.webhook_secret).verify(request.body, standard)).toEqual(JSON.parse(request.body));
		// The other mode's secret is another key.
		expect(() => new Webhook(partner.webhook_secrets.test).verify(request.body, standard)).toThrow();
	});

	it("a tampered body, or one moved to another event id, is refused by Webhook.verify", async () => {
		const { partner, owner } = await freshOwner();
		const url = hookUrl("ok");
		const { deliveryId } = await storedEvent(owner, url);
		await attemptDelivery(env, deliveryId);
		const [request] = await waitForReceived(url);
		if (request === undefined) throw new Error("nothing arrived");
		const standard = standardHeadersOf(request);
		const verifier = new Webhook(partner.webhook_secret);
		const tampered = request.body.replace('"in_production"', '"delivered"');
		expect(tampered).not.toBe(request.body);
		expect(() => verifier.verify(tampered, standard)).toThrow(WebhookVerificationError);
		expect(() => verifier.verify(`${request.body} `, standard)).toThrow(WebhookVerificationError);
		expect(() => verifier.verify(request.body, { ...standard, "webhook-id": "evt_other" })).toThrow(
			WebhookVerificationError,
		);
	});

	it("the SVC-Signature beside them is unchanged: t, then the hex HMAC-SHA256 of the raw body keyed with the whole secret text", async () => {
		const { partner, owner } = await freshOwner();
		const url = hookUrl("ok");
		const { deliveryId } = await storedEvent(owner, url);
		await attemptDelivery(env, deliveryId);
		const [request] = await waitForReceived(url);
		if (request === undefined) throw new Error("nothing arrived");
		const key = await crypto.subtle.importKey(
			"raw",
			new TextEncoder().encode(partner.webhook_secret),
			{ name: "HMAC", hash: "SHA-256" },
			false,
			["sign"],
		);
		const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(request.body)));
		const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
		// Signed at the same moment as the Standard Webhooks headers.
		expect(request.headers["svc-signature"]).toBe(`t=${request.headers["webhook-timestamp"]},v1=${hex}`);
	});

	it("retries a receiver that answers 500 three times on the schedule, then delivers on the 4th attempt", async () => {
		const { partner, owner } = await freshOwner();
		const url = hookUrl("fail-then-ok/3");
		const { eventId, deliveryId } = await storedEvent(owner, url);
		const schedule = [30, 120, 600];
		let now = new Date(Date.now() + 1000);
		for (const [index, seconds] of schedule.entries()) {
			const outcome = await attemptDelivery(env, deliveryId, now);
			expect(outcome.kind).toBe("retry");
			const row = await deliveryOf(eventId);
			expect(row).toMatchObject({ status: "pending", attempts: index + 1, last_status_code: 500 });
			expect(row.last_error).toMatch(/^HTTP 500/);
			expectAfter(row.next_attempt_at, now, seconds);
			if (outcome.kind === "retry") {
				expect(outcome.delaySeconds).toBe(
					Math.ceil((new Date(row.next_attempt_at ?? "").getTime() - now.getTime()) / 1000),
				);
			}
			now = new Date(row.next_attempt_at ?? "");
		}
		expect(await attemptDelivery(env, deliveryId, now)).toEqual({ kind: "done" });
		const row = await deliveryOf(eventId);
		expect(row).toMatchObject({ status: "delivered", attempts: 4, last_status_code: 200, next_attempt_at: null });
		expect(row.delivered_at).toBe(now.toISOString());

		const requests = await receivedAt(url);
		expect(requests).toHaveLength(4);
		for (const request of requests) {
			const header = request.headers["svc-signature"] ?? "";
			const t = Number(/^t=(\d+)/.exec(header)?.[1]);
			expect(
				await verifySignature(request.body, header, [partner.webhook_secret], {
					toleranceSeconds: 300,
					nowSeconds: t,
				}),
			).toBe(true);
		}
		// Each attempt is signed at its own time.
		const stamps = requests.map((request) => /^t=(\d+)/.exec(request.headers["svc-signature"] ?? "")?.[1]);
		expect(new Set(stamps).size).toBe(4);
		// A delivered event is not sent again.
		expect(await attemptDelivery(env, deliveryId, now)).toEqual({ kind: "done" });
		expect(await receivedAt(url)).toHaveLength(4);
	});

	it("treats a receiver slower than the timeout as a failure and schedules the next attempt", async () => {
		const { owner } = await freshOwner();
		const { eventId, deliveryId } = await storedEvent(owner, hookUrl("slow/3000"));
		const now = new Date();
		const started = Date.now();
		const outcome = await attemptDelivery(env, deliveryId, now);
		expect(Date.now() - started).toBeLessThan(2900);
		expect(outcome.kind).toBe("retry");
		const row = await deliveryOf(eventId);
		expect(row).toMatchObject({ status: "pending", attempts: 1, last_status_code: null });
		expect(row.last_error).toMatch(/no answer within 1 s/i);
		expectAfter(row.next_attempt_at, now, 30);
	});

	it("does not follow a redirect: a 3xx is a failure", async () => {
		const { owner } = await freshOwner();
		const redirectedBefore = (await receivedAt(`${HOOKS}/ok/redirected`)).length;
		const url = hookUrl("status/302");
		const { eventId, deliveryId } = await storedEvent(owner, url);
		const now = new Date();
		expect((await attemptDelivery(env, deliveryId, now)).kind).toBe("retry");
		const row = await deliveryOf(eventId);
		expect(row).toMatchObject({ status: "pending", attempts: 1, last_status_code: 302 });
		expect(row.last_error).toMatch(/redirect/i);
		expectAfter(row.next_attempt_at, now, 30);
		expect(await receivedAt(url)).toHaveLength(1);
		expect(await receivedAt(`${HOOKS}/ok/redirected`)).toHaveLength(redirectedBefore);
	});

	it("honours Retry-After on a 429 when it is later than the schedule", async () => {
		const { owner } = await freshOwner();
		const { eventId, deliveryId } = await storedEvent(owner, hookUrl("retry-after/900"));
		const now = new Date();
		const outcome = await attemptDelivery(env, deliveryId, now);
		expect(outcome).toEqual({ kind: "retry", delaySeconds: 900 });
		const row = await deliveryOf(eventId);
		expect(row).toMatchObject({ status: "pending", attempts: 1, last_status_code: 429 });
		expect(row.next_attempt_at).toBe(new Date(now.getTime() + 900_000).toISOString());
	});

	it("marks the delivery failed after 24 h of failures, keeps it and lists it", async () => {
		const { partner, owner } = await freshOwner();
		const { eventId, deliveryId } = await storedEvent(owner, hookUrl("status/500"));
		const createdAt = await eventCreatedAt(eventId);
		expect((await attemptDelivery(env, deliveryId, new Date(createdAt.getTime() + 1000))).kind).toBe("retry");
		expect((await attemptDelivery(env, deliveryId, new Date(createdAt.getTime() + 3600_000))).kind).toBe("retry");
		// The last retry before the window's end is clamped to the end itself.
		const late = await attemptDelivery(env, deliveryId, new Date(createdAt.getTime() + 23.9 * 3600_000));
		expect(late.kind).toBe("retry");
		expect((await deliveryOf(eventId)).next_attempt_at).toBe(
			new Date(createdAt.getTime() + 24 * 3600_000).toISOString(),
		);

		const end = new Date(createdAt.getTime() + 24 * 3600_000 + 1000);
		expect(await attemptDelivery(env, deliveryId, end)).toEqual({ kind: "done" });
		const row = await deliveryOf(eventId);
		expect(row).toMatchObject({ status: "failed", attempts: 4, last_status_code: 500, next_attempt_at: null });
		expect(row.last_attempt_at).toBe(end.toISOString());

		const listed = await api("/v1/events?delivery_status=failed", { key: partner.keys.live.key });
		expect(listed.status).toBe(200);
		const page = (await listed.json()) as { data: { id: string; delivery: { status: string; attempts: number } }[] };
		expect(page.data.map((event) => event.id)).toEqual([eventId]);
		expect(page.data[0]?.delivery).toMatchObject({ status: "failed", attempts: 4 });
		// A failed delivery is not attempted again by a stray message.
		expect(await attemptDelivery(env, deliveryId, end)).toEqual({ kind: "done" });
		expect((await deliveryOf(eventId)).attempts).toBe(4);
	});

	it("delivers a pending delivery whose queue message was lost, from the cron sweep", async () => {
		const { partner, owner } = await freshOwner();
		const url = hookUrl("ok");
		const { eventId } = await storedEvent(owner, url);
		const overdue = new Date(Date.now() - 10 * 60_000).toISOString();
		await env.DB.prepare("UPDATE deliveries SET next_attempt_at = ?2, enqueued_at = ?2 WHERE event_id = ?1")
			.bind(eventId, overdue)
			.run();
		expect(await receivedAt(url)).toHaveLength(0);

		const ctx = createExecutionContext();
		await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
		await waitOnExecutionContext(ctx);
		const swept = await deliveryOf(eventId);
		expect(new Date(swept.next_attempt_at ?? overdue).getTime()).toBeGreaterThan(Date.parse(overdue));

		const requests = await waitForReceived(url);
		const body = JSON.parse(requests[0]?.body ?? "{}") as { id?: string };
		expect(body.id).toBe(eventId);
		expect(
			await verifySignature(
				requests[0]?.body ?? "",
				requests[0]?.headers["svc-signature"] ?? "",
				[partner.webhook_secret],
				{ toleranceSeconds: 300 },
			),
		).toBe(true);
		const row = await waitForDelivery(eventId, (delivery) => delivery.status === "delivered");
		expect(row).toMatchObject({ attempts: 1, last_status_code: 200 });
	}, 20_000);

	it("hands each queue message to its endpoint's sender and acknowledges it without waiting for the receiver", async () => {
		const { owner } = await freshOwner();
		const good = await storedEvent(owner, hookUrl("ok"));
		const hanging = await storedEvent(owner, hookUrl("hang"));
		// A message names its delivery (its URL read from D1 when it lacks one); one sent before deliveries
		// had ids names only its event, and stands for the event's callback delivery.
		const batch = createMessageBatch<DeliveryMessage>("framed-print-webhooks", [
			{ id: "msg-unknown", timestamp: new Date(), attempts: 1, body: { event_id: "evt_doesnotexist" } },
			{ id: "msg-good", timestamp: new Date(), attempts: 1, body: { delivery_id: good.deliveryId } },
			{ id: "msg-hanging", timestamp: new Date(), attempts: 1, body: { event_id: hanging.eventId } },
		]);
		const ctx = createExecutionContext();
		await worker.queue(batch, env);
		const result = await getQueueResult(batch, ctx);
		expect(result.outcome).toBe("ok");
		expect(result.retryMessages).toEqual([]);
		expect([...result.explicitAcks].sort()).toEqual(["msg-good", "msg-hanging", "msg-unknown"]);
		// The batch was done while the hanging receiver had not been given up on (its timeout is 1 s here).
		expect(await deliveryOf(hanging.eventId)).toMatchObject({ status: "pending", attempts: 0 });

		await waitForDelivery(good.eventId, (row) => row.status === "delivered");
		const failed = await waitForDelivery(hanging.eventId, (row) => row.attempts === 1);
		expect(failed).toMatchObject({ status: "pending", last_status_code: null, last_error: "No answer within 1 s" });
		expect(failed.next_attempt_at).not.toBeNull();
	});

	it("drops a malformed message (no event id) without failing the batch", async () => {
		const { owner } = await freshOwner();
		const good = await storedEvent(owner, hookUrl("ok"));
		const batch = createMessageBatch<{ event_id: string }>("framed-print-webhooks", [
			{ id: "msg-good", timestamp: new Date(), attempts: 1, body: { event_id: good.eventId } },
			// No event id: retrying it could never succeed.
			{ id: "msg-broken", timestamp: new Date(), attempts: 1, body: {} as { event_id: string } },
		]);
		const ctx = createExecutionContext();
		await worker.queue(batch, env);
		const result = await getQueueResult(batch, ctx);
		expect(result.outcome).toBe("ok");
		expect([...result.explicitAcks].sort()).toEqual(["msg-broken", "msg-good"]);
		expect(result.retryMessages).toEqual([]);
		await waitForDelivery(good.eventId, (row) => row.status === "delivered");
	});

	it("a receiver that hangs delays only its own deliveries: another account's webhook arrives meanwhile", async () => {
		const stuck = await freshOwner();
		const hangUrl = hookUrl("hang");
		const hangingEvents = await Promise.all(Array.from({ length: 5 }, () => storedEvent(stuck.owner, hangUrl)));
		for (const { deliveryId } of hangingEvents) await startDelivery(env, { id: deliveryId, url: hangUrl });
		const other = await freshOwner();
		// The same host as the hanging receiver, so even the one sender both share never waits on it.
		const url = hookUrl("ok");
		const healthy = await storedEvent(other.owner, url);
		await startDelivery(env, { id: healthy.deliveryId, url });
		await waitForReceived(url);
		// The healthy receiver got its webhook while all five attempts at the hanging one were still under way.
		for (const { eventId } of hangingEvents) {
			expect(await deliveryOf(eventId)).toMatchObject({ status: "pending", attempts: 0 });
		}
		expect(await waitForDelivery(healthy.eventId, (row) => row.status === "delivered")).toMatchObject({ attempts: 1 });
		for (const { eventId } of hangingEvents) await waitForDelivery(eventId, (row) => row.attempts === 1);
	});

	it("counts a 2xx whose body arrives slowly as delivered: the status line decides", async () => {
		const { owner } = await freshOwner();
		// The body's end comes 5 s after the status line, well past the 1 s timeout of the tests.
		const url = hookUrl("slow-body/200/5000");
		const { eventId, deliveryId } = await storedEvent(owner, url);
		expect(await attemptDelivery(env, deliveryId, new Date())).toEqual({ kind: "done" });
		expect(await deliveryOf(eventId)).toMatchObject({
			status: "delivered",
			attempts: 1,
			last_status_code: 200,
			last_error: null,
		});
	});

	it("keeps only the excerpt of a failed answer's body that arrives in time, without waiting for the rest", async () => {
		const { owner } = await freshOwner();
		const url = hookUrl("slow-body/500/5000");
		const { eventId, deliveryId } = await storedEvent(owner, url);
		const outcome = await attemptDelivery(env, deliveryId, new Date());
		expect(outcome.kind).toBe("retry");
		const row = await deliveryOf(eventId);
		expect(row).toMatchObject({ status: "pending", attempts: 1, last_status_code: 500 });
		expect(row.last_error).toBe("HTTP 500: partial ");
	});

	it.each([
		["framed-print-webhooks-dlq", {}],
		// Staging's own dead-letter queue, named by its WEBHOOK_DEAD_LETTER_QUEUE.
		["framed-print-webhooks-staging-dlq", { WEBHOOK_DEAD_LETTER_QUEUE: "framed-print-webhooks-staging-dlq" }],
	])("hands dead-lettered messages of %s back to the sweep and acknowledges them all", async (queue, vars) => {
		const { owner } = await freshOwner();
		const first = await storedEvent(owner, hookUrl("ok"));
		const second = await storedEvent(owner, hookUrl("ok"));
		const future = new Date(Date.now() + 3600_000).toISOString();
		await env.DB.prepare("UPDATE deliveries SET next_attempt_at = ?1, enqueued_at = ?1 WHERE event_id IN (?2, ?3)")
			.bind(future, first.eventId, second.eventId)
			.run();
		// One message as this version sends them (its delivery's id), one from before deliveries had ids.
		const batch = createMessageBatch<DeliveryMessage>(queue, [
			{ id: "dlq-1", timestamp: new Date(), attempts: 101, body: { delivery_id: first.deliveryId, url: "x" } },
			{ id: "dlq-2", timestamp: new Date(), attempts: 101, body: { event_id: second.eventId } },
		]);
		const before = Date.now();
		const ctx = createExecutionContext();
		await worker.queue(batch, { ...env, ...vars });
		const result = await getQueueResult(batch, ctx);
		expect(result.ackAll).toBe(true);
		expect(result.retryMessages).toEqual([]);
		for (const { eventId } of [first, second]) {
			const row = await deliveryOf(eventId);
			expect(row.status).toBe("pending");
			expect(row.attempts).toBe(0);
			// Overdue enough for the next sweep to pick it up.
			expect(Date.parse(row.next_attempt_at ?? "")).toBeLessThanOrEqual(before - OVERDUE_MS + 1000);
			expect(row.enqueued_at).toBeNull();
		}
	});

	it("checks the callback_url again at send time and sends nothing to a private address", async () => {
		const { owner } = await freshOwner();
		const url = hookUrl("ok");
		const { eventId, deliveryId } = await storedEvent(owner, url);
		await env.DB.prepare("UPDATE deliveries SET url = 'https://10.0.0.1/x' WHERE event_id = ?1").bind(eventId).run();
		expect(await attemptDelivery(env, deliveryId, new Date())).toEqual({ kind: "done" });
		const row = await deliveryOf(eventId);
		expect(row).toMatchObject({ status: "failed", attempts: 1, last_status_code: null, next_attempt_at: null });
		expect(row.last_error).toMatch(/^Not sent/);
		expect(await receivedAt(url)).toHaveLength(0);
	});

	it("records the events of an order without callback_url as no_endpoint and sends nothing", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const fileId = await readyFile(key, 2400, 3000);
		const created = await createOrder(key, orderBody(fileId));
		expect((await settleValidation(key, created.id)).status).toBe("in_production");

		const { results } = await env.DB.prepare(
			`SELECT e.id, e.type, d.status, d.url, d.attempts FROM events e LEFT JOIN deliveries d ON d.event_id = e.id
			  WHERE e.order_id = ?1 ORDER BY e.created_at, e.rowid`,
		)
			.bind(created.id)
			.all<{ id: string; type: string; status: string | null; url: string | null; attempts: number | null }>();
		expect(results.map((row) => [row.type, row.status])).toEqual([
			["order.received", null],
			["order.in_production", "no_endpoint"],
		]);
		const inProduction = results[1];
		expect(inProduction).toMatchObject({ url: null, attempts: 0 });
		expect(await attemptDelivery(env, await callbackDeliveryId(inProduction?.id ?? ""), new Date())).toEqual({
			kind: "done",
		});
		expect(await deliveryOf(inProduction?.id ?? "")).toMatchObject({
			status: "no_endpoint",
			attempts: 0,
			last_attempt_at: null,
		});
	});
});
