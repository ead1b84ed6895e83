/**
 * The typed client (clients/typescript) as a partner uses it, against a real `wrangler dev` set up as
 * `npm start` runs it (R2 presigned uploads, development rules for a loopback callback_url): every
 * call goes through `createClient`, typed by the generated `schema.d.ts`, with no casts. Also: the
 * document that server serves generates exactly the checked-in types, and is the document
 * `npm run client:generate` builds in process; and `verifyWebhook` on bodies the service's own
 * signing code signed, and on a real delivery.
 */
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
	createClient,
	type FramedPrintClient,
	type Schemas,
	signWebhook,
	verifyWebhook,
	WEBHOOK_EVENT_TYPES,
	type WebhookEvent,
	WebhookVerificationError,
} from "../../clients/typescript/index.ts";
import { createAccount } from "../../scripts/lib/accounts.ts";
import { clientFiles, firstDifference } from "../../scripts/lib/client-schema.ts";
import { type DevServer, freePort, startDevServer } from "../../scripts/lib/dev-server.ts";
import { tiffWithIfdAtEnd } from "../../scripts/lib/image-fixtures.ts";
import { presignedUploadVars } from "../../scripts/lib/local-uploads.ts";
import { migrateFreshFolder } from "../../scripts/lib/migrated-template.ts";
import { buildOpenApiDocument } from "../../scripts/lib/openapi-document.ts";
import { PROJECT_ROOT } from "../../scripts/lib/wrangler.ts";
import { generateWebhookSecret } from "../../src/accounts/keys.ts";
import type { NewAccount } from "../../src/admin/provisioning.ts";
import { signatureHeader } from "../../src/webhooks/signature.ts";
import { standardWebhookHeaders } from "../../src/webhooks/standard-webhooks.ts";
import { closeServer } from "./cli-support.ts";

/** What a call answers, as openapi-fetch types it: data on success, error otherwise. */
type Answer<Data, Failure> = { data?: Data; error?: Failure; response: Response };

/** The answer's data, after checking its status; a failure throws with the error envelope. */
function dataOf<Data, Failure>(answer: Answer<Data, Failure>, status: number): Data {
	if (answer.data === undefined) {
		throw new Error(`${answer.response.url} answered ${answer.response.status}: ${JSON.stringify(answer.error)}`);
	}
	expect(answer.response.status).toBe(status);
	return answer.data;
}

/** Reads until `done` holds (or the time runs out), returning the last reading. */
async function readUntil<Value>(
	what: string,
	read: () => Promise<Value>,
	done: (value: Value) => boolean,
	timeoutMs = 30_000,
): Promise<Value> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (done(value)) return value;
		if (Date.now() > deadline)
			throw new Error(`${what}: not reached within ${timeoutMs} ms; last: ${JSON.stringify(value)}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

type Delivery = { headers: IncomingHttpHeaders; body: string };

const SHIP_TO: Schemas["ShipTo"] = {
	name: "Ada Lovelace",
	address1: "12 Harbour Street",
	city: "Portland",
	state: "ME",
	zip: "04101",
	country: "US",
};
/** 8 × 10 in, framed in walnut over a white mat: the walkthrough's (docs/partner-walkthrough.md). `quantity` left to its default. */
const ITEM = { width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" } as const;

describe("a partner's flow through the typed client, against wrangler dev", () => {
	let folder = "";
	let server: DevServer | undefined;
	let receiver: Server | undefined;
	let receiverUrl = "";
	let partner: NewAccount;
	let api: FramedPrintClient;
	const deliveries: Delivery[] = [];
	let orderId = "";

	function origin(): string {
		if (server === undefined) throw new Error("wrangler dev did not start");
		return server.origin;
	}

	beforeAll(async () => {
		folder = await mkdtemp(path.join(tmpdir(), "fps-typed-client-"));
		receiver = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on("data", (chunk: Buffer) => chunks.push(chunk));
			request.on("end", () => {
				deliveries.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
				response.writeHead(204).end();
			});
		});
		receiver.listen(0, "127.0.0.1");
		await once(receiver, "listening");
		const address = receiver.address();
		if (address === null || typeof address === "string") throw new Error("the receiver has no port");
		receiverUrl = `http://127.0.0.1:${address.port}/webhooks`;

		await migrateFreshFolder(folder);
		partner = await createAccount({ remote: false, persistTo: folder }, "Typed Client Partner");
		const port = await freePort();
		server = await startDevServer({
			port,
			persistTo: folder,
			// As npm start: presigned R2 uploads, and a loopback http callback_url allowed.
			vars: { ENVIRONMENT: "development", ...presignedUploadVars(`http://127.0.0.1:${port}`) },
		});
		api = createClient({ baseUrl: server.origin, apiKey: partner.keys.live.key });
	});

	afterAll(async () => {
		await server?.stop();
		await closeServer(receiver);
		await rm(folder, { recursive: true, force: true });
	});

	it("the served document generates the checked-in schema.d.ts and webhook-events.ts, and is the one npm run client:generate builds", async () => {
		const response = await fetch(`${origin()}/v1/openapi.json`);
		expect(response.status).toBe(200);
		const served = await response.text();

		for (const { file, text } of await clientFiles(served)) {
			const difference = firstDifference(text, await readFile(path.join(PROJECT_ROOT, file), "utf8"));
			expect(
				difference,
				`${file} is stale against the served document (npm run client:generate):\n${difference}`,
			).toBeNull();
		}

		// The in-process build differs only in `servers`, which names the origin asked.
		const inProcess = await buildOpenApiDocument();
		expect({ ...JSON.parse(served), servers: null }).toEqual({ ...inProcess, servers: null });
	});

	it("catalog, price book, quote, upload, order, in production, list and events, every call typed", async () => {
		// What can be ordered: the walkthrough's frame, mat and size exist.
		const catalog = dataOf(await api.GET("/v1/catalog"), 200);
		expect(catalog.frames.map((frame) => frame.slug)).toContain(ITEM.frame);
		expect(catalog.mats.map((mat) => mat.slug)).toContain(ITEM.mat);
		expect(catalog.sizes.min_in).toBeLessThanOrEqual(8);
		expect(catalog.sizes.max_in).toBeGreaterThanOrEqual(10);

		const book = dataOf(await api.GET("/v1/price-book"), 200);
		expect(book.version).toBeGreaterThanOrEqual(1);
		expect(book.currency).toBe("USD");
		expect(book.frames.mills_per_foot[ITEM.frame]).toBeGreaterThan(0);

		// A print file: the upload ticket, then a real 2400 × 3000 px TIFF (300 DPI at 8 × 10 in) PUT to R2.
		const tiff = tiffWithIfdAtEnd(2400, 3000, 2400 * 3000 * 3);
		const ticket = dataOf(
			await api.POST("/v1/print-files", {
				body: { content_type: "image/tiff", filename: "harbour.tif", size_bytes: tiff.byteLength },
			}),
			201,
		);
		expect(ticket.status).toBe("awaiting_upload");
		expect(ticket.upload_method).toBe("PUT");
		expect(new URL(ticket.upload_url).pathname).toMatch(/^\/cdn-cgi\/local\/r2\/s3\//);
		const stored = await fetch(ticket.upload_url, {
			method: ticket.upload_method,
			headers: ticket.upload_headers,
			body: tiff,
		});
		expect(stored.status, await stored.clone().text()).toBe(200);

		const file = await readUntil(
			"the print file is inspected",
			async () => dataOf(await api.GET("/v1/print-files/{id}", { params: { path: { id: ticket.id } } }), 200),
			(printFile) => printFile.status === "ready" || printFile.status === "invalid",
		);
		expect(file).toMatchObject({ status: "ready", format: "tiff", width_px: 2400, height_px: 3000 });
		expect(file.invalid_reason).toBeNull();
		expect(file.size_bytes).toBe(tiff.byteLength);

		// The quote: the file is fit for the size, every shipping option priced.
		const quote = dataOf(
			await api.POST("/v1/quotes", {
				body: { ship_to: SHIP_TO, items: [{ ...ITEM, print_file_id: ticket.id }] },
			}),
			201,
		);
		expectTypeOf(quote.ship_to).toEqualTypeOf<Schemas["ShipTo"] | null>();
		expect(quote.ship_to?.country).toBe("US");
		expect(quote.price_book_version).toBe(book.version);
		const [quoted] = quote.items;
		expect(quoted).toMatchObject({
			quantity: 1,
			frame: ITEM.frame,
			mat: ITEM.mat,
			resolution: "ok",
			effective_dpi: 300,
		});
		expect(quote.shipping_options.map((option) => option.method)).toContain("standard");
		const standard = quote.totals.by_method.standard;
		if (standard === undefined) throw new Error("the quote has no standard total");
		expect(standard.total).toBe(quote.totals.items + standard.shipping);

		// The order against the quote, with the receiver as callback_url: charged the quote's standard total.
		const externalId = `PO-TYPED-${Date.now()}`;
		const created = dataOf(
			await api.POST("/v1/orders", {
				body: {
					external_id: externalId,
					quote_id: quote.id,
					shipping_method: "standard",
					callback_url: receiverUrl,
					ship_to: SHIP_TO,
					items: [{ ...ITEM, print_file_id: ticket.id }],
				},
			}),
			201,
		);
		orderId = created.id;
		expect(created.external_id).toBe(externalId);
		expect(created.mode).toBe("live");
		expect(created.costs).toMatchObject({ currency: "USD", total: standard.total, quote_id: quote.id });
		expect(created.items[0]).toMatchObject({ quantity: 1, print_file_id: ticket.id, frame: ITEM.frame });

		// Read until validation puts it in production.
		const inProduction = await readUntil(
			"the order reaches in_production",
			async () => dataOf(await api.GET("/v1/orders/{id}", { params: { path: { id: orderId } } }), 200),
			(order) => order.status !== "received" && order.status !== "validating",
		);
		expect(inProduction.status).toBe("in_production");
		expect(inProduction.hold_reason).toBeNull();
		expect(inProduction.version).toBeGreaterThan(created.version);

		// The list, filtered by status, has it; so does the read by the partner's own id.
		const page = dataOf(
			await api.GET("/v1/orders", { params: { query: { status: "in_production", limit: 10 } } }),
			200,
		);
		expect(page.data.map((order) => order.id)).toContain(orderId);
		expect(page.data.every((order) => order.status === "in_production")).toBe(true);
		const byExternalId = dataOf(
			await api.GET("/v1/orders/by-external-id/{external_id}", { params: { path: { external_id: externalId } } }),
			200,
		);
		expect(byExternalId.id).toBe(orderId);

		// Its events: received, then in production (newest first), the latter sent to the callback_url.
		const events = dataOf(await api.GET("/v1/events", { params: { query: { order_id: orderId } } }), 200);
		expect(events.data.map((event) => event.type)).toEqual(["order.in_production", "order.received"]);
		expect(events.data.every((event) => event.order_id === orderId)).toBe(true);
		const sent = events.data[0];
		expect(sent?.body).toMatchObject({ event: "order.in_production", order_id: orderId, external_id: externalId });
	});

	it("the order's in_production webhook, as delivered, passes verifyWebhook and comes back typed", async () => {
		expect(orderId, "the flow test made no order").not.toBe("");
		const delivery = await readUntil(
			"the in_production webhook arrives",
			async () => deliveries.find((candidate) => candidate.body.includes('"order.in_production"')),
			(found) => found !== undefined,
		);
		if (delivery === undefined) throw new Error("no delivery");
		const event = await verifyWebhook(delivery.body, delivery.headers, partner.webhook_secrets.live);
		expect(event.event).toBe("order.in_production");
		if (event.event !== "order.in_production") throw new Error("narrowing");
		expect(event).toMatchObject({ order_id: orderId, status: "in_production" });
		expect(event.id).toBe(delivery.headers["webhook-id"]);

		// The same delivery under the test mode's secret is refused.
		await expect(verifyWebhook(delivery.body, delivery.headers, partner.webhook_secrets.test)).rejects.toMatchObject({
			reason: "no_matching_signature",
		});
	});

	it("refusals come back as the typed error envelope, with their code", async () => {
		const missing = await api.GET("/v1/orders/{id}", { params: { path: { id: "ord_doesnotexist" } } });
		expect(missing.response.status).toBe(404);
		expect(missing.data).toBeUndefined();
		expect(missing.error?.error.type).toBe("not_found");
		expect(missing.error?.error.code).toBe("order_not_found");
		expect(missing.error?.error.request_id).toBe(missing.response.headers.get("X-Request-Id"));

		const invalid = await api.POST("/v1/quotes", {
			body: { ship_to: SHIP_TO, items: [{ ...ITEM, frame: "no-such-frame" }] },
		});
		expect(invalid.response.status).toBe(422);
		expect(invalid.error?.error).toMatchObject({
			type: "validation_error",
			code: "frame_not_found",
			field: "items[0].frame",
		});

		const stranger = createClient({ baseUrl: origin(), apiKey: "fps_live_0000000000000000000000000000000000" });
		const refused = await stranger.GET("/v1/catalog");
		expect(refused.response.status).toBe(401);
		expect(refused.error?.error.type).toBe("unauthorized");
		expect(refused.error?.error.code).toBe("api_key_invalid");
	});
});

describe("verifyWebhook", () => {
	const secret = generateWebhookSecret();
	const shipped: Schemas["OrderShippedEvent"] = {
		id: "evt_typedClient1",
		event: "order.shipped",
		created_at: "2026-11-21T10:00:00.000Z",
		order_id: "ord_typedClient1",
		external_id: "PO-1001",
		status: "shipped",
		version: 4,
		tracking: { carrier: "UPS", number: "1Z999", url: "https://ups.example/1Z999" },
		shipped_at: "2026-11-21T10:00:00.000Z",
		metadata: { shop_order_ref: "SO-48213" },
	};
	const body = JSON.stringify(shipped);
	const now = () => Math.floor(Date.now() / 1000);

	async function refusal(promise: Promise<WebhookEvent>): Promise<WebhookVerificationError> {
		const error = await promise.then(
			() => null,
			(thrown: unknown) => thrown,
		);
		if (!(error instanceof WebhookVerificationError)) throw new Error(`expected a refusal, got ${String(error)}`);
		return error;
	}

	it("accepts a body the service's own signing signed with the secret as issued, and returns it typed", async () => {
		const headers = standardWebhookHeaders(shipped.id, body, [secret], now());
		const event = await verifyWebhook(body, headers, secret);
		expect(event).toEqual(shipped);
		expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
		if (event.event !== "order.shipped") throw new Error(`unexpected ${event.event}`);
		// Narrowed on `event`: the shipped body's own fields are typed.
		expectTypeOf(event.tracking).toEqualTypeOf<{ carrier: string; number: string; url: string }>();
		expect(event.tracking.number).toBe("1Z999");

		// A fetch Headers, and the body as bytes, work the same.
		expect(await verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret)).toEqual(shipped);
	});

	it("signWebhook gives the headers the service's own signing gives, and verifyWebhook accepts them", async () => {
		const at = now();
		const headers = await signWebhook(body, secret, { id: shipped.id, timestampSeconds: at });
		expect(headers).toEqual({
			"Content-Type": "application/json",
			"User-Agent": "FramedPrintWebhooks/1.0",
			"SVC-Signature": await signatureHeader(body, [secret], at),
			...standardWebhookHeaders(shipped.id, body, [secret], at),
		});
		expect(await verifyWebhook(body, headers, secret)).toEqual(shipped);
		await expect(signWebhook(body, "whsec_not base64!", { id: shipped.id })).rejects.toThrow(TypeError);
	});

	it("accepts during a rotation, whichever of the two secrets the receiver holds", async () => {
		const next = generateWebhookSecret();
		const headers = standardWebhookHeaders(shipped.id, body, [next, secret], now());
		expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
		expect((await verifyWebhook(body, headers, secret)).id).toBe(shipped.id);
		expect((await verifyWebhook(body, headers, next)).id).toBe(shipped.id);
		expect((await verifyWebhook(body, headers, [generateWebhookSecret(), next])).id).toBe(shipped.id);
	});

	it("knows every event the document's webhooks name", async () => {
		expect(WEBHOOK_EVENT_TYPES).toEqual(expect.arrayContaining(["order.in_production", "order.shipped"]));
		for (const type of WEBHOOK_EVENT_TYPES) {
			const signedBody = JSON.stringify({ id: `evt_${type}`, event: type });
			const headers = standardWebhookHeaders(`evt_${type}`, signedBody, [secret], now());
			expect((await verifyWebhook(signedBody, headers, secret)).event).toBe(type);
		}
	});

	it("refuses a tampered body, a wrong secret, a changed id and a signature that is not v1", async () => {
		const headers = standardWebhookHeaders(shipped.id, body, [secret], now());
		const tampered = body.replace('"version":4', '"version":5');
		expect(tampered).not.toBe(body);
		expect((await refusal(verifyWebhook(tampered, headers, secret))).reason).toBe("no_matching_signature");
		expect((await refusal(verifyWebhook(`${body} `, headers, secret))).reason).toBe("no_matching_signature");

		const wrong = await refusal(verifyWebhook(body, headers, generateWebhookSecret()));
		expect(wrong.reason).toBe("no_matching_signature");
		expect(wrong.message).toMatch(/secret/);

		const otherId = { ...headers, "webhook-id": "evt_other" };
		expect((await refusal(verifyWebhook(body, otherId, secret))).reason).toBe("no_matching_signature");

		const v2 = { ...headers, "webhook-signature": headers["webhook-signature"].replace(/^v1,/, "v2,") };
		const notV1 = await refusal(verifyWebhook(body, v2, secret));
		expect(notV1.reason).toBe("no_matching_signature");
		expect(notV1.message).toMatch(/no v1 signature/);
	});

	it("refuses a timestamp more than 5 minutes old or ahead, or not a number", async () => {
		const old = standardWebhookHeaders(shipped.id, body, [secret], now() - 301);
		const stale = await refusal(verifyWebhook(body, old, secret));
		expect(stale.reason).toBe("timestamp_out_of_tolerance");
		expect(stale.message).toMatch(/ago/);
		const ahead = standardWebhookHeaders(shipped.id, body, [secret], now() + 301);
		expect((await refusal(verifyWebhook(body, ahead, secret))).reason).toBe("timestamp_out_of_tolerance");
		// Just inside the window, and a tolerance of one's own.
		const recent = standardWebhookHeaders(shipped.id, body, [secret], now() - 290);
		expect((await verifyWebhook(body, recent, secret)).id).toBe(shipped.id);
		expect((await refusal(verifyWebhook(body, recent, secret, { toleranceSeconds: 60 }))).reason).toBe(
			"timestamp_out_of_tolerance",
		);

		const headers = standardWebhookHeaders(shipped.id, body, [secret], now());
		const garbled = { ...headers, "webhook-timestamp": "yesterday" };
		expect((await refusal(verifyWebhook(body, garbled, secret))).reason).toBe("invalid_timestamp");
	});

	it("refuses missing headers, a secret that is not one, and a signed body that is not a known event", async () => {
		const headers = standardWebhookHeaders(shipped.id, body, [secret], now());
		for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
			const { [name]: _left, ...rest } = headers;
			const missing = await refusal(verifyWebhook(body, rest, secret));
			expect(missing.reason).toBe("missing_header");
			expect(missing.message).toContain(name);
		}
		expect((await refusal(verifyWebhook(body, headers, "whsec_not base64!"))).reason).toBe("invalid_secret");
		expect((await refusal(verifyWebhook(body, headers, []))).reason).toBe("invalid_secret");

		const unknown = JSON.stringify({ ...shipped, event: "order.teleported" });
		const signed = standardWebhookHeaders(shipped.id, unknown, [secret], now());
		expect((await refusal(verifyWebhook(unknown, signed, secret))).reason).toBe("unknown_event");
		const notJson = standardWebhookHeaders(shipped.id, "ok", [secret], now());
		expect((await refusal(verifyWebhook("ok", notJson, secret))).reason).toBe("invalid_body");
	});
});
