/** The sandbox's sample events of every event type, signed, marked as a sample, to the test endpoints that subscribe to it. */
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { SENT_EVENT_SCHEMAS, SENT_EVENT_TYPES } from "../../src/openapi/event-catalog.ts";
import { api, expectError, send } from "../helpers.ts";
import { hookUrl, receivedAt } from "../webhooks/webhook-helpers.ts";
import { sandboxPartner } from "./sandbox-helpers.ts";

type SampleSent = {
	id: string;
	type: string;
	body: Record<string, unknown>;
	deliveries: Array<{ endpoint_id: string; delivered: boolean; status_code: number | null }>;
};

describe("sandbox sample events", () => {
	it("sends a signed sample of every event type, valid by the event's schema and marked as a sample, recording nothing", async () => {
		const { key, secret, hook } = await sandboxPartner();
		for (const type of SENT_EVENT_TYPES) {
			const response = await send("POST", "/v1/sandbox/events", key, { type });
			expect(response.status).toBe(200);
			const sent = (await response.json()) as SampleSent;
			expect(sent).toMatchObject({ type, body: { event: type, sample: true } });
			expect(sent.id).toMatch(/^evt_sample_/);
			expect(sent.deliveries).toEqual([expect.objectContaining({ delivered: true, status_code: 200 })]);
			SENT_EVENT_SCHEMAS[type].parse(sent.body);
		}
		const received = await receivedAt(hook);
		expect(received).toHaveLength(SENT_EVENT_TYPES.length);
		for (const request of received) {
			const headers = {
				"webhook-id": request.headers["webhook-id"] ?? "",
				"webhook-timestamp": request.headers["webhook-timestamp"] ?? "",
				"webhook-signature": request.headers["webhook-signature"] ?? "",
			};
			const body = new Webhook(secret).verify(request.body, headers) as { id: string; sample: boolean };
			expect(body.sample).toBe(true);
			expect(headers["webhook-id"]).toBe(body.id);
		}
		const log = (await (await api("/v1/events", { key })).json()) as { data: unknown[] };
		expect(log.data).toEqual([]);
	});

	it("sends a sample only to the endpoints that subscribe to its type, and refuses one nobody would receive with 409", async () => {
		const { key, hook } = await sandboxPartner();
		const shippedOnly = hookUrl("ok");
		expect(
			(await send("POST", "/v1/webhook-endpoints", key, { url: shippedOnly, events: ["order.shipped"] })).status,
		).toBe(201);
		const sent = (await (
			await send("POST", "/v1/sandbox/events", key, { type: "order.on_hold" })
		).json()) as SampleSent;
		expect(sent.deliveries).toHaveLength(1);
		expect(await receivedAt(shippedOnly)).toEqual([]);
		expect(await receivedAt(hook)).toHaveLength(1);

		const lonely = await sandboxPartner();
		const endpoints = (await (await api("/v1/webhook-endpoints", { key: lonely.key })).json()) as {
			data: Array<{ id: string }>;
		};
		for (const endpoint of endpoints.data) {
			expect((await api(`/v1/webhook-endpoints/${endpoint.id}`, { method: "DELETE", key: lonely.key })).status).toBe(
				204,
			);
		}
		const refused = await expectError(
			await send("POST", "/v1/sandbox/events", lonely.key, { type: "order.shipped" }),
			"conflict",
		);
		expect(refused.code).toBe("sandbox_no_endpoint");
	});

	it("refuses an event type the service does not send (order.received is logged, never sent) as a 422", async () => {
		const { key } = await sandboxPartner();
		for (const type of ["order.received", "order.exploded", ""]) {
			expect((await send("POST", "/v1/sandbox/events", key, { type })).status).toBe(422);
		}
	});
});
