import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { attemptDelivery } from "../../src/webhooks/deliver.ts";
import { signatureHeader, verifySignature } from "../../src/webhooks/signature.ts";
import { api, createKeyWithScopes, createPartner, expectError } from "../helpers.ts";
import { createOrder, orderBody, readyFile, settleValidation } from "../orders/order-helpers.ts";
import { waitFor } from "../polling.ts";
import { digestsOf, hookUrl, receivedAt, storedEvent, waitForReceived } from "./webhook-helpers.ts";

type Delivery = {
	status: string;
	url: string | null;
	attempts: number;
	last_attempt_at: string | null;
	last_status_code: number | null;
	last_error: string | null;
	next_attempt_at: string | null;
	delivered_at: string | null;
};
type ListedEvent = {
	id: string;
	type: string;
	order_id: string;
	created_at: string;
	body: Record<string, unknown>;
	delivery: Delivery | null;
};
type EventPage = { data: ListedEvent[]; next_cursor: string | null };

async function listEvents(key: string, query = ""): Promise<EventPage> {
	const response = await api(`/v1/events${query}`, { key });
	if (response.status !== 200) throw new Error(`GET /v1/events${query}: ${response.status} ${await response.text()}`);
	return (await response.json()) as EventPage;
}

async function deliveryStatus(eventId: string): Promise<{ status: string; attempts: number } | null> {
	return env.DB.prepare("SELECT status, attempts FROM deliveries WHERE event_id = ?1")
		.bind(eventId)
		.first<{ status: string; attempts: number }>();
}

describe("GET /v1/events", () => {
	it("lists the partner's events newest first, with bodies, delivery state, filters and cursor pages", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const callbackUrl = hookUrl("ok");
		const withHook = await createOrder(key, orderBody(await readyFile(key, 2400, 3000), { callback_url: callbackUrl }));
		expect((await settleValidation(key, withHook.id)).status).toBe("in_production");
		const withoutHook = await createOrder(key, orderBody(await readyFile(key, 2400, 3000)));
		expect((await settleValidation(key, withoutHook.id)).status).toBe("in_production");

		// Another account's and the other mode's events.
		const other = await createPartner("Other Gallery");
		const otherOrder = await createOrder(
			other.keys.live.key,
			orderBody(await readyFile(other.keys.live.key, 2400, 3000)),
		);
		const testKey = partner.keys.test.key;
		const testOrder = await createOrder(testKey, orderBody(await readyFile(testKey, 2400, 3000)));

		const { results: stored } = await env.DB.prepare(
			"SELECT id, type, order_id, body, created_at FROM events WHERE account_id = ?1 AND mode = 'live' ORDER BY created_at DESC, id DESC",
		)
			.bind(partner.account.id)
			.all<{ id: string; type: string; order_id: string; body: string; created_at: string }>();
		expect(stored).toHaveLength(4);

		// Wait for the one webhook to be delivered, so the listing below is stable.
		const hookEvent = stored.find((row) => row.order_id === withHook.id && row.type === "order.in_production");
		await waitFor(
			() => deliveryStatus(hookEvent?.id ?? ""),
			(row) => row?.status === "delivered",
		);

		const page = await listEvents(key);
		expect(page.next_cursor).toBeNull();
		expect(page.data.map((event) => event.id)).toEqual(stored.map((row) => row.id));
		for (const [index, event] of page.data.entries()) {
			const row = stored[index];
			expect(event).toMatchObject({ type: row?.type, order_id: row?.order_id, created_at: row?.created_at });
			expect(event.body).toEqual(JSON.parse(row?.body ?? "null"));
			expect(event.body.id).toBe(event.id);
			if (event.type === "order.received") expect(event.delivery).toBeNull();
		}
		const times = page.data.map((event) => event.created_at);
		expect([...times].sort().reverse()).toEqual(times);
		const ids = page.data.map((event) => event.id);
		expect(ids).not.toContain(otherOrder.id);
		expect(page.data.map((event) => event.order_id)).not.toContain(otherOrder.id);
		expect(page.data.map((event) => event.order_id)).not.toContain(testOrder.id);

		const delivered = page.data.find((event) => event.id === hookEvent?.id);
		expect(delivered?.delivery).toMatchObject({
			status: "delivered",
			url: callbackUrl,
			attempts: 1,
			last_status_code: 200,
			last_error: null,
			next_attempt_at: null,
		});
		expect(delivered?.delivery?.delivered_at).not.toBeNull();
		const noEndpoint = page.data.find(
			(event) => event.order_id === withoutHook.id && event.type === "order.in_production",
		);
		expect(noEndpoint?.delivery).toMatchObject({ status: "no_endpoint", url: null, attempts: 0 });

		// Filters.
		const byOrder = await listEvents(key, `?order_id=${withHook.id}`);
		expect(byOrder.data.map((event) => event.type)).toEqual(["order.in_production", "order.received"]);
		const received = await listEvents(key, "?type=order.received");
		expect(received.data.map((event) => event.order_id).sort()).toEqual([withHook.id, withoutHook.id].sort());
		expect(received.data.every((event) => event.delivery === null)).toBe(true);
		const byDelivery = await listEvents(key, "?delivery_status=no_endpoint");
		expect(byDelivery.data.map((event) => event.id)).toEqual([noEndpoint?.id]);
		const combined = await listEvents(key, `?order_id=${withHook.id}&delivery_status=delivered`);
		expect(combined.data.map((event) => event.id)).toEqual([hookEvent?.id]);
		expect((await listEvents(key, `?order_id=${otherOrder.id}`)).data).toEqual([]);
		await expectError(await api("/v1/events?type=order.exploded", { key }), "validation_error", "type");
		await expectError(await api("/v1/events?delivery_status=lost", { key }), "validation_error", "delivery_status");

		// Cursor pages of one, then of three.
		const walked: string[] = [];
		let cursor: string | null = null;
		for (let step = 0; step < 10; step++) {
			const query: string = cursor === null ? "?limit=1" : `?limit=1&cursor=${encodeURIComponent(cursor)}`;
			const onePage = await listEvents(key, query);
			expect(onePage.data.length).toBeLessThanOrEqual(1);
			walked.push(...onePage.data.map((event) => event.id));
			cursor = onePage.next_cursor;
			if (cursor === null) break;
		}
		expect(walked).toEqual(stored.map((row) => row.id));
		const firstOfThree = await listEvents(key, "?limit=3");
		expect(firstOfThree.data).toHaveLength(3);
		expect(firstOfThree.next_cursor).not.toBeNull();
		const secondOfThree = await listEvents(key, `?limit=3&cursor=${firstOfThree.next_cursor ?? ""}`);
		expect([...firstOfThree.data, ...secondOfThree.data].map((event) => event.id)).toEqual(walked);
		expect(secondOfThree.next_cursor).toBeNull();
		await expectError(await api("/v1/events?cursor=not-a-cursor", { key }), "validation_error", "cursor");

		// The other mode's key sees only its own mode's events; the other account only its own.
		const testPage = await listEvents(testKey);
		expect(testPage.data.length).toBeGreaterThan(0);
		expect(testPage.data.every((event) => event.order_id === testOrder.id)).toBe(true);
		const otherPage = await listEvents(other.keys.live.key);
		expect(otherPage.data.length).toBeGreaterThan(0);
		expect(otherPage.data.every((event) => event.order_id === otherOrder.id)).toBe(true);
	}, 30_000);

	it("needs events:read", async () => {
		const filesOnly = await createKeyWithScopes(["files:write"]);
		await expectError(await api("/v1/events", { key: filesOnly }), "forbidden");
		await expectError(await api("/v1/events"), "unauthorized");
	});
});

describe("POST /v1/events/{id}/redeliver", () => {
	it("sends a failed event again: 200 with the delivery pending, then delivered", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const url = hookUrl("ok");
		const { eventId } = await storedEvent({ accountId: partner.account.id, mode: "live" }, url);
		await env.DB.prepare(
			"UPDATE deliveries SET status = 'failed', attempts = 9, next_attempt_at = NULL, last_status_code = 500, last_error = 'HTTP 500' WHERE event_id = ?1",
		)
			.bind(eventId)
			.run();

		const response = await api(`/v1/events/${eventId}/redeliver`, { method: "POST", key });
		expect(response.status).toBe(200);
		const event = (await response.json()) as ListedEvent;
		expect(event.id).toBe(eventId);
		expect(event.delivery).toMatchObject({ status: "pending", url, attempts: 9 });
		expect(event.delivery?.next_attempt_at).not.toBeNull();

		const requests = await waitForReceived(url);
		expect(requests).toHaveLength(1);
		expect(JSON.parse(requests[0]?.body ?? "{}")).toMatchObject({ id: eventId, event: "order.in_production" });
		expect(
			await verifySignature(
				requests[0]?.body ?? "",
				requests[0]?.headers["svc-signature"] ?? "",
				[partner.webhook_secret],
				{ toleranceSeconds: 300 },
			),
		).toBe(true);
		const row = await waitFor(
			() => deliveryStatus(eventId),
			(value) => value?.status === "delivered",
		);
		expect(row).toEqual({ status: "delivered", attempts: 10 });
	}, 20_000);

	it("is 404 for another account's (or the other mode's) event and 409 for an event with no callback_url", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const owner = { accountId: partner.account.id, mode: "live" as const };
		const { eventId } = await storedEvent(owner, hookUrl("ok"));
		await env.DB.prepare("UPDATE deliveries SET status = 'failed' WHERE event_id = ?1").bind(eventId).run();

		const other = await createPartner("Other Gallery");
		await expectError(
			await api(`/v1/events/${eventId}/redeliver`, { method: "POST", key: other.keys.live.key }),
			"not_found",
			"id",
		);
		await expectError(
			await api(`/v1/events/${eventId}/redeliver`, { method: "POST", key: partner.keys.test.key }),
			"not_found",
			"id",
		);
		await expectError(await api("/v1/events/evt_doesnotexist/redeliver", { method: "POST", key }), "not_found", "id");
		// Untouched by the refused requests.
		expect(await deliveryStatus(eventId)).toMatchObject({ status: "failed" });

		const silent = await storedEvent(owner, null);
		await expectError(await api(`/v1/events/${silent.eventId}/redeliver`, { method: "POST", key }), "conflict");
		expect(await deliveryStatus(silent.eventId)).toMatchObject({ status: "no_endpoint" });
		const receivedEvent = await env.DB.prepare("SELECT id FROM events WHERE order_id = ?1 AND type = 'order.received'")
			.bind(silent.orderId)
			.first<{ id: string }>();
		await expectError(await api(`/v1/events/${receivedEvent?.id}/redeliver`, { method: "POST", key }), "conflict");
	});
});

describe("POST /v1/webhook-secret/rotate", () => {
	it("issues a new secret; both sign (new first) for 24 h, then only the new one", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const owner = { accountId: partner.account.id, mode: "live" as const };
		const oldSecret = partner.webhook_secret;

		const before = Date.now();
		const response = await api("/v1/webhook-secret/rotate", { method: "POST", key });
		expect(response.status).toBe(201);
		const rotated = (await response.json()) as { webhook_secret: string; previous_secrets_expire_at: string };
		const newSecret = rotated.webhook_secret;
		expect(newSecret).toMatch(/^whsec_/);
		expect(newSecret).not.toBe(oldSecret);
		const expiresAt = Date.parse(rotated.previous_secrets_expire_at);
		expect(expiresAt).toBeGreaterThanOrEqual(before + 24 * 3600_000);
		expect(expiresAt).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);

		// During the overlap: two v1= entries, new first; each secret alone verifies.
		const during = hookUrl("ok");
		const first = await storedEvent(owner, during);
		expect(await attemptDelivery(env, first.deliveryId, new Date())).toEqual({ kind: "done" });
		const [overlapRequest] = await receivedAt(during);
		const overlapHeader = overlapRequest?.headers["svc-signature"] ?? "";
		const overlapBody = overlapRequest?.body ?? "";
		const digests = digestsOf(overlapHeader);
		expect(digests).toHaveLength(2);
		const t = Number(/^t=(\d+)/.exec(overlapHeader)?.[1]);
		expect(digests[0]).toBe(digestsOf(await signatureHeader(overlapBody, [newSecret], t))[0]);
		expect(digests[1]).toBe(digestsOf(await signatureHeader(overlapBody, [oldSecret], t))[0]);
		const tolerance = { toleranceSeconds: 300 };
		expect(await verifySignature(overlapBody, overlapHeader, [oldSecret], tolerance)).toBe(true);
		expect(await verifySignature(overlapBody, overlapHeader, [newSecret], tolerance)).toBe(true);

		// After the 24 h: only the new secret signs.
		await env.DB.prepare("UPDATE webhook_secrets SET expires_at = ?2 WHERE account_id = ?1 AND secret = ?3")
			.bind(partner.account.id, new Date(Date.now() - 1000).toISOString(), oldSecret)
			.run();
		const after = hookUrl("ok");
		const second = await storedEvent(owner, after);
		expect(await attemptDelivery(env, second.deliveryId, new Date())).toEqual({ kind: "done" });
		const [laterRequest] = await receivedAt(after);
		const laterHeader = laterRequest?.headers["svc-signature"] ?? "";
		const laterBody = laterRequest?.body ?? "";
		expect(digestsOf(laterHeader)).toHaveLength(1);
		expect(await verifySignature(laterBody, laterHeader, [newSecret], tolerance)).toBe(true);
		expect(await verifySignature(laterBody, laterHeader, [oldSecret], tolerance)).toBe(false);
	});

	it("signs test and live webhooks with separate secrets, both shown when the account is created", async () => {
		const partner = await createPartner();
		expect(partner.webhook_secrets.live).toMatch(/^whsec_/);
		expect(partner.webhook_secrets.test).toMatch(/^whsec_/);
		expect(partner.webhook_secrets.test).not.toBe(partner.webhook_secrets.live);
		expect(partner.webhook_secret).toBe(partner.webhook_secrets.live);
		const tolerance = { toleranceSeconds: 300 };
		for (const mode of ["live", "test"] as const) {
			const url = hookUrl("ok");
			const { deliveryId } = await storedEvent({ accountId: partner.account.id, mode }, url);
			expect(await attemptDelivery(env, deliveryId, new Date())).toEqual({ kind: "done" });
			const [request] = await receivedAt(url);
			const header = request?.headers["svc-signature"] ?? "";
			const other = mode === "live" ? "test" : "live";
			expect(await verifySignature(request?.body ?? "", header, [partner.webhook_secrets[mode]], tolerance)).toBe(true);
			expect(await verifySignature(request?.body ?? "", header, [partner.webhook_secrets[other]], tolerance)).toBe(
				false,
			);
		}
	});

	it("a test key rotates only the test secret: live webhooks are signed as before", async () => {
		const partner = await createPartner();
		const response = await api("/v1/webhook-secret/rotate", { method: "POST", key: partner.keys.test.key });
		expect(response.status).toBe(201);
		const rotated = (await response.json()) as { webhook_secret: string; mode: string };
		expect(rotated.mode).toBe("test");

		const liveUrl = hookUrl("ok");
		const live = await storedEvent({ accountId: partner.account.id, mode: "live" }, liveUrl);
		expect(await attemptDelivery(env, live.deliveryId, new Date())).toEqual({ kind: "done" });
		const [liveRequest] = await receivedAt(liveUrl);
		const liveHeader = liveRequest?.headers["svc-signature"] ?? "";
		expect(digestsOf(liveHeader)).toHaveLength(1);
		expect(
			await verifySignature(liveRequest?.body ?? "", liveHeader, [partner.webhook_secrets.live], {
				toleranceSeconds: 300,
			}),
		).toBe(true);

		const testUrl = hookUrl("ok");
		const test = await storedEvent({ accountId: partner.account.id, mode: "test" }, testUrl);
		expect(await attemptDelivery(env, test.deliveryId, new Date())).toEqual({ kind: "done" });
		const [testRequest] = await receivedAt(testUrl);
		const testHeader = testRequest?.headers["svc-signature"] ?? "";
		const t = Number(/^t=(\d+)/.exec(testHeader)?.[1]);
		const testBody = testRequest?.body ?? "";
		expect(digestsOf(testHeader)).toEqual([
			...digestsOf(await signatureHeader(testBody, [rotated.webhook_secret], t)),
			...digestsOf(await signatureHeader(testBody, [partner.webhook_secrets.test], t)),
		]);
	});

	it("a rotation during an overlap ends the older secret at once: never more than two v1= entries", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const secrets = [partner.webhook_secrets.live];
		for (let rotation = 0; rotation < 5; rotation++) {
			const response = await api("/v1/webhook-secret/rotate", { method: "POST", key });
			expect(response.status).toBe(201);
			secrets.push(((await response.json()) as { webhook_secret: string }).webhook_secret);
		}
		const url = hookUrl("ok");
		const { deliveryId } = await storedEvent({ accountId: partner.account.id, mode: "live" }, url);
		expect(await attemptDelivery(env, deliveryId, new Date())).toEqual({ kind: "done" });
		const [request] = await receivedAt(url);
		const header = request?.headers["svc-signature"] ?? "";
		const body = request?.body ?? "";
		const t = Number(/^t=(\d+)/.exec(header)?.[1]);
		// The newest and the one it replaced; the four before those stopped signing when they were rotated past.
		expect(digestsOf(header)).toEqual(digestsOf(await signatureHeader(body, secrets.slice(-2).reverse(), t)));
		const signing = await env.DB.prepare(
			"SELECT COUNT(*) AS n FROM webhook_secrets WHERE account_id = ?1 AND mode = 'live' AND (expires_at IS NULL OR expires_at > ?2)",
		)
			.bind(partner.account.id, new Date().toISOString())
			.first<{ n: number }>();
		expect(signing?.n).toBe(2);
	});

	it("needs orders:write", async () => {
		const readOnly = await createKeyWithScopes(["events:read"]);
		await expectError(await api("/v1/webhook-secret/rotate", { method: "POST", key: readOnly }), "forbidden");
	});
});
