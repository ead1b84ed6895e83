/**
 * The partner console's orders: the list with its search and filters, an order's page, its images and
 * its forms (recipient and method, cancel with a confirmation, a held item's fix by upload), each
 * through the API's own functions; and the attacks on them (another account's or mode's order, a
 * missing or forged token, a viewer's forms).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { searchOrders } from "../../src/orders/order-search.ts";
import type { Order } from "../../src/orders/response.ts";
import type { OrderStatus } from "../../src/orders/state-machine.ts";
import { encodePng } from "../imaging/fixtures/png.ts";
import {
	createOrder,
	insertRawOrder,
	opsMoveOk,
	orderBody,
	partnerWithFile,
	readOrder,
	SHIP_TO,
	settleValidation,
	TRACKING,
	urlOrderBody,
} from "../orders/order-helpers.ts";
import { partnerFileServer } from "../print-files/file-hosting.ts";
import { sharpPng } from "../print-files/upload-helpers.ts";
import { type ConsoleUser, type Partner, post, signedInUser } from "./console-client.ts";

const { hostFile } = partnerFileServer("partner-console-orders");

/** A page's HTML, expecting `status`. */
async function htmlOf(response: Response, status = 200): Promise<string> {
	const html = await response.text();
	expect(response.status, html.slice(0, 400)).toBe(status);
	return html;
}

/** A support user of a fresh partner with a ready sharp file, an ops key, and one live order in production. */
async function partnerWithOrder(role: "support" | "viewer" | "owner" = "support") {
	const { partner, key, file, opsKey } = await partnerWithFile({ opsKey: true, name: "Harbour Museum Store" });
	const user = await signedInUser(role, partner as Partner);
	const created = await createOrder(
		key,
		orderBody(file, { external_id: `PO-${crypto.randomUUID().slice(0, 8)}`, metadata: { shop_order_ref: "SO-1" } }),
	);
	const order = await settleValidation(key, created.id);
	expect(order.status).toBe("in_production");
	return { user, key, file, opsKey, order };
}

/** An order of a fresh partner held for a file too small (48 × 48 px at 8 × 10 in), and a support user of that partner. */
async function heldOrder(): Promise<{ user: ConsoleUser; key: string; order: Order }> {
	const { partner, key } = await partnerWithFile({ name: "Harbour Museum Store" });
	const user = await signedInUser("support", partner as Partner);
	const created = await createOrder(key, urlOrderBody(await hostFile(encodePng(48, 48)), "HELD"));
	const order = await settleValidation(key, created.id);
	expect(order.status).toBe("on_hold");
	expect(order.hold_reason).toBe("file_resolution_too_low");
	return { user, key, order };
}

/** A multipart fix form with a sharp PNG as the new file. */
function sharpFileForm(): FormData {
	const form = new FormData();
	form.set("file", new File([sharpPng()], "harbour-sharp.png", { type: "image/png" }));
	return form;
}

describe("the orders list", () => {
	it("lists the account's orders in the page's mode, newest first, never another account's", async () => {
		const { user, order } = await partnerWithOrder();
		const owner = { accountId: user.partner.account.id, mode: "live" as const };
		const newer = await insertRawOrder(owner, "received", "https://files.partner.example/a.png", {
			now: new Date(Date.now() + 60_000),
		});
		const testOrder = await insertRawOrder(
			{ ...owner, mode: "test" },
			"received",
			"https://files.partner.example/t.png",
		);
		const stranger = await partnerWithOrder();
		const html = await htmlOf(await user.get("/partner/orders"));
		expect(html.indexOf(newer.externalId)).toBeGreaterThan(-1);
		expect(html.indexOf(newer.externalId)).toBeLessThan(html.indexOf(order.external_id));
		expect(html).not.toContain(testOrder.externalId);
		expect(html).not.toContain(stranger.order.external_id);
		expect(html).toContain("In production");
		const test = await htmlOf(await user.get("/partner/orders?mode=test"));
		expect(test).toContain(testOrder.externalId);
		expect(test).not.toContain(order.external_id);
		expect(test).toContain(`href="/partner/orders/${testOrder.id}?mode=test"`);
	});

	it("finds an order by its external id, its id, its tracking number and the start of its recipient's name in any case", async () => {
		const { user, order, opsKey, key } = await partnerWithOrder();
		const other = await createOrder(
			key,
			orderBody(order.items[0]?.print_file_id ?? "", { ship_to: { ...SHIP_TO, name: "Grace Hopper" } }),
		);
		await opsMoveOk(opsKey, order.id, "ship", TRACKING);
		for (const q of [order.external_id, order.id, TRACKING.number, "ada LOVE"]) {
			const html = await htmlOf(await user.get(`/partner/orders?q=${encodeURIComponent(q)}`));
			expect(html, q).toContain(order.external_id);
			expect(html, q).not.toContain(other.external_id);
		}
		const grace = await htmlOf(await user.get("/partner/orders?q=grace"));
		expect(grace).toContain(other.external_id);
		expect(grace).not.toContain(order.external_id);
		const none = await htmlOf(await user.get("/partner/orders?q=Lovelace"));
		expect(none).toContain("No order matches.");
	});

	it("filters by status and by the days the orders were placed", async () => {
		const { user } = await partnerWithOrder();
		const owner = { accountId: user.partner.account.id, mode: "live" as const };
		const old = await insertRawOrder(owner, "canceled", "https://files.partner.example/o.png", {
			now: new Date("2026-03-10T12:00:00.000Z"),
		});
		const held = await insertRawOrder(owner, "on_hold", "https://files.partner.example/h.png");
		const byStatus = await htmlOf(await user.get("/partner/orders?status=on_hold"));
		expect(byStatus).toContain(held.externalId);
		expect(byStatus).not.toContain(old.externalId);
		const byDays = await htmlOf(await user.get("/partner/orders?from=2026-03-10&to=2026-03-10"));
		expect(byDays).toContain(old.externalId);
		expect(byDays).not.toContain(held.externalId);
		const after = await htmlOf(await user.get("/partner/orders?from=2026-03-11"));
		expect(after).not.toContain(old.externalId);
		expect(after).toContain(held.externalId);
	});

	it("pages the orders newest first with an 'Older orders' link that neither repeats nor skips one", async () => {
		const user = await signedInUser("viewer");
		const owner = { accountId: user.partner.account.id, mode: "live" as const };
		const ids: string[] = [];
		for (let index = 0; index < 27; index++) {
			const made = await insertRawOrder(owner, "received", "https://files.partner.example/p.png", {
				now: new Date(Date.UTC(2026, 10, 1, 0, index)),
			});
			ids.push(made.externalId);
		}
		const first = await htmlOf(await user.get("/partner/orders"));
		const older = /href="(\/partner\/orders\?cursor=[^"]+)">Older orders/.exec(first)?.[1];
		expect(older).toBeDefined();
		const second = await htmlOf(await user.get((older ?? "").replaceAll("&amp;", "&")));
		const shown = (html: string) => ids.filter((id) => html.includes(id));
		expect(shown(first)).toHaveLength(25);
		expect(shown(second)).toEqual(ids.slice(0, 2));
		expect(second).not.toContain("Older orders");
		expect(second).toContain("Newest orders</a>");
	});

	it("answers a bad filter with a 400 page that says which and what is wrong", async () => {
		const user = await signedInUser("viewer");
		for (const [query, words] of [
			["status=lost", "The status must be one of the statuses offered."],
			["from=yesterday", "The first day must be a day written as YYYY-MM-DD."],
			["from=2026-05-02&to=2026-05-01", "The first day must not come after the last day."],
			["cursor=forged", "That page link is not one this console made"],
			[`q=${"x".repeat(129)}`, "The search must be at most 128 characters."],
		] as const) {
			const html = await htmlOf(await user.get(`/partner/orders?${query}`), 400);
			expect(html, query).toContain(words);
		}
	});
});

/** `db`, recording each statement's SQL and values as it is bound (the bound statement is D1's own, so batches still run). */
function recordingDatabase(db: D1Database, seen: { sql: string; params: unknown[] }[]): D1Database {
	return new Proxy(db, {
		get(target, property) {
			if (property === "prepare") {
				return (sql: string) => {
					const statement = target.prepare(sql);
					return new Proxy(statement, {
						get(prepared, name) {
							if (name === "bind") {
								return (...params: unknown[]) => {
									seen.push({ sql, params });
									return prepared.bind(...params);
								};
							}
							const value: unknown = Reflect.get(prepared, name);
							return typeof value === "function" ? value.bind(prepared) : value;
						},
					});
				};
			}
			const value: unknown = Reflect.get(target, property);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}

describe("the orders search's statements", () => {
	it("look each part up by its index (id, external id, tracking number, recipient's name), never walking the orders", async () => {
		const seen: { sql: string; params: unknown[] }[] = [];
		const owner = { accountId: "acct_plan", mode: "live" as const };
		const search = { q: "Ada", status: "on_hold" as const, createdAfter: "2026-01-01T00:00:00.000Z", limit: 25 };
		await searchOrders(recordingDatabase(env.DB, seen), owner, search, env.PRINT_FILES);
		const plans: string[] = [];
		for (const statement of seen.filter(({ sql }) => sql.startsWith("SELECT * FROM orders"))) {
			const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
				.bind(...statement.params)
				.all<{ detail: string }>();
			plans.push(results.map((line) => line.detail).join(" | "));
		}
		expect(plans).toHaveLength(4);
		for (const plan of plans) expect(plan).not.toMatch(/SCAN (orders|shipments)/);
		expect(plans.join("\n")).toContain("USING INDEX sqlite_autoindex_orders_1 (id=?)");
		expect(plans.join("\n")).toContain("shipments_by_tracking_number (tracking_number=?)");
		expect(plans.join("\n")).toContain("orders_by_external_id_alone (external_id=?)");
		expect(plans.join("\n")).toContain("orders_by_owner_recipient (account_id=? AND mode=? AND <expr>>? AND <expr><?)");
	});
});

describe("the order page", () => {
	it("shows the timeline in words and times, each shipment's carrier and tracking link, the items' images, costs and metadata", async () => {
		const { user, order, opsKey } = await partnerWithOrder();
		await opsMoveOk(opsKey, order.id, "ship", TRACKING);
		const html = await htmlOf(await user.get(`/partner/orders/${order.id}`));
		expect(html).toContain("Order received");
		expect(html).toContain("Checked and sent to production");
		expect(html).toContain("Shipped");
		expect(html).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
		expect(html).toContain(`href="${TRACKING.url}"`);
		expect(html).toContain("UPS");
		const itemId = order.items[0]?.id ?? "";
		// The file's thumbnail is made off the queue: until then the page says so in place of both images.
		expect(html).toMatch(
			new RegExp(`/partner/orders/${order.id}/items/${itemId}/preview\\.png\\?width_px=440|Thumbnail being made\\.`),
		);
		// Why an action is closed is told with the console's times, never an ISO timestamp.
		expect(html).toMatch(/The order shipped at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
		expect(html).toContain("Total");
		expect(html).toContain("shop_order_ref");
		expect(html).toContain("SO-1");
		// Shipped: the recipient and the cancel are closed, with why.
		expect(html).toContain("It can no longer be canceled");
		expect(html).not.toContain(`action="/partner/orders/${order.id}/recipient"`);
		// Shipped: a claim may be filed from the order's page.
		expect(html).toContain(`href="/partner/claims/new?order=${order.id}"`);
	});

	it("serves the item's framed preview to its owner, drawn by the API's function", async () => {
		const { user, order } = await partnerWithOrder();
		const itemId = order.items[0]?.id ?? "";
		const preview = await user.get(`/partner/orders/${order.id}/items/${itemId}/preview.png?width_px=440`);
		expect([200, 409]).toContain(preview.status);
		if (preview.status === 200) expect(preview.headers.get("Content-Type")).toBe("image/png");
		await preview.body?.cancel();
		const bad = await user.get(`/partner/orders/${order.id}/items/${itemId}/preview.png?width_px=5`);
		expect(await htmlOf(bad, 400)).toContain("width_px must be a whole number");
	});

	it("shows a viewer the order but none of its forms", async () => {
		const { user, order } = await partnerWithOrder("viewer");
		const html = await htmlOf(await user.get(`/partner/orders/${order.id}`));
		expect(html).toContain(order.external_id);
		expect(html).not.toContain("/recipient");
		expect(html).not.toContain("Cancel this order");
		expect(html).not.toContain("File a claim");
	});
});

describe("the order's forms", () => {
	it("changes the recipient and shipping method through the API's update, then says so", async () => {
		const { user, order, key } = await partnerWithOrder();
		const response = await user.post(`/partner/orders/${order.id}/recipient`, {
			...SHIP_TO,
			name: "Mary Somerville",
			shipping_method: "express",
		});
		expect(response.status).toBe(303);
		expect(response.headers.get("Location")).toBe(`/partner/orders/${order.id}?done=changed`);
		const after = await readOrder(key, order.id);
		expect(after.ship_to.name).toBe("Mary Somerville");
		expect(after.shipping_method).toBe("express");
		const html = await htmlOf(await user.get(`/partner/orders/${order.id}?done=changed`));
		expect(html).toContain('role="status">The recipient and shipping method are saved.');
		expect(html).toContain("Changed: the recipient, the shipping method");
	});

	it("refuses a recipient the API refuses with its words and a 422, changing nothing", async () => {
		const { user, order, key } = await partnerWithOrder();
		const { state: _state, ...withoutState } = SHIP_TO;
		const html = await htmlOf(
			await user.post(`/partner/orders/${order.id}/recipient`, {
				...withoutState,
				name: "Mary Somerville",
				shipping_method: "standard",
			}),
			422,
		);
		expect(html).toContain("is required for US");
		expect(html).toContain('value="Mary Somerville"');
		expect((await readOrder(key, order.id)).ship_to.name).toBe(SHIP_TO.name);
	});

	it("refuses a change once the floor started the order (409), as the API does", async () => {
		const { user, order, key, opsKey } = await partnerWithOrder();
		await opsMoveOk(opsKey, order.id, "start");
		const page = await htmlOf(await user.get(`/partner/orders/${order.id}`));
		expect(page).not.toContain(`/partner/orders/${order.id}/recipient`);
		const html = await htmlOf(
			await user.post(`/partner/orders/${order.id}/recipient`, {
				...SHIP_TO,
				name: "Mary",
				shipping_method: "standard",
			}),
			409,
		);
		expect(html).toContain("Nothing was changed");
		expect((await readOrder(key, order.id)).ship_to.name).toBe(SHIP_TO.name);
	});

	it("cancels only after the confirmation step, through the API's cancel", async () => {
		const { user, order, key } = await partnerWithOrder();
		const confirm = await htmlOf(await user.get(`/partner/orders/${order.id}/cancel`));
		expect(confirm).toContain("Yes, cancel the order");
		const unconfirmed = await user.post(`/partner/orders/${order.id}/cancel`);
		expect(unconfirmed.status).toBe(303);
		expect(unconfirmed.headers.get("Location")).toBe(`/partner/orders/${order.id}/cancel`);
		expect((await readOrder(key, order.id)).status).toBe("in_production");
		const confirmed = await user.post(`/partner/orders/${order.id}/cancel`, { confirm: "yes" });
		expect(confirmed.headers.get("Location")).toBe(`/partner/orders/${order.id}?done=canceled`);
		expect((await readOrder(key, order.id)).status).toBe("canceled");
		const again = await htmlOf(await user.post(`/partner/orders/${order.id}/cancel`, { confirm: "yes" }), 409);
		expect(again).toContain("Nothing was changed");
	});

	it("shows a hold in the catalog's words and fixes it by uploading a sharper file", async () => {
		const { user, order, key } = await heldOrder();
		const itemId = order.items[0]?.id ?? "";
		const page = await htmlOf(await user.get(`/partner/orders/${order.id}`));
		expect(page).toContain("On hold: File resolution too low for the size");
		expect(page).toContain(order.hold_details[0]?.message ?? "no detail");
		expect(page).toContain("What to do: send a print file with more pixels, or order a smaller size.");
		const fixed = await user.upload(`/partner/orders/${order.id}/items/${itemId}/fix`, sharpFileForm());
		expect(fixed.status).toBe(303);
		expect(fixed.headers.get("Location")).toBe(`/partner/orders/${order.id}?done=fixed`);
		const after = await settleValidation(key, order.id);
		expect(after.status).toBe("in_production");
		expect(after.items[0]?.print_file_id).toMatch(/^pf_/);
	});

	it("refuses a fix whose new file is still too small, in the API's words, and stores nothing of it on the order", async () => {
		const { user, order, key } = await heldOrder();
		const itemId = order.items[0]?.id ?? "";
		const form = new FormData();
		form.set("file", new File([encodePng(48, 48)], "small.png", { type: "image/png" }));
		const html = await htmlOf(await user.upload(`/partner/orders/${order.id}/items/${itemId}/fix`, form), 422);
		expect(html).toContain("below the 150 DPI minimum");
		const empty = await htmlOf(
			await user.upload(`/partner/orders/${order.id}/items/${itemId}/fix`, new FormData()),
			422,
		);
		expect(empty).toContain("Choose a new print file, or change the size, the frame or the mat.");
		expect((await readOrder(key, order.id)).status).toBe("on_hold");
	});

	it("changes a held item's size where the API's fix allows it, refusing a size that is not a number", async () => {
		const { user, order, key } = await heldOrder();
		const itemId = order.items[0]?.id ?? "";
		const form = new FormData();
		form.set("width_in", "abc");
		expect(await htmlOf(await user.upload(`/partner/orders/${order.id}/items/${itemId}/fix`, form), 422)).toContain(
			"Width in inches: must be a number",
		);
		expect((await readOrder(key, order.id)).items[0]?.width_in).toBe(8);
		form.set("width_in", "6");
		form.set("height_in", "8");
		const fixed = await user.upload(`/partner/orders/${order.id}/items/${itemId}/fix`, form);
		expect(fixed.headers.get("Location")).toBe(`/partner/orders/${order.id}?done=fixed`);
		const after = await readOrder(key, order.id);
		expect(after.items[0]).toMatchObject({ width_in: 6, height_in: 8 });
		const page = await htmlOf(await user.get(`/partner/orders/${order.id}?done=fixed`));
		expect(page).toContain("The item is fixed: the order is being checked again.");
		expect(page).toContain("Item fixed; checking again");
	});
});

describe("attacks on the orders", () => {
	/** Every page and form of an order, with what each needs. */
	function everyAddress(orderId: string, itemId: string, mode: "" | "?mode=test" = "") {
		const base = `/partner/orders/${orderId}`;
		return {
			pages: [
				`${base}${mode}`,
				`${base}/items/${itemId}/thumbnail.png${mode}`,
				`${base}/items/${itemId}/preview.png${mode}`,
				`${base}/cancel${mode}`,
			],
			forms: [`${base}/cancel${mode}`, `${base}/recipient${mode}`, `${base}/items/${itemId}/fix${mode}`],
		};
	}
	const formFields = { confirm: "yes", ...SHIP_TO, name: "Mallory", shipping_method: "express", width_in: "10" };

	async function expectUnchanged(key: string, order: Order): Promise<void> {
		const after = await readOrder(key, order.id);
		expect(after.status).toBe(order.status);
		expect(after.ship_to.name).toBe(order.ship_to.name);
		expect(after.items[0]?.width_in).toBe(order.items[0]?.width_in);
	}

	it("another account's order is a 404 on its page, its images and every form, and nothing changes", async () => {
		const { order, key } = await partnerWithOrder();
		const mallory = await signedInUser("owner");
		const { pages, forms } = everyAddress(order.id, order.items[0]?.id ?? "");
		for (const path of pages) expect((await mallory.get(path)).status, path).toBe(404);
		for (const path of forms) expect((await mallory.post(path, formFields)).status, path).toBe(404);
		await expectUnchanged(key, order);
	});

	it("the other mode's order is a 404 on its page, its images and every form, and nothing changes", async () => {
		const { order, key, user } = await partnerWithOrder("owner");
		const { pages, forms } = everyAddress(order.id, order.items[0]?.id ?? "", "?mode=test");
		for (const path of pages) expect((await user.get(path)).status, path).toBe(404);
		for (const path of forms) expect((await user.post(path, formFields)).status, path).toBe(404);
		await expectUnchanged(key, order);
		const testOrder = await insertRawOrder(
			{ accountId: user.partner.account.id, mode: "test" },
			"on_hold" satisfies OrderStatus,
			"https://files.partner.example/t.png",
		);
		expect((await user.get(`/partner/orders/${testOrder.id}`)).status).toBe(404);
		expect((await user.get(`/partner/orders/${testOrder.id}?mode=test`)).status).toBe(200);
	});

	it("every form refuses a missing and a forged token (403), and nothing changes", async () => {
		const { order, key, user } = await partnerWithOrder("owner");
		const { forms } = everyAddress(order.id, order.items[0]?.id ?? "");
		for (const path of forms) {
			expect((await post(path, formFields, user.cookie)).status, path).toBe(403);
			expect((await post(path, { ...formFields, _csrf: "forged" }, user.cookie)).status, path).toBe(403);
		}
		await expectUnchanged(key, order);
	});

	it("a viewer reads the list and the order but gets 403 on the cancel's confirmation and every form", async () => {
		const { order, key, user } = await partnerWithOrder("viewer");
		expect((await user.get("/partner/orders")).status).toBe(200);
		expect((await user.get(`/partner/orders/${order.id}`)).status).toBe(200);
		expect((await user.get(`/partner/orders/${order.id}/cancel`)).status).toBe(403);
		const { forms } = everyAddress(order.id, order.items[0]?.id ?? "");
		for (const path of forms) expect((await user.post(path, formFields)).status, path).toBe(403);
		await expectUnchanged(key, order);
	});

	it("signed out, every page and form leads to the sign-in page", async () => {
		const { order } = await partnerWithOrder();
		expect((await post(`/partner/orders/${order.id}/cancel`, { confirm: "yes" })).headers.get("Location")).toBe(
			"/partner/sign-in",
		);
	});
});
