import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { completeFraming } from "../../src/framing/spec.ts";
import { newId } from "../../src/ids.ts";
import type { Order } from "../../src/orders/response.ts";
import { type ItemRow, newOrderRow } from "../../src/orders/rows.ts";
import type { HoldReason } from "../../src/orders/state-machine.ts";
import { insertOrder } from "../../src/orders/store.ts";
import { api, createPartner } from "../helpers.ts";
import { cut } from "../imaging/fixtures/bytes.ts";
import { encodePng, patchIhdr } from "../imaging/fixtures/png.ts";
import { FILE_HOST, partnerFileServer, redirectTo } from "../print-files/file-hosting.ts";
import { sharpPng, uploadedFile } from "../print-files/upload-helpers.ts";
import {
	bodyWithItems,
	createOrder,
	eventsOf,
	externalId,
	readOrder,
	SHIP_TO,
	settleValidation,
	urlItem,
} from "./order-helpers.ts";

const { hostFile } = partnerFileServer("pipeline");

/** Creates a live order with these items and drives validation to its verdict. */
async function settledOrder(...items: Record<string, unknown>[]): Promise<{ key: string; order: Order }> {
	const partner = await createPartner();
	const key = partner.keys.live.key;
	const created = await createOrder(key, bodyWithItems(items, "PIPE"));
	expect(created.status).toBe("received");
	return { key, order: await settleValidation(key, created.id) };
}

/** Asserts the order is on hold for `reason` with exactly one detail, and that its on_hold event says the same. */
async function expectSingleHold(order: Order, reason: HoldReason, field: string): Promise<string> {
	const itemId = order.items[0]?.id;
	expect(order.status).toBe("on_hold");
	expect(order.hold_reason).toBe(reason);
	expect(order.hold_details).toEqual([{ item_id: itemId, field, code: reason, message: expect.any(String) }]);
	const message = order.hold_details[0]?.message ?? "";
	expect(message.length).toBeGreaterThan(0);
	const events = await eventsOf(order.id);
	expect(events.map((event) => event.type)).toEqual(["order.received", "order.on_hold"]);
	expect(events[1]?.body).toMatchObject({
		event: "order.on_hold",
		order_id: order.id,
		status: "on_hold",
		hold_reason: reason,
		hold_details: order.hold_details,
	});
	return message;
}

describe("validation of an order with an uploaded file", () => {
	it("goes received → validating → in_production, one step at a time", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const fileId = await uploadedFile(key, sharpPng());
		// Written straight to D1 without waking its Durable Object, so no alarm races the steps below.
		const orderId = newId("ord");
		const now = new Date();
		const order = newOrderRow({
			id: orderId,
			accountId: partner.account.id,
			mode: "live",
			externalId: externalId("PIPE"),
			requestHash: "0".repeat(64),
			shipTo: SHIP_TO,
			callbackUrl: null,
			now: now,
			status: "received",
		});
		const item: ItemRow = {
			id: newId("itm"),
			order_id: orderId,
			position: 0,
			print_file_id: fileId,
			print_file_url: null,
			width_in: 8,
			height_in: 10,
			...completeFraming({ frame: "walnut-flat-075", mat: "bright-white" }),
			quantity: 1,
			effective_dpi: 300,
			cropped_percent: 0,
			warnings: [],
			priced: null,
			declared_value: null,
		};
		await insertOrder(env.DB, order, [item], now);
		expect((await readOrder(key, orderId)).status).toBe("received");

		const machine = env.ORDER_MACHINE.get(env.ORDER_MACHINE.idFromName(orderId));
		const started = await machine.move(orderId, { kind: "start_validation" }, "system");
		expect(started.ok && started.order.order.status).toBe("validating");
		// The move into validating set the machine's alarm, which validates the order by itself.
		expect(["validating", "in_production"]).toContain((await readOrder(key, orderId)).status);

		const settled = await settleValidation(key, orderId);
		expect(settled.status).toBe("in_production");
		expect(settled.hold_reason).toBeNull();
		expect(settled.hold_details).toEqual([]);
		expect(settled.items[0]?.effective_dpi).toBe(300);
		// validating is not an event: received, then the verdict.
		expect((await eventsOf(orderId)).map((event) => event.type)).toEqual(["order.received", "order.in_production"]);
	});

	it("created through the API reaches in_production with its received and in_production events", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const fileId = await uploadedFile(key, sharpPng());
		const created = await createOrder(
			key,
			bodyWithItems([{ print_file_id: fileId, width_in: 8, height_in: 10 }], "PIPE"),
		);
		expect(created.status).toBe("received");
		const settled = await settleValidation(key, created.id);
		expect(settled.status).toBe("in_production");

		const events = await eventsOf(created.id);
		expect(events.map((event) => event.type)).toEqual(["order.received", "order.in_production"]);
		for (const event of events) {
			expect(event.body).toMatchObject({
				id: expect.stringMatching(/^evt_/),
				created_at: expect.stringMatching(/Z$/),
				order_id: created.id,
				external_id: created.external_id,
			});
		}
		expect(events[0]?.body).toMatchObject({ event: "order.received", status: "received" });
		expect(events[1]?.body).toMatchObject({ event: "order.in_production", status: "in_production" });
	});
});

describe("validation of an order with a print_file_url", () => {
	it("fetches the file into R2 as a ready print file of the account and reaches in_production", async () => {
		const png = sharpPng();
		const url = await hostFile(png, "sunset.png");
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const created = await createOrder(key, bodyWithItems([urlItem(url)], "PIPE"));
		expect(created.items[0]?.print_file_id).toBeNull();
		expect(created.items[0]?.effective_dpi).toBeNull();

		const settled = await settleValidation(key, created.id);
		expect(settled.status).toBe("in_production");
		const item = settled.items[0];
		expect(item?.print_file_url).toBe(url);
		expect(item?.print_file_id).toMatch(/^pf_/);
		expect(item?.effective_dpi).toBe(300);
		expect(item?.warnings).toEqual([]);

		const fileResponse = await api(`/v1/print-files/${item?.print_file_id}`, { key });
		expect(fileResponse.status).toBe(200);
		expect(await fileResponse.json()).toMatchObject({
			id: item?.print_file_id,
			status: "ready",
			format: "png",
			width_px: 2400,
			height_px: 3000,
			size_bytes: png.byteLength,
		});

		const row = await env.DB.prepare("SELECT r2_key, account_id, mode FROM print_files WHERE id = ?1")
			.bind(item?.print_file_id)
			.first<{ r2_key: string; account_id: string; mode: string }>();
		expect(row).toMatchObject({ account_id: partner.account.id, mode: "live" });
		const stored = await env.PRINT_FILES.get(row?.r2_key ?? "");
		expect(new Uint8Array((await stored?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(png);

		// A print file of this account: another account does not see it.
		const stranger = await createPartner("Other Gallery");
		expect((await api(`/v1/print-files/${item?.print_file_id}`, { key: stranger.keys.live.key })).status).toBe(404);
	});

	it("gives a file between 150 and 299 DPI the low_resolution warning and still goes to production", async () => {
		// 1200 × 1500 px at 8 × 10 in: 150 DPI.
		const url = await hostFile(patchIhdr(encodePng(48, 48), { width: 1200, height: 1500 }));
		const { order } = await settledOrder(urlItem(url));
		expect(order.status).toBe("in_production");
		expect(order.items[0]?.effective_dpi).toBe(150);
		expect(order.items[0]?.warnings).toEqual(["low_resolution"]);
	});

	it("follows a redirect to another path of an allowed host", async () => {
		const url = await hostFile(sharpPng());
		const { order } = await settledOrder(urlItem(redirectTo(url)));
		expect(order.status).toBe("in_production");
		expect(order.items[0]?.print_file_id).toMatch(/^pf_/);
	});

	it("follows a relative redirect", async () => {
		const url = await hostFile(sharpPng());
		const { order } = await settledOrder(urlItem(redirectTo(new URL(url).pathname)));
		expect(order.status).toBe("in_production");
	});

	it("follows a chain of three redirects, the most allowed", async () => {
		const url = await hostFile(sharpPng());
		const { order } = await settledOrder(urlItem(redirectTo(redirectTo(redirectTo(url)))));
		expect(order.status).toBe("in_production");
	});

	it("stores a small file served chunked, without Content-Length", async () => {
		const png = sharpPng();
		const url = await hostFile(png);
		const chunkedUrl = `${FILE_HOST}/chunked${new URL(url).pathname}`;
		// The premise: this path really answers without a length.
		const probe = await fetch(chunkedUrl);
		expect(probe.headers.get("Content-Length")).toBeNull();
		await probe.body?.cancel();

		const { key, order } = await settledOrder(urlItem(chunkedUrl));
		expect(order.status).toBe("in_production");
		const file = await api(`/v1/print-files/${order.items[0]?.print_file_id}`, { key });
		expect(await file.json()).toMatchObject({ status: "ready", size_bytes: png.byteLength, width_px: 2400 });
	});
});

describe("holds found by validation", () => {
	it("file_resolution_too_low: a small PNG by print_file_url for a large print", async () => {
		const url = await hostFile(encodePng(48, 48));
		const { order } = await settledOrder(urlItem(url, { width_in: 16, height_in: 20 }));
		const message = await expectSingleHold(order, "file_resolution_too_low", "print_file_url");
		expect(message).toContain("150 DPI");
		expect(order.items[0]?.effective_dpi).toBe(2.4);
	});

	it("unsupported_file_format: a text file", async () => {
		const url = await hostFile(new TextEncoder().encode("This is not an image, just some words.\n"), "notes.txt");
		const { order } = await settledOrder(urlItem(url));
		await expectSingleHold(order, "unsupported_file_format", "print_file_url");
	});

	it("file_unreadable: a truncated PNG", async () => {
		const png = sharpPng();
		const url = await hostFile(cut(png, png.length - 40));
		const { order } = await settledOrder(urlItem(url));
		await expectSingleHold(order, "file_unreadable", "print_file_url");
	});

	it.each([
		["a 404", `${FILE_HOST}/pipeline/never-stored.png`, /404/],
		["a 500", `${FILE_HOST}/status/500`, /500/],
		["a redirect to a private IP", redirectTo("https://10.0.0.1/x"), /refused address/],
		["a redirect loop", `${FILE_HOST}/loop`, /more than 3/],
		[
			"a chain of four redirects",
			redirectTo(redirectTo(redirectTo(redirectTo(`${FILE_HOST}/pipeline/whatever.png`)))),
			/more than 3/,
		],
		["an unreachable host", "https://unreachable.partner.example/print.png", /502/],
	])("file_fetch_failed: %s", async (_case, url, expected) => {
		const { order } = await settledOrder(urlItem(url));
		const message = await expectSingleHold(order, "file_fetch_failed", "print_file_url");
		expect(message).toMatch(expected);
		expect(order.items[0]?.effective_dpi).toBeNull();
	});

	it.each([
		[50, "above the catalog's 40 in"],
		[3, "below the catalog's 4 in"],
		[8.5, "not a whole number of inches"],
	])("size_not_offered: %s in (%s)", async (widthIn) => {
		// 15000 px on each side keeps every one of these sizes above 150 DPI.
		const url = await hostFile(patchIhdr(encodePng(48, 48), { width: 15000, height: 15000 }));
		const { order } = await settledOrder(urlItem(url, { width_in: widthIn, height_in: 10 }));
		const message = await expectSingleHold(order, "size_not_offered", "width_in");
		expect(message).toContain(`${widthIn} in`);
	});

	it("frame_not_found: a frame slug not in the catalog", async () => {
		const { order } = await settledOrder(urlItem(await hostFile(sharpPng()), { frame: "gilded-baroque-900" }));
		const message = await expectSingleHold(order, "frame_not_found", "frame");
		expect(message).toContain("gilded-baroque-900");
	});

	it("mat_not_found: a mat slug not in the catalog", async () => {
		const { order } = await settledOrder(
			urlItem(await hostFile(sharpPng()), { frame: "walnut-flat-075", mat: "neon-pink" }),
		);
		const message = await expectSingleHold(order, "mat_not_found", "mat");
		expect(message).toContain("neon-pink");
	});

	it("with several problems, holds for the first and lists every one", async () => {
		const good = await hostFile(sharpPng());
		const blurry = await hostFile(encodePng(48, 48));
		const { order } = await settledOrder(
			urlItem(good, { frame: "no-such-frame", mat: "no-such-mat" }),
			urlItem(blurry, { width_in: 50, height_in: 10 }),
		);
		const [first, second] = order.items;
		expect(order.status).toBe("on_hold");
		expect(order.hold_reason).toBe("frame_not_found");
		expect(order.hold_details).toEqual([
			{ item_id: first?.id, field: "frame", code: "frame_not_found", message: expect.any(String) },
			{ item_id: first?.id, field: "mat", code: "mat_not_found", message: expect.any(String) },
			{ item_id: second?.id, field: "print_file_url", code: "file_resolution_too_low", message: expect.any(String) },
			{ item_id: second?.id, field: "width_in", code: "size_not_offered", message: expect.any(String) },
		]);
		const onHold = (await eventsOf(order.id)).find((event) => event.type === "order.on_hold");
		expect(onHold?.body).toMatchObject({ hold_reason: "frame_not_found", hold_details: order.hold_details });
	});
});
