/**
 * The Idempotency-Key header on the routes that change something: a retry with the same key and request
 * gets the first answer again and changes nothing; the same key with another request is refused; keys
 * are apart per account, mode and kind of key; a 5xx frees the key; GETs and the order create ignore it.
 */
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { planKey } from "../../src/accounts/provisioning.ts";
import { runBatch } from "../../src/accounts/store.ts";
import { app } from "../../src/app.ts";
import { ABANDONED_AFTER_MS, bodySha256, KEPT_FOR_MS } from "../../src/idempotency/rules.ts";
import { damagedBody, deliveredOrder } from "../claims/claim-helpers.ts";
import { api, createPartner, errorOf, expectError } from "../helpers.ts";
import { createOrder, orderBody, partnerWithFile, SHIP_TO, settleValidation } from "../orders/order-helpers.ts";
import { hookUrl } from "../webhooks/webhook-helpers.ts";

/** A JSON request with `key` as its Idempotency-Key (and `apiKey` as its bearer key). */
function sendWithKey(method: string, path: string, apiKey: string, key: string, body?: unknown): Promise<Response> {
	return api(path, {
		method,
		key: apiKey,
		headers: { "Idempotency-Key": key },
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	});
}

/** A fresh key, as a client would make one for a request it may have to retry. */
function freshKey(): string {
	return crypto.randomUUID();
}

/** How many webhook endpoints the account's key sees. */
async function endpointCount(apiKey: string): Promise<number> {
	const response = await api("/v1/webhook-endpoints", { key: apiKey });
	expect(response.status).toBe(200);
	return ((await response.json()) as { data: unknown[] }).data.length;
}

/** The answer as a client compares it: status, the headers that describe the body, and the body's bytes. */
async function answerOf(response: Response) {
	return {
		status: response.status,
		contentType: response.headers.get("Content-Type"),
		location: response.headers.get("Location"),
		body: await response.text(),
	};
}

describe("Idempotency-Key on POST /v1/webhook-endpoints", () => {
	it("a retry with the same key and body gets the first answer byte for byte, marked replayed, and adds no endpoint", async () => {
		const { keys } = await createPartner();
		const key = freshKey();
		const body = { url: hookUrl("idempotent"), description: "Orders to the warehouse" };
		const first = await sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, key, body);
		expect(first.status).toBe(201);
		expect(first.headers.get("Idempotent-Replayed")).toBeNull();
		const retry = await sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, key, body);
		expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
		expect(await answerOf(retry)).toEqual(await answerOf(first));
		// A replay is still a counted request of this key, with this request's own id.
		expect(retry.headers.get("X-RateLimit-Limit")).not.toBeNull();
		expect(retry.headers.get("X-Request-Id")).not.toBe(first.headers.get("X-Request-Id"));
		expect(await endpointCount(keys.live.key)).toBe(1);
	});

	it("the same key with another body is a 409 idempotency_key_reused naming the header, and adds nothing", async () => {
		const { keys } = await createPartner();
		const key = freshKey();
		const first = await sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, key, { url: hookUrl("a") });
		expect(first.status).toBe(201);
		const other = await sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, key, { url: hookUrl("b") });
		const error = await expectError(other, "conflict", "Idempotency-Key");
		expect(error.code).toBe("idempotency_key_reused");
		expect(error.message).toContain("POST /v1/webhook-endpoints with another body");
		expect(await endpointCount(keys.live.key)).toBe(1);
	});

	it("the same key on another route is a 409 idempotency_key_reused naming the first request", async () => {
		const { keys } = await createPartner();
		const key = freshKey();
		expect((await sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, key, { url: hookUrl("c") })).status).toBe(
			201,
		);
		const other = await sendWithKey("POST", "/v1/webhook-secret/rotate", keys.live.key, key);
		const error = await expectError(other, "conflict", "Idempotency-Key");
		expect(error.code).toBe("idempotency_key_reused");
		expect(error.message).toContain("POST /v1/webhook-endpoints");
	});

	it("another account's request with the same key is its own: both run", async () => {
		const [one, two] = [await createPartner(), await createPartner()];
		const key = freshKey();
		const body = { url: hookUrl("shared-key") };
		const first = await sendWithKey("POST", "/v1/webhook-endpoints", one.keys.live.key, key, body);
		const second = await sendWithKey("POST", "/v1/webhook-endpoints", two.keys.live.key, key, body);
		expect([first.status, second.status]).toEqual([201, 201]);
		expect(second.headers.get("Idempotent-Replayed")).toBeNull();
		expect(await endpointCount(two.keys.live.key)).toBe(1);
	});

	it("the test mode's request with the live mode's key is its own: both run", async () => {
		const { keys } = await createPartner();
		const key = freshKey();
		const body = { url: hookUrl("both-modes") };
		const live = await sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, key, body);
		const test = await sendWithKey("POST", "/v1/webhook-endpoints", keys.test.key, key, body);
		expect([live.status, test.status]).toEqual([201, 201]);
		expect(test.headers.get("Idempotent-Replayed")).toBeNull();
		expect([await endpointCount(keys.live.key), await endpointCount(keys.test.key)]).toEqual([1, 1]);
	});

	it("two requests with one key at once act once: one runs, the other replays it or is told it is in use", async () => {
		const { keys } = await createPartner();
		const key = freshKey();
		const body = { url: hookUrl("racing") };
		const answers = await Promise.all(
			[1, 2].map(() => sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, key, body)),
		);
		const ran = answers.filter((answer) => answer.status === 201 && answer.headers.get("Idempotent-Replayed") === null);
		expect(ran).toHaveLength(1);
		for (const answer of answers) {
			if (answer === ran[0]) continue;
			if (answer.status === 409) {
				expect((await errorOf(answer)).code).toBe("idempotency_key_in_use");
				expect(answer.headers.get("Retry-After")).toBe("1");
			} else {
				expect(answer.headers.get("Idempotent-Replayed")).toBe("true");
			}
		}
		expect(await endpointCount(keys.live.key)).toBe(1);
	});

	it("a refusal of the request (a 422) is kept and replayed as it was", async () => {
		const { keys } = await createPartner();
		const key = freshKey();
		const body = { url: "http://insecure.example/hook" };
		const first = await sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, key, body);
		expect(first.status).toBe(422);
		const retry = await sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, key, body);
		expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
		// Byte for byte, so its request_id is the first request's.
		expect(await answerOf(retry)).toEqual(await answerOf(first));
	});
});

describe("Idempotency-Key on other routes that change something", () => {
	it("a quote retried with the same key is the same quote", async () => {
		const { key, file } = await partnerWithFile();
		const body = {
			ship_to: SHIP_TO,
			items: [{ print_file_id: file, width_in: 8, height_in: 10, frame: "walnut-flat-075" }],
		};
		const idempotencyKey = freshKey();
		const first = await sendWithKey("POST", "/v1/quotes", key, idempotencyKey, body);
		expect(first.status).toBe(201);
		const retry = await sendWithKey("POST", "/v1/quotes", key, idempotencyKey, body);
		expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
		const [one, two] = [(await first.json()) as { id: string }, (await retry.json()) as { id: string }];
		expect(two.id).toBe(one.id);
		const fresh = await sendWithKey("POST", "/v1/quotes", key, freshKey(), body);
		expect(((await fresh.json()) as { id: string }).id).not.toBe(one.id);
	});

	it("a claim retried with the same key makes one claim", async () => {
		const delivered = await deliveredOrder(2);
		const body = damagedBody(delivered.itemId, 1, [delivered.photo]);
		const key = freshKey();
		const path = `/v1/orders/${delivered.order.id}/claims`;
		const first = await sendWithKey("POST", path, delivered.key, key, body);
		expect(first.status).toBe(201);
		const retry = await sendWithKey("POST", path, delivered.key, key, body);
		expect(retry.status).toBe(201);
		expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
		const claims = await api(path, { key: delivered.key });
		expect(((await claims.json()) as { data: unknown[] }).data).toHaveLength(1);
	});

	it("an operator's hold retried with the same key holds once, and answers the first 200 again", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await settleValidation(made.key, (await createOrder(made.key, orderBody(made.file))).id);
		const key = freshKey();
		const path = `/v1/ops/orders/${order.id}/hold`;
		const body = { message: "Frame stock short: the order waits for the walnut moulding." };
		const first = await sendWithKey("POST", path, made.opsKey, key, body);
		expect(first.status).toBe(200);
		const retry = await sendWithKey("POST", path, made.opsKey, key, body);
		expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
		expect(await answerOf(retry)).toEqual(await answerOf(first));
		const holds = await env.DB.prepare(
			"SELECT COUNT(*) AS n FROM order_moves WHERE order_id = ?1 AND to_status = 'on_hold'",
		)
			.bind(order.id)
			.first<{ n: number }>();
		expect(holds?.n).toBe(1);
	});

	it("an ops key's keys are apart from the partner keys of its own account", async () => {
		const made = await partnerWithFile();
		const { issued, statement } = await planKey(made.partner.account.id, "live", ["ops"], new Date());
		await runBatch(env.DB, [statement]);
		const key = freshKey();
		const order = await createOrder(made.key, orderBody(made.file));
		const partner = await sendWithKey("POST", `/v1/orders/${order.id}/cancel`, made.key, key);
		expect(partner.status).toBe(200);
		const ops = await sendWithKey("POST", `/v1/ops/orders/${order.id}/hold`, issued.key, key, { message: "Hold it." });
		// Not a 409 idempotency_key_reused: the ops key ran its own request (refused, the order being canceled).
		expect((await errorOf(ops)).code).toBe("order_move_refused");
	});

	it("a DELETE retried with the same key answers the first 204, not the 404 a second delete gets", async () => {
		const { keys } = await createPartner();
		const created = await sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, freshKey(), {
			url: hookUrl("d"),
		});
		const { id } = (await created.json()) as { id: string };
		const key = freshKey();
		const first = await sendWithKey("DELETE", `/v1/webhook-endpoints/${id}`, keys.live.key, key);
		expect(first.status).toBe(204);
		const retry = await sendWithKey("DELETE", `/v1/webhook-endpoints/${id}`, keys.live.key, key);
		expect(retry.status).toBe(204);
		expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
		expect(await retry.text()).toBe("");
		const unkeyed = await api(`/v1/webhook-endpoints/${id}`, { method: "DELETE", key: keys.live.key });
		expect(unkeyed.status).toBe(404);
	});

	it("a PATCH retried with the same key answers the first change, costs_changed included", async () => {
		const { key, file } = await partnerWithFile();
		const order = await createOrder(key, orderBody(file));
		const idempotencyKey = freshKey();
		const change = { metadata: { shop_order_ref: "SO-RETRY-1" } };
		const first = await sendWithKey("PATCH", `/v1/orders/${order.id}`, key, idempotencyKey, change);
		expect(first.status).toBe(200);
		const retry = await sendWithKey("PATCH", `/v1/orders/${order.id}`, key, idempotencyKey, change);
		expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
		expect(await answerOf(retry)).toEqual(await answerOf(first));
	});

	it("a shipments CSV retried with the same key answers the first report, and its route still reads the whole file", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await settleValidation(made.key, (await createOrder(made.key, orderBody(made.file))).id);
		const csv = `order_id,carrier,tracking_number\n${order.id},UPS,1Z999AA10123456784\n`;
		const key = freshKey();
		const importWithKey = () =>
			api("/v1/ops/shipments/import", {
				method: "POST",
				key: made.opsKey,
				headers: { "Content-Type": "text/csv", "Idempotency-Key": key },
				body: csv,
			});
		const first = await importWithKey();
		expect(first.status).toBe(200);
		expect(await first.clone().json()).toMatchObject({ shipped: 1, already_shipped: 0 });
		const retry = await importWithKey();
		expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
		// The first report, not the "already shipped" a second run would write.
		expect(await answerOf(retry)).toEqual(await answerOf(first));
	});

	it("a 5xx is not kept: the key is free, and the retry runs", async () => {
		const made = await partnerWithFile();
		const order = await createOrder(made.key, orderBody(made.file));
		const key = freshKey();
		const path = `/v1/orders/${order.id}/cancel`;
		// The order's machine unreachable: the cancel fails on the service's side.
		const broken = {
			...env,
			ORDER_MACHINE: {
				idFromName: () => {
					throw new Error("the machine is unreachable");
				},
			},
		} as unknown as Env;
		const request = new Request(`https://api.test${path}`, {
			method: "POST",
			headers: { Authorization: `Bearer ${made.key}`, "Idempotency-Key": key },
		});
		// Straight to the app, past the document's check: no route documents the 500 every route may answer.
		const failed = await app.fetch(request, broken, createExecutionContext());
		expect(failed.status).toBe(500);
		const retry = await sendWithKey("POST", path, made.key, key);
		expect(retry.status).toBe(200);
		expect(retry.headers.get("Idempotent-Replayed")).toBeNull();
		expect(((await retry.json()) as { status: string }).status).toBe("canceled");
	});
});

describe("what the header is and where it counts", () => {
	it("a malformed key is a 400 idempotency_key_malformed naming the header, and nothing is made", async () => {
		const { keys } = await createPartner();
		for (const key of ["", "k".repeat(256), "del\u007f", "tab\there"]) {
			const response = await sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, key, { url: hookUrl("bad") });
			const error = await expectError(response, "bad_request", "Idempotency-Key");
			expect(error.code).toBe("idempotency_key_malformed");
		}
		expect(await endpointCount(keys.live.key)).toBe(0);
		const longest = await sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, "k".repeat(255), {
			url: hookUrl("longest"),
		});
		expect(longest.status).toBe(201);
	});

	it("a key on a GET is ignored, even a malformed one", async () => {
		const { keys } = await createPartner();
		for (let attempt = 0; attempt < 2; attempt += 1) {
			const response = await api("/v1/webhook-endpoints", { key: keys.live.key, headers: { "Idempotency-Key": "" } });
			expect(response.status).toBe(200);
			expect(response.headers.get("Idempotent-Replayed")).toBeNull();
		}
	});

	it("the order create ignores it: its key is the external_id", async () => {
		const { key, file } = await partnerWithFile();
		const idempotencyKey = freshKey();
		const first = await sendWithKey("POST", "/v1/orders", key, idempotencyKey, orderBody(file));
		expect(first.status).toBe(201);
		// Another order under the same header: a new external_id is a new order.
		const second = await sendWithKey("POST", "/v1/orders", key, idempotencyKey, orderBody(file));
		expect(second.status).toBe(201);
		expect(second.headers.get("Idempotent-Replayed")).toBeNull();
	});

	it("a key still running is a 409 idempotency_key_in_use with Retry-After: 1", async () => {
		const { account, keys } = await createPartner();
		const key = freshKey();
		const body = JSON.stringify({ url: hookUrl("running") });
		await insertKeyRow(account.id, key, "POST /v1/webhook-endpoints", body, { createdAgoMs: 1000, state: "in_flight" });
		const response = await api("/v1/webhook-endpoints", {
			method: "POST",
			key: keys.live.key,
			headers: { "Idempotency-Key": key },
			body,
		});
		const error = await expectError(response, "conflict", "Idempotency-Key");
		expect(error.code).toBe("idempotency_key_in_use");
		expect(response.headers.get("Retry-After")).toBe("1");
		expect(await endpointCount(keys.live.key)).toBe(0);
	});

	it("a key left running for over a minute (its Worker died) is taken over by the same request", async () => {
		const { account, keys } = await createPartner();
		const key = freshKey();
		const body = JSON.stringify({ url: hookUrl("abandoned") });
		await insertKeyRow(account.id, key, "POST /v1/webhook-endpoints", body, {
			createdAgoMs: ABANDONED_AFTER_MS + 1000,
			state: "in_flight",
		});
		const response = await api("/v1/webhook-endpoints", {
			method: "POST",
			key: keys.live.key,
			headers: { "Idempotency-Key": key },
			body,
		});
		expect(response.status).toBe(201);
		expect(await endpointCount(keys.live.key)).toBe(1);
	});

	it("an expired key is free for any request", async () => {
		const { account, keys } = await createPartner();
		const key = freshKey();
		await insertKeyRow(account.id, key, "POST /v1/webhook-secret/rotate", "", {
			createdAgoMs: KEPT_FOR_MS + 1000,
			state: "done",
		});
		const response = await sendWithKey("POST", "/v1/webhook-endpoints", keys.live.key, key, { url: hookUrl("after") });
		expect(response.status).toBe(201);
		expect(response.headers.get("Idempotent-Replayed")).toBeNull();
	});
});

/**
 * The operations that ignore the header, each for its reason: the order create has its own key (the
 * external_id), and the other three change nothing.
 */
const IGNORING_THE_HEADER = [
	"post /v1/orders",
	"post /v1/addresses/check",
	"post /v1/previews",
	"post /v1/ops/shipments/import/preview",
];

describe("which operations honour it", () => {
	it("every POST, PUT, PATCH and DELETE behind a key in the three documents declares it, but the four that ignore it", async () => {
		const honouring: string[] = [];
		const ignoring: string[] = [];
		for (const path of ["/v1/openapi.json", "/v1/ops/openapi.json", "/v1/admin/openapi.json"]) {
			const document = (await (await api(path)).json()) as {
				paths: Record<
					string,
					Record<string, { security?: unknown[]; parameters?: Array<{ name: string; in: string }> }>
				>;
			};
			for (const [route, operations] of Object.entries(document.paths)) {
				for (const [method, operation] of Object.entries(operations)) {
					if (!["post", "put", "patch", "delete"].includes(method) || (operation.security ?? []).length === 0) continue;
					const declares = (operation.parameters ?? []).some(
						(parameter) => parameter.in === "header" && parameter.name === "Idempotency-Key",
					);
					(declares ? honouring : ignoring).push(`${method} ${route}`);
				}
			}
		}
		expect(ignoring.sort()).toEqual([...IGNORING_THE_HEADER].sort());
		for (const route of [
			"post /v1/orders/{id}/claims",
			"post /v1/orders/{id}/cancel",
			"patch /v1/orders/{id}",
			"post /v1/webhook-endpoints",
			"delete /v1/webhook-endpoints/{id}",
			"post /v1/webhook-endpoints/{id}/test",
			"post /v1/events/{id}/redeliver",
			"post /v1/webhook-secret/rotate",
			"post /v1/quotes",
			"post /v1/print-files",
			"post /v1/ops/orders/{id}/ship",
			"post /v1/ops/shipments/{id}/deliver",
			"post /v1/ops/claims/{id}/approve",
			"post /v1/admin/accounts",
			"post /v1/admin/keys/{key_id}/revoke",
			"put /v1/admin/accounts/{id}/limits",
			"post /v1/admin/accounts/{id}/adjustments",
			"post /v1/sandbox/orders/{id}/advance",
		]) {
			expect(honouring).toContain(route);
		}
	});
});

/** A key row of a live partner key written straight to D1, as a request `createdAgoMs` ago left it. */
async function insertKeyRow(
	accountId: string,
	key: string,
	request: string,
	body: string,
	options: { createdAgoMs: number; state: "in_flight" | "done" },
): Promise<void> {
	const created = new Date(Date.now() - options.createdAgoMs);
	const done = options.state === "done";
	await env.DB.prepare(
		`INSERT INTO idempotency_keys
		   (account_id, mode, credential_kind, idempotency_key, request, body_sha256, claim_token, state, status, headers, body, created_at, expires_at)
		 VALUES (?1, 'live', 'partner', ?2, ?3, ?4, 'another-request', ?5, ?6, ?7, ?8, ?9, ?10)`,
	)
		.bind(
			accountId,
			key,
			request,
			await bodySha256(new TextEncoder().encode(body)),
			options.state,
			done ? 200 : null,
			done ? '{"content-type":"application/json"}' : null,
			done ? "{}" : null,
			created.toISOString(),
			new Date(created.getTime() + KEPT_FOR_MS).toISOString(),
		)
		.run();
}
