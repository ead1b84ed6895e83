import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { api, createKeyWithScopes, createPartner, expectError, ISO_UTC, send } from "../helpers.ts";
import { putBytes, requestUpload } from "../print-files/upload-helpers.ts";
import {
	bodyWithItems,
	createOrder,
	externalId,
	orderBody,
	partnerWithFile,
	readyFile,
	SHIP_TO,
	settleValidation,
} from "./order-helpers.ts";

/** Rows that a create writes, across all accounts. Only creates insert orders, items or `order.received`. */
async function storedRowCounts(): Promise<{ orders: number; items: number; received: number }> {
	const row = await env.DB.prepare(
		`SELECT (SELECT COUNT(*) FROM orders) AS orders,
		        (SELECT COUNT(*) FROM order_items) AS items,
		        (SELECT COUNT(*) FROM events WHERE type = 'order.received') AS received`,
	).first<{ orders: number; items: number; received: number }>();
	if (row === null) throw new Error("no counts");
	return row;
}

/** An 8 × 10 in framed item of a file, with `extra` fields. */
function framedItem(printFileId: string, extra: Record<string, unknown> = {}) {
	return {
		print_file_id: printFileId,
		width_in: 8,
		height_in: 10,
		frame: "walnut-flat-075",
		mat: "bright-white",
		...extra,
	};
}

describe("POST /v1/orders: the created order", () => {
	it("is a 201 with the order of spec 2.3: ord_ id, external_id echoed, received, no tracking, itm_ items", async () => {
		const { key, file } = await partnerWithFile();
		const body = {
			external_id: externalId(),
			ship_to: SHIP_TO,
			items: [
				{ print_file_id: file, width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" },
				{ print_file_id: file, width_in: 10, height_in: 8, quantity: 3 },
			],
			callback_url: "https://hooks.partner.example/orders",
		};
		const before = Date.now();
		const response = await send("POST", "/v1/orders", key, body);
		expect(response.status).toBe(201);
		expect(response.headers.get("Idempotent-Replayed")).toBeNull();
		const order = (await response.json()) as Order;

		expect(order.id).toMatch(/^ord_[0-9A-Za-z]{16,}$/);
		expect(order.external_id).toBe(body.external_id);
		expect(order.status).toBe("received");
		expect(order.tracking).toBeNull();
		expect(order.shipped_at).toBeNull();
		expect(order.hold_reason).toBeNull();
		expect(order.callback_url).toBe(body.callback_url);
		expect(order.ship_to).toEqual(SHIP_TO);
		expect(order.created_at).toMatch(ISO_UTC);
		const createdMs = new Date(order.created_at).getTime();
		expect(createdMs).toBeGreaterThanOrEqual(before - 1000);
		expect(createdMs).toBeLessThanOrEqual(Date.now() + 1000);

		expect(order.items).toHaveLength(2);
		const [framed, unframed] = order.items;
		expect(framed).toEqual({
			id: expect.stringMatching(/^itm_[0-9A-Za-z]{16,}$/),
			print_file_id: file,
			print_file_url: null,
			width_in: 8,
			height_in: 10,
			frame: "walnut-flat-075",
			mat: "bright-white",
			mat_border_in: 2,
			mat_bottom_border_in: 2,
			inner_mat: null,
			inner_mat_reveal_in: null,
			glazing: "acrylic",
			paper: "archival-matte",
			fit: "fill",
			quantity: 1,
			effective_dpi: 300,
			image_cropped_percent: 0,
			warnings: [],
			dimensions: {
				print: { width_in: 8, height_in: 10 },
				mat_opening: { width_in: 7.75, height_in: 9.75 },
				top_mat_opening: null,
				mat_outer: { width_in: 12, height_in: 14 },
				glazing: { width_in: 12, height_in: 14 },
				outside: { width_in: 13.5, height_in: 15.5 },
			},
			united_inches: 26,
			unit_price: expect.objectContaining({ total: expect.any(Number) }),
			line_total: expect.any(Number),
			// A US delivery crosses no border: declared at its own price, with no tariff code.
			declared_value: { amount: framed?.unit_price?.total, currency: "USD", source: "price" },
			customs: { kind: "framed_print", tariff_code: null },
		});
		// Landscape at the same size: the image may be turned, so it is still 300 DPI.
		expect(unframed).toMatchObject({
			width_in: 10,
			height_in: 8,
			frame: null,
			mat: null,
			quantity: 3,
			effective_dpi: 300,
			warnings: [],
		});
		expect(unframed?.id).not.toBe(framed?.id);
	});

	it("accepts a low-resolution file (150 to 299 DPI at the size) with a low_resolution warning on the item", async () => {
		const { key } = await partnerWithFile();
		// 1600 × 2000 px at 8 × 10 in: 200 DPI.
		const lowRes = await readyFile(key, 1600, 2000);
		const order = await createOrder(key, orderBody(lowRes));
		expect(order.items[0]?.effective_dpi).toBe(200);
		expect(order.items[0]?.warnings).toEqual(["low_resolution"]);
	});

	it("accepts a file of exactly 150 DPI, with the warning", async () => {
		const { key } = await partnerWithFile();
		const edge = await readyFile(key, 1200, 1500);
		const order = await createOrder(key, orderBody(edge));
		expect(order.items[0]?.effective_dpi).toBe(150);
		expect(order.items[0]?.warnings).toEqual(["low_resolution"]);
	});
});

describe("POST /v1/orders: print files", () => {
	it("refuses an uploaded file below 150 DPI at the item's size with a 422 on items[0].print_file_id", async () => {
		const { key } = await partnerWithFile();
		// 1192 × 1490 px at 8 × 10 in: 149 DPI.
		const tooSmall = await readyFile(key, 1192, 1490);
		const error = await expectError(
			await send("POST", "/v1/orders", key, orderBody(tooSmall)),
			"validation_error",
			"items[0].print_file_id",
		);
		expect(error.message).toContain("150");
	});

	it("does not describe a file just under 150 DPI as 150 DPI in its 422", async () => {
		const { key } = await partnerWithFile();
		// 1196 × 1495 px at 8 × 10 in: 149.5 DPI, refused; the message must not say it has the minimum.
		const justUnder = await readyFile(key, 1196, 1495);
		const error = await expectError(
			await send("POST", "/v1/orders", key, orderBody(justUnder)),
			"validation_error",
			"items[0].print_file_id",
		);
		expect(error.message).not.toMatch(/\b150 DPI at\b/);
	});

	it("names the third item when it is the one below 150 DPI", async () => {
		const { key, file } = await partnerWithFile();
		const tooSmall = await readyFile(key, 600, 750);
		const item = { width_in: 8, height_in: 10 };
		const body = {
			external_id: externalId(),
			ship_to: SHIP_TO,
			items: [
				{ ...item, print_file_id: file },
				{ ...item, print_file_id: file },
				{ ...item, print_file_id: tooSmall },
			],
		};
		await expectError(await send("POST", "/v1/orders", key, body), "validation_error", "items[2].print_file_id");
	});

	it("refuses a print_file_id unknown to the account with a 422 on that item", async () => {
		const { key, file } = await partnerWithFile();
		const body = bodyWithItems([framedItem(file), framedItem("pf_doesnotexist000000000000")]);
		await expectError(await send("POST", "/v1/orders", key, body), "validation_error", "items[1].print_file_id");
	});

	it("refuses a file that has not been uploaded yet with a 422 on items[i].print_file_id", async () => {
		const { key, file } = await partnerWithFile();
		const ticket = await requestUpload(key, { content_type: "image/png" });
		const body = bodyWithItems([framedItem(file), framedItem(ticket.id)]);
		const error = await expectError(
			await send("POST", "/v1/orders", key, body),
			"validation_error",
			"items[1].print_file_id",
		);
		expect(error.message).toMatch(/not been uploaded/);
	});

	it("refuses an invalid file (a text file uploaded as PNG) with a 422 on items[i].print_file_id", async () => {
		const { key } = await partnerWithFile();
		const ticket = await requestUpload(key, { content_type: "image/png", filename: "notes.png" });
		const upload = await putBytes(
			ticket.upload_url,
			new TextEncoder().encode("this is a text file, not a PNG\n"),
			ticket.upload_headers,
		);
		expect(upload.status).toBe(200);
		await expectError(
			await send("POST", "/v1/orders", key, orderBody(ticket.id)),
			"validation_error",
			"items[0].print_file_id",
		);
	});

	it("refuses another account's file with a 422, as if it did not exist", async () => {
		const owner = await partnerWithFile();
		const stranger = await createPartner("Someone Else");
		await expectError(
			await send("POST", "/v1/orders", stranger.keys.live.key, orderBody(owner.file)),
			"validation_error",
			"items[0].print_file_id",
		);
	});

	it("refuses the account's own file of the other mode (a live file with a test key) with a 422", async () => {
		const { partner, file } = await partnerWithFile();
		await expectError(
			await send("POST", "/v1/orders", partner.keys.test.key, orderBody(file)),
			"validation_error",
			"items[0].print_file_id",
		);
	});
});

describe("POST /v1/orders: catalog mismatches are accepted and put on hold later", () => {
	const cases = [
		{ name: "a size above 40 in", item: { width_in: 41, height_in: 50 }, px: [12300, 15000], hold: "size_not_offered" },
		{ name: "a size below 4 in", item: { width_in: 3, height_in: 3 }, px: [900, 900], hold: "size_not_offered" },
		{ name: "a size of 8.5 in", item: { width_in: 8.5, height_in: 11 }, px: [2550, 3300], hold: "size_not_offered" },
		{ name: "an unknown frame", item: { frame: "no-such-frame" }, px: [2400, 3000], hold: "frame_not_found" },
		{ name: "an unknown mat", item: { mat: "no-such-mat" }, px: [2400, 3000], hold: "mat_not_found" },
	] as const;

	for (const { name, item, px, hold } of cases) {
		it(`${name}: 201 received, then on_hold with ${hold}`, async () => {
			const partner = await createPartner();
			const key = partner.keys.live.key;
			const file = await readyFile(key, px[0], px[1]);
			const created = await createOrder(key, orderBody(file, {}, item));
			expect(created.status).toBe("received");
			expect(created.items[0]).toMatchObject(item);
			const settled = await settleValidation(key, created.id);
			expect(settled.status).toBe("on_hold");
			expect(settled.hold_reason).toBe(hold);
		});
	}
});

describe("POST /v1/orders: request rules over HTTP (the full list is unit-tested in schema.unit.test.ts)", () => {
	it("a missing ship_to.country is a 400 naming it; with it the order is created", async () => {
		const { key, file } = await partnerWithFile();
		const { country: _country, ...withoutCountry } = SHIP_TO;
		await expectError(
			await send("POST", "/v1/orders", key, orderBody(file, { ship_to: withoutCountry })),
			"bad_request",
			"ship_to.country",
		);
		await createOrder(key, orderBody(file, { ship_to: { ...withoutCountry, country: "US" } }));
	});

	it("missing items is a 400 on items", async () => {
		const { key, file } = await partnerWithFile();
		const { items: _items, ...withoutItems } = orderBody(file);
		await expectError(await send("POST", "/v1/orders", key, withoutItems), "bad_request", "items");
	});

	it("malformed JSON is a 400", async () => {
		const { key } = await partnerWithFile();
		const response = await api("/v1/orders", { method: "POST", key, body: '{"external_id": "PO-1", "items": [' });
		await expectError(response, "bad_request");
	});

	it("51 items is a 422 on items; 50 are accepted", async () => {
		const { key } = await partnerWithFile();
		// print_file_url items: no file is checked at creation, so 50 of them cost nothing.
		const item = { print_file_url: "https://files.partner.example/art/harbour.png", width_in: 8, height_in: 10 };
		await expectError(
			await send("POST", "/v1/orders", key, {
				external_id: externalId(),
				ship_to: SHIP_TO,
				items: Array(51).fill(item),
			}),
			"validation_error",
			"items",
		);
		const order = await createOrder(key, { external_id: externalId(), ship_to: SHIP_TO, items: Array(50).fill(item) });
		expect(order.items).toHaveLength(50);
		expect(order.items.map((entry) => entry.id)).toHaveLength(new Set(order.items.map((entry) => entry.id)).size);
	});

	it("quantity 101 is a 422 on items[0].quantity; 100 is accepted", async () => {
		const { key, file } = await partnerWithFile();
		await expectError(
			await send("POST", "/v1/orders", key, orderBody(file, {}, { quantity: 101 })),
			"validation_error",
			"items[0].quantity",
		);
		const order = await createOrder(key, orderBody(file, {}, { quantity: 100 }));
		expect(order.items[0]?.quantity).toBe(100);
	});

	it("both file fields on an item is a 422 on items[0]; one of them is accepted", async () => {
		const { key, file } = await partnerWithFile();
		await expectError(
			await send(
				"POST",
				"/v1/orders",
				key,
				orderBody(file, {}, { print_file_url: "https://files.partner.example/art/harbour.png" }),
			),
			"validation_error",
			"items[0]",
		);
		await createOrder(key, orderBody(file));
	});

	it("a US address without state is a 400 on ship_to.state; with one it is accepted", async () => {
		const { key, file } = await partnerWithFile();
		const { state: _state, ...withoutState } = SHIP_TO;
		await expectError(
			await send("POST", "/v1/orders", key, orderBody(file, { ship_to: withoutState })),
			"bad_request",
			"ship_to.state",
		);
		await createOrder(key, orderBody(file, { ship_to: { ...withoutState, state: "ME" } }));
	});

	it("a malformed US zip is a 422 on ship_to.zip; ZIP+4 is accepted", async () => {
		const { key, file } = await partnerWithFile();
		await expectError(
			await send("POST", "/v1/orders", key, orderBody(file, { ship_to: { ...SHIP_TO, zip: "4101" } })),
			"validation_error",
			"ship_to.zip",
		);
		await createOrder(key, orderBody(file, { ship_to: { ...SHIP_TO, zip: "04101-1234" } }));
	});
});

describe("POST /v1/orders: outbound URLs (ENVIRONMENT=production)", () => {
	for (const callbackUrl of ["http://hooks.partner.example/orders", "https://10.0.0.1/", "https://localhost/"]) {
		it(`refuses callback_url ${callbackUrl} with a 422 on callback_url`, async () => {
			const { key, file } = await partnerWithFile();
			await expectError(
				await send("POST", "/v1/orders", key, orderBody(file, { callback_url: callbackUrl })),
				"validation_error",
				"callback_url",
			);
		});
	}

	it("accepts a public https callback_url", async () => {
		const { key, file } = await partnerWithFile();
		const order = await createOrder(key, orderBody(file, { callback_url: "https://hooks.partner.example/orders" }));
		expect(order.callback_url).toBe("https://hooks.partner.example/orders");
	});

	it("refuses a print_file_url to a private IP with a 422 on items[0].print_file_url; a public one is accepted", async () => {
		const { key } = await partnerWithFile();
		const item = (url: string) => ({ print_file_url: url, width_in: 8, height_in: 10 });
		await expectError(
			await send("POST", "/v1/orders", key, {
				external_id: externalId(),
				ship_to: SHIP_TO,
				items: [item("https://192.168.1.20/art.png")],
			}),
			"validation_error",
			"items[0].print_file_url",
		);
		const order = await createOrder(key, {
			external_id: externalId(),
			ship_to: SHIP_TO,
			items: [item("https://files.partner.example/art/harbour.png")],
		});
		expect(order.items[0]).toMatchObject({
			print_file_id: null,
			print_file_url: "https://files.partner.example/art/harbour.png",
			effective_dpi: null,
		});
	});
});

describe("POST /v1/orders: no mass assignment", () => {
	const topLevel: Record<string, unknown> = {
		status: "shipped",
		tracking: { carrier: "UPS", number: "1Z999", url: "https://ups.example/1Z999" },
		id: "ord_chosenbythepartner000000",
		account_id: "acct_someoneelse0000000000",
	};
	for (const [field, value] of Object.entries(topLevel)) {
		it(`refuses ${field} at the top level with a 422 naming it, and writes nothing`, async () => {
			const { key, file } = await partnerWithFile();
			const before = await storedRowCounts();
			await expectError(
				await send("POST", "/v1/orders", key, orderBody(file, { [field]: value })),
				"validation_error",
				field,
			);
			expect(await storedRowCounts()).toEqual(before);
		});
	}

	it("refuses status inside an item with a 422 on items[0].status", async () => {
		const { key, file } = await partnerWithFile();
		await expectError(
			await send("POST", "/v1/orders", key, orderBody(file, {}, { status: "in_production" })),
			"validation_error",
			"items[0].status",
		);
	});
});

describe("POST /v1/orders: authorization", () => {
	it("a key without orders:write is a 403", async () => {
		const key = await createKeyWithScopes(["orders:read", "files:write"]);
		const file = await readyFile(key, 2400, 3000);
		await expectError(await send("POST", "/v1/orders", key, orderBody(file)), "forbidden");
	});
});

describe("POST /v1/orders: what is stored", () => {
	it("stores the order, its items and its order.received event after a 201", async () => {
		const { partner, key, file } = await partnerWithFile();
		const body = bodyWithItems([framedItem(file), framedItem(file, { width_in: 4, height_in: 5 })]);
		const created = await createOrder(key, body);

		const order = await env.DB.prepare("SELECT * FROM orders WHERE id = ?1")
			.bind(created.id)
			.first<{ account_id: string; mode: string; external_id: string; created_at: string }>();
		expect(order).toMatchObject({
			account_id: partner.account.id,
			mode: "live",
			external_id: body.external_id,
			created_at: created.created_at,
		});

		const { results: items } = await env.DB.prepare(
			"SELECT id, position, print_file_id, width_in, height_in, quantity FROM order_items WHERE order_id = ?1 ORDER BY position",
		)
			.bind(created.id)
			.all();
		expect(items).toEqual([
			{ id: created.items[0]?.id, position: 0, print_file_id: file, width_in: 8, height_in: 10, quantity: 1 },
			{ id: created.items[1]?.id, position: 1, print_file_id: file, width_in: 4, height_in: 5, quantity: 1 },
		]);

		const { results: events } = await env.DB.prepare(
			"SELECT id, account_id, mode, type, body FROM events WHERE order_id = ?1 AND type = 'order.received'",
		)
			.bind(created.id)
			.all<{ id: string; account_id: string; mode: string; type: string; body: string }>();
		expect(events).toHaveLength(1);
		const [event] = events;
		expect(event).toMatchObject({ account_id: partner.account.id, mode: "live" });
		expect(JSON.parse(event?.body ?? "null")).toEqual({
			id: event?.id,
			event: "order.received",
			created_at: expect.stringMatching(ISO_UTC),
			order_id: created.id,
			external_id: body.external_id,
			status: "received",
			version: 1,
			metadata: {},
		});
		expect(event?.id).toMatch(/^evt_/);
	});

	it("writes nothing for a 422, even when only a later item fails", async () => {
		const { key, file } = await partnerWithFile();
		const tooSmall = await readyFile(key, 600, 750);
		const body = bodyWithItems([framedItem(file), framedItem(tooSmall)]);
		const before = await storedRowCounts();
		await expectError(await send("POST", "/v1/orders", key, body), "validation_error", "items[1].print_file_id");
		await expectError(
			await send("POST", "/v1/orders", key, orderBody(file, { callback_url: "https://127.0.0.1/hook" })),
			"validation_error",
			"callback_url",
		);
		expect(await storedRowCounts()).toEqual(before);
		// Nothing was kept under the external_id either: the same id is free for a corrected order.
		const corrected = await createOrder(key, { ...body, items: [framedItem(file)] });
		expect(corrected.external_id).toBe(body.external_id);
	});
});

describe("POST /v1/orders: text that storage could not keep as sent", () => {
	it("refuses half an emoji (a lone surrogate) in external_id with a 422; a whole emoji is kept", async () => {
		const { key, file } = await partnerWithFile();
		for (const external_id of ["PO-\ud800", "\udc00PO", "PO-\ud83d"]) {
			const error = await expectError(
				await send("POST", "/v1/orders", key, { ...orderBody(file), external_id }),
				"validation_error",
				"external_id",
			);
			expect(error.message).toContain("well-formed Unicode");
		}
		const kept = await createOrder(key, { ...orderBody(file), external_id: "PO-\ud83d\ude00" });
		expect(kept.external_id).toBe("PO-😀");
	});

	it("refuses a bidirectional control in external_id with a 422, so the id reads as what it is", async () => {
		const { key, file } = await partnerWithFile();
		// Embeddings and overrides, isolates, and the three invisible direction marks.
		const controls = ["\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"];
		for (const control of [...controls, "\u200e", "\u200f", "\u061c"]) {
			const error = await expectError(
				await send("POST", "/v1/orders", key, { ...orderBody(file), external_id: `PO-${control}1001` }),
				"validation_error",
				"external_id",
			);
			expect(error.message).toContain("bidirectional");
		}
		// Right-to-left text itself is fine: only the invisible controls are refused.
		const hebrew = await createOrder(key, { ...orderBody(file), external_id: "הזמנה-1001" });
		expect(hebrew.external_id).toBe("הזמנה-1001");
	});

	it("refuses half an emoji in an address line", async () => {
		const { key, file } = await partnerWithFile();
		for (const field of ["name", "address1", "address2", "city"]) {
			const body = { ...orderBody(file), ship_to: { ...SHIP_TO, [field]: "Ada \ud800" } };
			await expectError(await send("POST", "/v1/orders", key, body), "validation_error", `ship_to.${field}`);
		}
	});
});

describe("POST /v1/orders: the file ids R2 is asked about before they are known", () => {
	it("a print_file_id that is no file of the caller's, in any characters, is a 422 on its field, never a 500", async () => {
		const { key, file } = await partnerWithFile();
		const other = await partnerWithFile({ name: "Other Gallery" });
		for (const id of [
			"pf_\u0000x",
			"pf_\ud800",
			"../../print-files/live/x",
			"x".repeat(64),
			" ",
			other.file,
			`${file} `,
		]) {
			const response = await send("POST", "/v1/orders", key, orderBody(id));
			const error = await expectError(response, "validation_error", "items[0].print_file_id");
			// A lone surrogate is refused by the schema; every other id is looked up and not found.
			expect(error.message, JSON.stringify(id)).toMatch(/No print file|well-formed/);
		}
		// The caller's own file still orders, and the other partner's file is untouched.
		expect((await send("POST", "/v1/orders", key, orderBody(file))).status).toBe(201);
		expect((await send("POST", "/v1/orders", other.key, orderBody(other.file))).status).toBe(201);
	});
});
