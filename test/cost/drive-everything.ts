/**
 * Drives every route a partner, an operator and an admin call, the console (its claim pages too), the
 * cron (its events archive too) and a queue batch, through the worker as deployed (the workers-traced project runs it with the cost tracer on),
 * for the query-plan test to read the statements they ran.
 */
import {
	createExecutionContext,
	createMessageBatch,
	createScheduledController,
	getQueueResult,
	waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { encodeCursor } from "../../src/http/cursor.ts";
import worker from "../../src/index.ts";
import type { DeliveryMessage } from "../../src/webhooks/enqueue.ts";
import { consoleRequest, csrfOf, htmlOf, postForm, signIn } from "../console/console-helpers.ts";
import { api, createAdminKey, createKeyWithScopes, send } from "../helpers.ts";
import { encodePng } from "../imaging/fixtures/png.ts";
import { externalId, insertRawOrder, partnerWithFile, SHIP_TO, TRACKING } from "../orders/order-helpers.ts";
import { uploadedFile } from "../print-files/upload-helpers.ts";
import { hookUrl } from "../webhooks/webhook-helpers.ts";

export async function json<T>(response: Response, status: number): Promise<T> {
	const text = await response.text();
	expect(response.status, text.slice(0, 500)).toBe(status);
	return JSON.parse(text) as T;
}

async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (await condition()) return;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error(`timed out waiting for ${what}`);
}

type OrderAnswer = { id: string; external_id: string; status: string; items: { id: string }[] };

/** Every route a partner, an operator and an admin call, the console, the cron and a queue batch. */
export async function driveEverything(): Promise<void> {
	const { partner, key, file, opsKey } = await partnerWithFile({ opsKey: true, name: "Plan Gallery" });
	const owner = { accountId: partner.account.id, mode: "live" as const };
	const adminKey = await createAdminKey();
	const testKey = partner.keys.test.key;

	// Reference data, files, quotes.
	await json(await api("/v1/health"), 200);
	await json(await api("/v1/catalog", { key }), 200);
	await json(await api("/v1/price-book", { key }), 200);
	await json(await api(`/v1/print-files/${file}`, { key }), 200);
	// Thumbnails: a real image's, made by a queue batch below; partnerWithFile's (undecodable) one.
	const image = await uploadedFile(key, encodePng(64, 64, { opaque: true }));
	const item = { print_file_id: file, width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" };
	const quote = await json<{ id: string }>(
		await send("POST", "/v1/quotes", key, { ship_to: SHIP_TO, items: [item] }),
		201,
	);
	await json(await api(`/v1/quotes/${quote.id}`, { key }), 200);
	// An Idempotency-Key: claimed and kept, replayed, and refused for another body.
	const keyed = (body: unknown) =>
		api("/v1/quotes", {
			method: "POST",
			key,
			headers: { "Idempotency-Key": "plan-quote" },
			body: JSON.stringify(body),
		});
	await json(await keyed({ ship_to: SHIP_TO, items: [item] }), 201);
	await json(await keyed({ ship_to: SHIP_TO, items: [item] }), 201);
	await json(await keyed({ ship_to: SHIP_TO, items: [item, item] }), 409);
	await json(await send("POST", "/v1/addresses/check", key, { ship_to: SHIP_TO, shipping_method: "express" }), 200);

	// Orders: created (plain, against the quote, with a callback and metadata), repeated, read, listed.
	const hook = hookUrl("ok");
	// Two units, so the floor can ship them in two shipments.
	const body = {
		external_id: externalId("PLAN"),
		ship_to: SHIP_TO,
		items: [{ ...item, quantity: 2 }],
		callback_url: hook,
		metadata: { shop_order_ref: "SO-PLAN" },
	};
	const order = await json<OrderAnswer>(await send("POST", "/v1/orders", key, body), 201);
	await json(await send("POST", "/v1/orders", key, body), 200);
	await send("POST", "/v1/orders", key, { ...body, gift_message: "A different order" });
	const quoted = await json<OrderAnswer>(
		await send("POST", "/v1/orders", key, {
			external_id: externalId("PLAN"),
			ship_to: SHIP_TO,
			items: [item],
			quote_id: quote.id,
		}),
		201,
	);
	// An item the catalog does not have: validation holds the order, and a PATCH fixes it.
	const held = await json<OrderAnswer>(
		await send("POST", "/v1/orders", key, {
			external_id: externalId("PLAN"),
			ship_to: SHIP_TO,
			callback_url: hook,
			items: [{ ...item, frame: "no-such-frame" }],
		}),
		201,
	);
	await json(await api(`/v1/orders/${order.id}`, { key }), 200);
	await json(await api(`/v1/orders/by-external-id/${encodeURIComponent(order.external_id)}`, { key }), 200);
	const listed = await json<{ next_cursor: string | null }>(await api("/v1/orders?limit=1", { key }), 200);
	if (listed.next_cursor !== null)
		await json(await api(`/v1/orders?limit=1&cursor=${listed.next_cursor}`, { key }), 200);
	await json(await api("/v1/orders?status=in_production&limit=5", { key }), 200);
	const since = new Date(Date.now() - 3600_000).toISOString();
	await json(await api(`/v1/orders?created_after=${since}&created_before=${new Date().toISOString()}`, { key }), 200);
	await json(await api(`/v1/orders?status=received&created_after=${since}`, { key }), 200);

	const statusOf = async (id: string) => (await json<OrderAnswer>(await api(`/v1/orders/${id}`, { key }), 200)).status;
	await waitFor(async () => (await statusOf(order.id)) === "in_production", "the order in production");
	await waitFor(async () => (await statusOf(quoted.id)) === "in_production", "the quoted order in production");
	await waitFor(async () => (await statusOf(held.id)) === "on_hold", "the order on hold");
	const heldItem = held.items[0]?.id ?? "";
	const heldChange = {
		ship_to: { ...SHIP_TO, country: "CA", state: "ON", zip: "M5V 2T6" },
		shipping_method: "express",
	};
	await json(await send("PATCH", `/v1/orders/${held.id}`, key, heldChange), 200);
	await json(await send("PATCH", `/v1/orders/${held.id}/items/${heldItem}`, key, { frame: "walnut-flat-075" }), 200);
	await waitFor(async () => (await statusOf(held.id)) === "in_production", "the fixed order in production");
	// A change of the recipient, the method and the metadata while the floor has not started the orders,
	// and what may still be done.
	await json(
		await send("PATCH", `/v1/orders/${order.id}`, key, {
			ship_to: { ...SHIP_TO, address1: "7 Pier Road" },
			metadata: { shop_order_ref: "SO-PLAN-2" },
		}),
		200,
	);
	await json(await send("PATCH", `/v1/orders/${order.id}`, key, { metadata: { shop_order_ref: "SO-PLAN-2" } }), 200);
	await json(await send("PATCH", `/v1/orders/${quoted.id}`, key, { shipping_method: "express" }), 200);
	await json(await api(`/v1/orders/${order.id}/actions`, { key }), 200);
	await json(await api(`/v1/orders/${quoted.id}/cancel`, { key, method: "POST" }), 200);

	// Events, redelivery, endpoints, secrets, branding.
	const events = await json<{ data: { id: string }[]; next_cursor: string | null }>(
		await api("/v1/events?limit=2", { key }),
		200,
	);
	if (events.next_cursor !== null)
		await json(await api(`/v1/events?limit=2&cursor=${events.next_cursor}`, { key }), 200);
	await json(await api(`/v1/events?order_id=${order.id}`, { key }), 200);
	await json(await api(`/v1/events?order_id=${order.id}&type=order.in_production&limit=5`, { key }), 200);
	await json(await api("/v1/events?type=order.in_production", { key }), 200);
	await json(await api("/v1/events?delivery_status=delivered", { key }), 200);
	await json(await api(`/v1/events?order_id=${order.id}&delivery_status=delivered`, { key }), 200);
	const failed = await json<{ next_cursor: string | null }>(
		await api("/v1/events?type=order.in_production&delivery_status=delivered&limit=1", { key }),
		200,
	);
	if (failed.next_cursor !== null) {
		await json(await api(`/v1/events?delivery_status=delivered&limit=1&cursor=${failed.next_cursor}`, { key }), 200);
	}
	await waitFor(async () => {
		const found = await json<{ data: { id: string }[] }>(
			await api(`/v1/events?order_id=${order.id}&type=order.in_production`, { key }),
			200,
		);
		const id = found.data[0]?.id;
		return id !== undefined && (await api(`/v1/events/${id}/redeliver`, { key, method: "POST" })).status === 200;
	}, "a redelivery");
	const endpoint = await json<{ id: string }>(
		await send("POST", "/v1/webhook-endpoints", key, { url: hookUrl("endpoint"), events: ["order.shipped"] }),
		201,
	);
	await json(await api("/v1/webhook-endpoints", { key }), 200);
	await json(await api(`/v1/webhook-endpoints/${endpoint.id}`, { key }), 200);
	await api(`/v1/webhook-endpoints/${endpoint.id}/test`, { key, method: "POST" });
	// A second endpoint, deleted: its pending deliveries end in the same batch.
	const doomed = await json<{ id: string }>(
		await send("POST", "/v1/webhook-endpoints", key, { url: hookUrl("status/500") }),
		201,
	);
	expect((await api(`/v1/webhook-endpoints/${doomed.id}`, { key, method: "DELETE" })).status).toBe(204);
	await json(await api("/v1/webhook-secret/rotate", { key, method: "POST" }), 201);
	await send("PUT", "/v1/branding", key, { brand_name: "Plan Gallery" });
	await api("/v1/branding", { key });

	// The floor: the queue every way it can be narrowed, one order's views, moves, tickets, downloads, imports.
	const ops = { key: opsKey };
	const queues = [
		"",
		"?status=in_production",
		"?mode=test",
		`?account_id=${owner.accountId}`,
		`?account_id=${owner.accountId}&status=in_production`,
		`?q=${order.id}`,
		`?q=${encodeURIComponent(order.external_id)}`,
		"?q=Plan%20Gallery",
		`?q=Plan%20Gallery&status=in_production&account_id=${owner.accountId}`,
		// Longer than a LIKE pattern may be on D1 (50 bytes), with spaces at its ends: the external id as typed.
		`?q=${encodeURIComponent(` ${"%".repeat(60)} `)}`,
	];
	for (const query of queues) await json(await api(`/v1/ops/orders${query}`, ops), 200);
	const page = await json<{ next_cursor: string | null }>(await api("/v1/ops/orders?limit=1", ops), 200);
	if (page.next_cursor !== null) await json(await api(`/v1/ops/orders?limit=1&cursor=${page.next_cursor}`, ops), 200);
	await json(await api(`/v1/ops/orders/${order.id}`, ops), 200);
	await api(`/v1/ops/orders/${order.id}/packing-slip`, ops);
	await api(`/v1/ops/orders/${order.id}/work-ticket`, ops);
	await api("/v1/ops/work-tickets?status=in_production&mode=live&limit=2", ops);
	await api(`/v1/ops/print-files/${file}/download?item_id=${order.items[0]?.id ?? ""}`, ops);
	await api(`/v1/ops/print-files/${file}/download`, ops);
	await json(await send("POST", `/v1/ops/orders/${order.id}/hold`, opsKey, { message: "Checking the frame" }), 200);
	await json(await api(`/v1/ops/orders/${order.id}/release`, { ...ops, method: "POST" }), 200);
	await waitFor(async () => (await statusOf(order.id)) === "in_production", "the released order in production");
	// Shipments: one unit, delivered while the other waits; the ship move sends the rest, which comes back.
	const units = [{ item_id: order.items[0]?.id ?? "", quantity: 1 }];
	const partial = await json<{ id: string }>(
		await send("POST", `/v1/ops/orders/${order.id}/shipments`, opsKey, { ...TRACKING, items: units }),
		201,
	);
	await json(await api(`/v1/ops/shipments/${partial.id}/deliver`, { ...ops, method: "POST" }), 200);
	// Claims on the delivered unit: created (with a photo), listed for the order and the account, read.
	const claim = await json<{ id: string }>(
		await send("POST", `/v1/orders/${order.id}/claims`, key, {
			reason: "damaged_in_transit",
			items: units,
			description: "The glass arrived cracked.",
			photo_file_ids: [file],
		}),
		201,
	);
	await json(await api(`/v1/orders/${order.id}/claims`, { key }), 200);
	await json(await api(`/v1/claims/${claim.id}`, { key }), 200);
	// The service team: its list, a rejection (the units come back), a new claim approved with a refund.
	await json(
		await api(
			`/v1/ops/claims?limit=1&cursor=${encodeCursor({ createdAt: "2000-01-01T00:00:00.000Z", id: "clm_0" })}`,
			ops,
		),
		200,
	);
	await json(await send("POST", `/v1/ops/claims/${claim.id}/reject`, opsKey, { message: "No damage shown." }), 200);
	const again = await json<{ id: string }>(
		await send("POST", `/v1/orders/${order.id}/claims`, key, {
			reason: "wrong_item",
			items: units,
			description: "A landscape came instead.",
		}),
		201,
	);
	await json(await send("POST", `/v1/ops/claims/${again.id}/approve`, opsKey, { remedy: "refund" }), 200);
	await json(await api("/v1/claims?limit=1", { key }), 200);
	await json(await api("/v1/claims?limit=20", { key }), 200);
	await json(await api("/v1/ops/claims?status=approved", ops), 200);
	const later = encodeCursor({ createdAt: new Date(Date.now() + 60_000).toISOString(), id: "clm_z" });
	await json(await api(`/v1/claims?status=submitted&limit=1&cursor=${later}`, { key }), 200);
	// The ledger: an adjustment by the service team, then the month's statement (the order's charge, the
	// refund's credit, the adjustment) as JSON and as CSV.
	const adjustment = { mode: "live", amount_cents: -500, memo: "Goodwill credit" };
	await json(await send("POST", `/v1/admin/accounts/${partner.account.id}/adjustments`, adminKey, adjustment), 201);
	const month = new Date().toISOString().slice(0, 7);
	await json(await api(`/v1/statements/${month}`, { key }), 200);
	await api(`/v1/statements/${month}`, { key, headers: { Accept: "text/csv" } });
	await json(
		// The rest under a label of its own: the partial shipment's label ships its units once.
		await send("POST", `/v1/ops/orders/${order.id}/ship`, opsKey, { ...TRACKING, number: "1Z999AA10123456785" }),
		200,
	);
	await json(await api(`/v1/ops/orders/${order.id}/deliver`, { ...ops, method: "POST" }), 200);
	// A claim on the second shipment's unit, delivered, approved with a reprint: the reprint listed on the original.
	const reprinted = await json<{ id: string }>(
		await send("POST", `/v1/orders/${order.id}/claims`, key, {
			reason: "print_defect",
			items: [{ item_id: order.items[0]?.id ?? "", quantity: 1 }],
			description: "The print is banded.",
			photo_file_ids: [file],
		}),
		201,
	);
	await json(await send("POST", `/v1/ops/claims/${reprinted.id}/approve`, opsKey, { remedy: "reprint" }), 200);
	await waitFor(async () => (await statusOf(held.id)) === "in_production", "the fixed order in production");
	// A row with item_ids: one shipment of the units it names, through the same move as the shipments route.
	const csv = `order_id,carrier,tracking_number,tracking_url,item_ids\n${held.id},UPS,${TRACKING.number},${TRACKING.url},${heldItem}\n`;
	await api("/v1/ops/shipments/import/preview", {
		...ops,
		method: "POST",
		headers: { "Content-Type": "text/csv" },
		body: csv,
	});
	await api("/v1/ops/shipments/import", { ...ops, method: "POST", headers: { "Content-Type": "text/csv" }, body: csv });
	const byExternal = `external_id,carrier,tracking_number,tracking_url\n${held.external_id},UPS,1Z999AA10123456786,\n`;
	await api("/v1/ops/shipments/import", {
		...ops,
		method: "POST",
		headers: { "Content-Type": "text/csv" },
		body: byExternal,
	});
	// Its last box comes back to the sender.
	const heldShipped = await json<{ shipments: Array<{ id: string }> }>(
		await api(`/v1/orders/${held.id}`, { key }),
		200,
	);
	const lastBox = heldShipped.shipments.at(-1)?.id ?? "";
	await json(await api(`/v1/ops/shipments/${lastBox}/return`, { ...ops, method: "POST" }), 200);

	// The console, signed in.
	const cookie = await signIn(await createKeyWithScopes(["ops"]));
	const queuePage = await htmlOf(await consoleRequest("/ops/orders", { cookie }), 200);
	const csrf = csrfOf(queuePage);
	for (const query of queues) await consoleRequest(`/ops/orders${query}`, { cookie });
	await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie }), 200);
	await consoleRequest(`/ops/orders/${order.id}/packing-slip`, { cookie });
	await consoleRequest(`/ops/orders/${order.id}/work-ticket`, { cookie });
	const imagesOf = `/ops/orders/${order.id}/items/${order.items[0]?.id ?? ""}`;
	await consoleRequest(`${imagesOf}/thumbnail.png`, { cookie });
	await consoleRequest(`${imagesOf}/preview.png?width_px=400`, { cookie });
	await consoleRequest("/ops/work-tickets?status=in_production&mode=live", { cookie });
	await consoleRequest(`/ops/print-files/${file}/download`, { cookie });
	await consoleRequest("/ops/shipments/import", { cookie });
	await htmlOf(await consoleRequest("/ops/claims", { cookie }), 200);
	await htmlOf(await consoleRequest("/ops/claims?status=approved", { cookie }), 200);
	await htmlOf(await consoleRequest(`/ops/claims/${again.id}`, { cookie }), 200);
	await consoleRequest("/ops/statements", { cookie });
	await consoleRequest(`/ops/statements/${partner.account.id}?month=2020-01&mode=live`, { cookie });
	await consoleRequest(`/ops/statements/${partner.account.id}/csv`, { cookie });
	const another = await json<OrderAnswer>(
		await send("POST", "/v1/orders", key, { external_id: externalId("PLAN"), ship_to: SHIP_TO, items: [item] }),
		201,
	);
	await waitFor(async () => (await statusOf(another.id)) === "in_production", "another order in production");
	await postForm(`/ops/orders/${another.id}/hold`, { _csrf: csrf, message: "On the console" }, { cookie });
	await postForm(`/ops/orders/${another.id}/cancel`, { _csrf: csrf }, { cookie });
	// The order page's shipment form, then its shipment's Delivered button.
	const boxed = await json<OrderAnswer>(
		await send("POST", "/v1/orders", key, {
			external_id: externalId("BOXED"),
			ship_to: SHIP_TO,
			items: [{ ...item, quantity: 2 }],
		}),
		201,
	);
	await waitFor(async () => (await statusOf(boxed.id)) === "in_production", "the boxed order in production");
	const boxFields = { _csrf: csrf, [`units.${boxed.items[0]?.id ?? ""}`]: "1", ...TRACKING };
	await postForm(`/ops/orders/${boxed.id}/shipments`, boxFields, { cookie });
	const boxedNow = await json<{ shipments: Array<{ id: string }> }>(await api(`/v1/orders/${boxed.id}`, { key }), 200);
	const box = boxedNow.shipments[0]?.id ?? "";
	await postForm(`/ops/orders/${boxed.id}/shipments/${box}/deliver`, { _csrf: csrf }, { cookie });
	await postForm("/ops/sign-out", { _csrf: csrf }, { cookie });

	// The sandbox, with the test key.
	const sandboxOrder = await send("POST", "/v1/orders", testKey, {
		external_id: externalId("SANDBOX"),
		ship_to: SHIP_TO,
		items: [{ print_file_url: "https://files.partner.example/ok/print.png", width_in: 8, height_in: 10 }],
	});
	if (sandboxOrder.status === 201) {
		const { id } = (await sandboxOrder.json()) as { id: string };
		for (let step = 0; step < 4; step++)
			await api(`/v1/sandbox/orders/${id}/advance`, { key: testKey, method: "POST" });
	}

	// Admin: each checked, so a route answering 404 cannot leave its statements undriven.
	const created = await json<{ account: { id: string }; keys: { live: { id: string } } }>(
		await send("POST", "/v1/admin/accounts", adminKey, { name: "Plan Admin Partner" }),
		201,
	);
	const accountId = created.account.id;
	await json(
		await send("POST", `/v1/admin/accounts/${accountId}/keys`, adminKey, { mode: "test", scopes: ["orders:read"] }),
		201,
	);
	await json(await api(`/v1/admin/keys/${created.keys.live.id}/revoke`, { key: adminKey, method: "POST" }), 200);
	await json(await send("PUT", `/v1/admin/accounts/${accountId}/limits`, adminKey, { requests_per_minute: 500 }), 200);
	await json(await send("PUT", `/v1/admin/accounts/${accountId}/pricing`, adminKey, { discount_percent: 10 }), 200);
	await json(await send("PUT", `/v1/admin/accounts/${accountId}/settings`, adminKey, { edit_window_minutes: 30 }), 200);

	// Thumbnails: the consumer makes one and gives up on another, then both routes read them.
	const pinned = await Promise.all(
		[image, file].map((id) =>
			env.DB.prepare("SELECT id, r2_etag FROM print_files WHERE id = ?1")
				.bind(id)
				.first<{ id: string; r2_etag: string }>(),
		),
	);
	// The handler is typed for the webhooks' messages; the thumbnail consumer parses its own with zod.
	const thumbnails = createMessageBatch<DeliveryMessage>(
		"framed-print-thumbnails",
		pinned.map((row, index) => ({
			id: `thumbnail-${index}`,
			timestamp: new Date(),
			attempts: 1,
			body: { print_file_id: row?.id ?? "", etag: row?.r2_etag ?? "" } as DeliveryMessage,
		})),
	);
	const thumbnailCtx = createExecutionContext();
	await worker.queue(thumbnails, env);
	await getQueueResult(thumbnails, thumbnailCtx);
	for (const id of [image, file]) {
		await api(`/v1/print-files/${id}/thumbnail`, { key });
		await api(`/v1/ops/print-files/${id}/thumbnail`, ops);
	}
	// Framed previews: drawn, then the same one again from the cache; an item's, with its file's placeholder.
	for (let time = 0; time < 2; time++) {
		await send("POST", "/v1/previews", key, { ...item, print_file_id: image, width_px: 200 });
	}
	await api(`/v1/orders/${order.id}/items/${order.items[0]?.id ?? ""}/preview?width_px=200`, { key });

	// The cron, with a stalled order, an overdue delivery, an overdue thumbnail and files past their retention to
	// find, then a queue batch.
	await env.DB.prepare(
		"UPDATE print_files SET thumbnail_status = 'pending', thumbnail_queued_at = '2000-01-01T00:00:00.000Z' WHERE id = ?1",
	)
		.bind(file)
		.run();
	// The retention sweep's too: a file nobody used to expire and the order's file to keep (its clock moves on).
	const abandoned = await uploadedFile(key, encodePng(32, 32, { opaque: true }));
	await env.DB.prepare("UPDATE print_files SET retention_clock = '2000-01-01T00:00:00.000Z' WHERE id IN (?1, ?2)")
		.bind(abandoned, file)
		.run();
	const longAgo = new Date(Date.now() - 3600_000);
	await insertRawOrder(owner, "received", "https://files.partner.example/ok/print.png", { now: longAgo });
	await env.DB.prepare("UPDATE deliveries SET status = 'pending', next_attempt_at = ?1 WHERE account_id = ?2")
		.bind(longAgo.toISOString(), owner.accountId)
		.run();
	// An order delivered past the events' retention window: the cron archives its event to R2.
	const pastWindow = new Date(Date.now() - 100 * 24 * 3600_000);
	await insertRawOrder(owner, "delivered", "https://files.partner.example/ok/print.png", { now: pastWindow });
	const ctx = createExecutionContext();
	await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
	await waitOnExecutionContext(ctx);
	const archivedDay = `/v1/admin/accounts/${owner.accountId}/events-archive/live/${pastWindow.toISOString().slice(0, 10)}`;
	expect((await api(archivedDay, { key: adminKey })).status).toBe(200);
	const delivery = await env.DB.prepare("SELECT id, event_id FROM deliveries WHERE account_id = ?1 LIMIT 1")
		.bind(owner.accountId)
		.first<{ id: string; event_id: string }>();
	const batch = createMessageBatch<DeliveryMessage>("framed-print-webhooks", [
		{ id: "by-delivery", timestamp: new Date(), attempts: 1, body: { delivery_id: delivery?.id ?? "" } },
		{ id: "by-event", timestamp: new Date(), attempts: 1, body: { event_id: delivery?.event_id ?? "" } },
	]);
	const queueCtx = createExecutionContext();
	await worker.queue(batch, env);
	await getQueueResult(batch, queueCtx);
	const dead = createMessageBatch<DeliveryMessage>("framed-print-webhooks-dlq", [
		{ id: "dead", timestamp: new Date(), attempts: 1, body: { event_id: delivery?.event_id ?? "" } },
	]);
	const deadCtx = createExecutionContext();
	await worker.queue(dead, env);
	await getQueueResult(dead, deadCtx);
	// Background attempts and validations settle.
	await new Promise((resolve) => setTimeout(resolve, 1500));
}
