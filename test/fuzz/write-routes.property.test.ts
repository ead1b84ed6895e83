import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { api, createKeyWithScopes, createPartner, send } from "../helpers.ts";
import { encodePng } from "../imaging/fixtures/png.ts";
import { createOrder, orderBody, readyFile, SHIP_TO, settleValidation } from "../orders/order-helpers.ts";
import { requestUpload, type UploadTicket } from "../print-files/upload-helpers.ts";
import { checkResponse } from "./fuzz-checks.ts";

/**
 * Fuzzing every write route with malformed and half-valid bodies: whatever arrives, the answer is
 * never a 5xx, and every 4xx is the contract's JSON error envelope (type, message, request_id).
 */

const SEED = 20261121;
const NUM_RUNS = 40;
const HOOKS = "https://hooks.partner.example/ok/fuzz";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

/** Every path into a JSON value (not the root itself), parents before children. */
function pathsOf(value: Json, prefix: Path = []): Path[] {
	if (Array.isArray(value)) {
		return value.flatMap((entry, index) => [[...prefix, index], ...pathsOf(entry, [...prefix, index])]);
	}
	if (value !== null && typeof value === "object") {
		return Object.entries(value).flatMap(([key, entry]) => [[...prefix, key], ...pathsOf(entry, [...prefix, key])]);
	}
	return [];
}

/** A copy of `value` with the entry at `path` replaced by `replacement`, or deleted when it is undefined. */
function withEntry(value: Json, path: Path, replacement: Json | undefined): Json {
	const copy = structuredClone(value);
	let parent: Json = copy;
	for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[step] as Json;
	const last = path.at(-1);
	if (last === undefined) return replacement ?? null;
	if (Array.isArray(parent) && typeof last === "number") {
		if (replacement === undefined) parent.splice(last, 1);
		else parent[last] = replacement;
	} else if (parent !== null && typeof parent === "object" && !Array.isArray(parent)) {
		if (replacement === undefined) delete parent[last];
		else parent[last] = replacement;
	}
	return copy;
}

/** The valid body with one field replaced by any JSON value, deleted, or an extra key added. */
function oneFieldChanged(valid: Json): fc.Arbitrary<string> {
	const paths = pathsOf(valid);
	const extraKey = fc
		.tuple(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }))
		.map(([key, extra]) =>
			JSON.stringify(
				valid !== null && typeof valid === "object" && !Array.isArray(valid)
					? { ...valid, [key]: extra as Json }
					: extra,
			),
		);
	if (paths.length === 0) return extraKey;
	const changed = fc
		.tuple(fc.constantFrom(...paths), fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined, freq: 6 }))
		.map(([path, replacement]) => JSON.stringify(withEntry(valid, path, replacement as Json | undefined)));
	return fc.oneof({ weight: 4, arbitrary: changed }, { weight: 1, arbitrary: extraKey });
}

/** The UTF-8 bytes of `text` with `bytes` spliced in at `at` (which may cut a character in two). */
function spliced(text: string, at: number, bytes: Uint8Array): Uint8Array {
	const encoded = new TextEncoder().encode(text);
	const cut = Math.min(at, encoded.length);
	return Uint8Array.from([...encoded.subarray(0, cut), ...bytes, ...encoded.subarray(cut)]);
}

/**
 * Bodies: arbitrary JSON, arbitrary text, a cut-off valid body, a valid body with one field changed,
 * or bytes that need not be UTF-8 (random ones, or a valid body with random bytes spliced in).
 */
function bodies(valid: Json): fc.Arbitrary<string | Uint8Array> {
	const text = JSON.stringify(valid);
	const notUtf8 = fc.oneof(
		fc.uint8Array({ maxLength: 120 }),
		fc
			.tuple(fc.nat({ max: text.length }), fc.uint8Array({ minLength: 1, maxLength: 4, min: 0x80 }))
			.map(([at, bytes]) => spliced(text, at, bytes)),
	);
	return fc.oneof(
		fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
		fc.string({ maxLength: 200 }),
		fc.string({ unit: "grapheme", maxLength: 60 }),
		fc.string({ unit: "binary", maxLength: 60 }),
		fc.nat({ max: text.length }).map((cut) => text.slice(0, cut)),
		{ weight: 3, arbitrary: oneFieldChanged(valid) },
		{ weight: 1, arbitrary: fc.constant(text) },
		{ weight: 1, arbitrary: notUtf8 },
	);
}

/** Mostly JSON, sometimes a content type the route does not take (or a malformed one). */
const contentTypes = fc.oneof(
	{ weight: 6, arbitrary: fc.constant("application/json") },
	{
		weight: 1,
		arbitrary: fc.constantFrom(
			"application/json; charset=utf-8",
			"text/plain",
			"application/x-www-form-urlencoded",
			"multipart/form-data",
			"multipart/form-data; boundary=xyz",
			"application/octet-stream",
			"application/json; charset=nonsense",
			";;;",
		),
	},
);

/** A path segment: mostly the real id, sometimes any string, percent-encoded. */
function idSegment(real: string): fc.Arbitrary<string> {
	return fc.oneof(
		{ weight: 5, arbitrary: fc.constant(real) },
		{ weight: 1, arbitrary: fc.string({ maxLength: 40 }).map(encodeURIComponent) },
		{ weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }).map(encodeURIComponent) },
	);
}

type Setup = {
	live: string;
	test: string;
	admin: string;
	ops: string;
	accountId: string;
	limitsAccountId: string;
	fileId: string;
	logoId: string;
	held: Order;
	cancelTarget: Order;
	holdTarget: Order;
	shipTarget: Order;
	/** In production with a hundred units, so most shipments of one unit go through. */
	shipmentTarget: Order;
	/** A shipment of shipmentTarget, in transit until a run delivers or returns it. */
	shipmentId: string;
	sandboxOrder: Order;
	eventIds: string[];
	upload: UploadTicket;
};

let setup: Setup;

beforeAll(async () => {
	const partner = await createPartner("Fuzz Gallery");
	const live = partner.keys.live.key;
	const test = partner.keys.test.key;
	const admin = await createKeyWithScopes(["admin"]);
	const ops = await createKeyWithScopes(["ops"]);
	const limitsAccount = await createPartner("Limits target");
	// Every account's limits raised, so no 429 stands in for what a route would have answered.
	await env.DB.prepare(
		"UPDATE accounts SET requests_per_minute = 1000000, orders_per_second = 10000, order_burst = 1000000",
	).run();

	const fileId = await readyFile(live, 2400, 3000);
	const logoId = await readyFile(live, 600, 200);
	const testFileId = await readyFile(test, 2400, 3000);

	// On hold (unknown frame), with a callback_url so its events have deliveries to redeliver.
	const heldCreated = await createOrder(live, orderBody(fileId, { callback_url: HOOKS }, { frame: "no-such-frame" }));
	const held = await settleValidation(live, heldCreated.id);
	expect(held.status).toBe("on_hold");

	const cancelTarget = await createOrder(live, orderBody(fileId));
	const holdTarget = await settleValidation(live, (await createOrder(live, orderBody(fileId))).id);
	const shipTarget = await settleValidation(live, (await createOrder(live, orderBody(fileId))).id);
	expect(holdTarget.status).toBe("in_production");
	expect(shipTarget.status).toBe("in_production");
	const shipmentTarget = await settleValidation(
		live,
		(await createOrder(live, orderBody(fileId, {}, { quantity: 100 }))).id,
	);
	expect(shipmentTarget.status).toBe("in_production");
	const oneUnit = {
		carrier: "UPS",
		number: "1Z999AA10123456784",
		items: [{ item_id: shipmentTarget.items[0]?.id, quantity: 1 }],
	};
	const firstShipment = await send("POST", `/v1/ops/orders/${shipmentTarget.id}/shipments`, ops, oneUnit);
	expect(firstShipment.status).toBe(201);
	const shipmentId = ((await firstShipment.json()) as { id: string }).id;
	const sandboxOrder = await createOrder(test, orderBody(testFileId));

	const eventIds = (
		await env.DB.prepare("SELECT id FROM events WHERE order_id = ?1").bind(held.id).all<{ id: string }>()
	).results.map((row) => row.id);
	expect(eventIds.length).toBeGreaterThan(0);

	const upload = await requestUpload(live, { content_type: "image/png" });

	setup = {
		live,
		test,
		admin,
		ops,
		accountId: partner.account.id,
		limitsAccountId: limitsAccount.account.id,
		fileId,
		logoId,
		held,
		cancelTarget,
		holdTarget,
		shipTarget,
		shipmentTarget,
		shipmentId,
		sandboxOrder,
		eventIds,
		upload,
	};
}, 60_000);

type RouteCase = {
	name: string;
	method: string;
	path: (s: Setup) => fc.Arbitrary<string>;
	key: (s: Setup) => string;
	valid: (s: Setup) => Json;
	/** Run after a 2xx, e.g. to put an order back where the next run expects it. */
	after?: (s: Setup) => Promise<void>;
};

const ROUTES: RouteCase[] = [
	{
		name: "POST /v1/orders",
		method: "POST",
		path: () => fc.constant("/v1/orders"),
		key: (s) => s.live,
		// With metadata, so that one-field changes reach its keys and values too.
		valid: (s) =>
			orderBody(s.fileId, { callback_url: HOOKS, metadata: { shop_order_ref: "SO-1", channel: "etsy" } }) as Json,
	},
	{
		name: "POST /v1/addresses/check",
		method: "POST",
		path: () => fc.constant("/v1/addresses/check"),
		key: (s) => s.test,
		valid: () => ({ ship_to: SHIP_TO, shipping_method: "express" }),
	},
	{
		name: "PATCH /v1/orders/{id}/items/{item_id}",
		method: "PATCH",
		path: (s) =>
			fc
				.tuple(idSegment(s.held.id), idSegment(s.held.items[0]?.id ?? ""))
				.map(([id, itemId]) => `/v1/orders/${id}/items/${itemId}`),
		key: (s) => s.live,
		valid: () => ({ frame: "still-no-such-frame", width_in: 8, height_in: 10, mat: "bright-white" }),
		// A fix re-validates the order: settle it so the next run may find it on hold again.
		after: async (s) => {
			await settleValidation(s.live, s.held.id);
		},
	},
	{
		name: "PATCH /v1/orders/{id}",
		method: "PATCH",
		path: (s) => idSegment(s.held.id).map((id) => `/v1/orders/${id}`),
		key: (s) => s.live,
		valid: () => ({ ship_to: SHIP_TO, shipping_method: "express", metadata: { shop_order_ref: "SO-2" } }),
	},
	{
		name: "POST /v1/orders/{id}/cancel",
		method: "POST",
		path: (s) => idSegment(s.cancelTarget.id).map((id) => `/v1/orders/${id}/cancel`),
		key: (s) => s.live,
		valid: () => ({}),
	},
	{
		name: "POST /v1/print-files",
		method: "POST",
		path: () => fc.constant("/v1/print-files"),
		key: (s) => s.live,
		valid: () => ({ content_type: "image/png", filename: "art.png", size_bytes: 1234 }),
	},
	{
		name: "POST /v1/admin/accounts",
		method: "POST",
		path: () => fc.constant("/v1/admin/accounts"),
		key: (s) => s.admin,
		valid: () => ({ name: "Fuzzed Gallery" }),
	},
	{
		name: "POST /v1/admin/accounts/{id}/keys",
		method: "POST",
		path: (s) => idSegment(s.accountId).map((id) => `/v1/admin/accounts/${id}/keys`),
		key: (s) => s.admin,
		valid: () => ({ mode: "live", scopes: ["orders:read", "events:read"] }),
	},
	{
		name: "PUT /v1/admin/accounts/{id}/limits",
		method: "PUT",
		// Its own account: a random valid body must not throttle the keys the other routes use.
		path: (s) => idSegment(s.limitsAccountId).map((id) => `/v1/admin/accounts/${id}/limits`),
		key: (s) => s.admin,
		valid: () => ({ requests_per_minute: 500, orders_per_second: 2.5, order_burst: 10 }),
	},
	{
		name: "POST /v1/ops/orders/{id}/hold",
		method: "POST",
		path: (s) => idSegment(s.holdTarget.id).map((id) => `/v1/ops/orders/${id}/hold`),
		key: (s) => s.ops,
		valid: () => ({ message: "Frame stock ran out; back on Monday." }),
	},
	{
		name: "POST /v1/ops/orders/{id}/ship",
		method: "POST",
		path: (s) => idSegment(s.shipTarget.id).map((id) => `/v1/ops/orders/${id}/ship`),
		key: (s) => s.ops,
		valid: () => ({ carrier: "UPS", number: "1Z999AA10123456784", url: "https://track.example/1Z999AA10123456784" }),
	},
	{
		name: "POST /v1/ops/orders/{id}/shipments",
		method: "POST",
		path: (s) => idSegment(s.shipmentTarget.id).map((id) => `/v1/ops/orders/${id}/shipments`),
		key: (s) => s.ops,
		valid: (s) => ({
			carrier: "UPS",
			number: "1Z999AA10123456784",
			items: [{ item_id: s.shipmentTarget.items[0]?.id ?? "", quantity: 1 }],
		}),
	},
	{
		name: "POST /v1/orders/{id}/claims",
		method: "POST",
		path: (s) => idSegment(s.shipmentTarget.id).map((id) => `/v1/orders/${id}/claims`),
		key: (s) => s.live,
		valid: (s) => ({
			reason: "print_defect",
			items: [{ item_id: s.shipmentTarget.items[0]?.id ?? "", quantity: 1 }],
			description: "A white streak runs across the sky.",
			photo_file_ids: [s.fileId],
		}),
	},
	{
		name: "POST /v1/ops/shipments/{id}/deliver",
		method: "POST",
		path: (s) => idSegment(s.shipmentId).map((id) => `/v1/ops/shipments/${id}/deliver`),
		key: (s) => s.ops,
		valid: () => ({}),
	},
	{
		name: "POST /v1/ops/shipments/{id}/return",
		method: "POST",
		path: (s) => idSegment(s.shipmentId).map((id) => `/v1/ops/shipments/${id}/return`),
		key: (s) => s.ops,
		valid: () => ({}),
	},
	{
		name: "POST /v1/sandbox/orders/{id}/advance",
		method: "POST",
		path: (s) => idSegment(s.sandboxOrder.id).map((id) => `/v1/sandbox/orders/${id}/advance`),
		key: (s) => s.test,
		valid: () => ({}),
	},
	{
		name: "POST /v1/sandbox/orders/{id}/simulate",
		method: "POST",
		path: (s) => idSegment(s.sandboxOrder.id).map((id) => `/v1/sandbox/orders/${id}/simulate`),
		key: (s) => s.test,
		valid: (s) => ({
			action: "ship",
			boxes: [{ items: [{ item_id: s.sandboxOrder.items[0]?.id ?? "", quantity: 1 }] }],
		}),
	},
	{
		name: "POST /v1/sandbox/claims/{id}/simulate",
		method: "POST",
		path: () => idSegment("clm_fuzz").map((id) => `/v1/sandbox/claims/${id}/simulate`),
		key: (s) => s.test,
		valid: () => ({ action: "approve", remedy: "refund", message: "Sorry." }),
	},
	{
		name: "PUT /v1/sandbox/settings",
		method: "PUT",
		path: () => fc.constant("/v1/sandbox/settings"),
		key: (s) => s.test,
		valid: () => ({ progress: "automatic" }),
	},
	{
		name: "POST /v1/sandbox/events",
		method: "POST",
		path: () => fc.constant("/v1/sandbox/events"),
		key: (s) => s.test,
		valid: () => ({ type: "order.on_hold" }),
	},
	{
		name: "POST /v1/events/{id}/redeliver",
		method: "POST",
		path: (s) =>
			fc
				.oneof({ weight: 5, arbitrary: fc.constantFrom(...s.eventIds) }, idSegment(""))
				.map((id) => `/v1/events/${id}/redeliver`),
		key: (s) => s.live,
		valid: () => ({}),
	},
	{
		name: "PUT /v1/branding",
		method: "PUT",
		path: () => fc.constant("/v1/branding"),
		key: (s) => s.live,
		valid: (s) => ({
			brand_name: "Fuzz Editions",
			return_address: {
				name: "Fuzz Returns",
				address1: "1 Wharf Road",
				city: "Portland",
				state: "ME",
				zip: "04101",
				country: "US",
			},
			support_email: "help@fuzz.example",
			support_url: "https://fuzz.example/help",
			packing_slip_message: "Thank you.\nSee you again.",
			logo_print_file_id: s.logoId,
		}),
	},
	{
		name: "POST /v1/webhook-secret/rotate",
		method: "POST",
		path: () => fc.constant("/v1/webhook-secret/rotate"),
		key: (s) => s.live,
		valid: () => ({}),
	},
];

describe("write routes under fuzzed bodies", () => {
	for (const route of ROUTES) {
		it(`${route.name}: never 5xx, every 4xx is the error envelope`, async () => {
			await fc.assert(
				fc.asyncProperty(
					route.path(setup),
					bodies(route.valid(setup)),
					contentTypes,
					async (path, body, contentType) => {
						const response = await api(path, {
							method: route.method,
							key: route.key(setup),
							body,
							headers: { "Content-Type": contentType },
						});
						const status = await checkResponse(response);
						if (status < 300 && route.after !== undefined) await route.after(setup);
					},
				),
				{ seed: SEED, numRuns: NUM_RUNS },
			);
		}, 60_000);
	}

	it("PUT /v1/uploads/{id}?expires=&sig=: never 5xx, every 4xx is the error envelope", async () => {
		const real = new URL(setup.upload.upload_url);
		const realExpires = real.searchParams.get("expires") ?? "";
		const realSig = real.searchParams.get("sig") ?? "";
		const queryValue = (realValue: string) =>
			fc.oneof(
				{ weight: 2, arbitrary: fc.constant<string | undefined>(realValue) },
				fc.constant(undefined),
				fc.string({ maxLength: 40 }),
				fc.string({ unit: "grapheme", maxLength: 20 }),
				fc.integer().map(String),
				fc.double().map(String),
				fc.constantFrom("", "9007199254740993", "1e3", "-1", "0x10", "Infinity"),
			);
		const png = encodePng(48, 48);
		const uploadBodies = fc.oneof(
			bodies({ content_type: "image/png" }),
			fc.uint8Array({ maxLength: 512 }),
			fc.nat({ max: png.length }).map((cut) => png.slice(0, cut)),
		);
		await fc.assert(
			fc.asyncProperty(
				idSegment(setup.upload.id),
				queryValue(realExpires),
				queryValue(realSig),
				uploadBodies,
				fc.option(fc.constantFrom("image/png", "application/octet-stream", "application/json", "text/plain")),
				async (id, expires, sig, body, contentType) => {
					const query = new URLSearchParams();
					if (expires !== undefined) query.set("expires", expires);
					if (sig !== undefined) query.set("sig", sig);
					const headers: Record<string, string> = contentType === null ? {} : { "Content-Type": contentType };
					const response = await api(`/v1/uploads/${id}?${query}`, { method: "PUT", body, headers });
					await checkResponse(response);
				},
			),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	}, 60_000);
});
