import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { api, createPartner, expectError, send } from "../helpers.ts";
import { createOrder, orderBody, readOrder, readyFile, settleValidation } from "./order-helpers.ts";

type OrderPage = { data: Order[]; next_cursor: string | null };

/**
 * An on_hold order (an unknown frame) in `key`'s account and mode. On hold is the state in which its
 * owner may change items, cancel it, and nothing moves it on by itself, so every route would act on it.
 */
async function heldOrder(key: string): Promise<Order> {
	const file = await readyFile(key, 2400, 3000);
	const created = await createOrder(key, orderBody(file, {}, { frame: "no-such-frame" }));
	const settled = await settleValidation(key, created.id);
	expect(settled.status).toBe("on_hold");
	return settled;
}

/** The owner with a held live and a held test order; a stranger account with an order of its own in each mode. */
async function scenario() {
	const owner = await createPartner("Owner Gallery");
	const stranger = await createPartner("Stranger Prints");
	const live = await heldOrder(owner.keys.live.key);
	const test = await heldOrder(owner.keys.test.key);
	// The stranger's own orders, so its listing has something in it that must not be joined by the owner's.
	const strangerLive = await heldOrder(stranger.keys.live.key);
	const strangerTest = await heldOrder(stranger.keys.test.key);
	return { owner, stranger, live, test, strangerLive, strangerTest };
}

type Scenario = Awaited<ReturnType<typeof scenario>>;

/** Keys that must not see `order`: another account's key of the same mode, and its owner's key of the other mode. */
function outsiders(world: Scenario, order: "live" | "test"): { who: string; key: string }[] {
	return order === "live"
		? [
				{ who: "another account (live key)", key: world.stranger.keys.live.key },
				{ who: "another account (test key)", key: world.stranger.keys.test.key },
				{ who: "the owner's test key", key: world.owner.keys.test.key },
			]
		: [
				{ who: "another account (test key)", key: world.stranger.keys.test.key },
				{ who: "another account (live key)", key: world.stranger.keys.live.key },
				{ who: "the owner's live key", key: world.owner.keys.live.key },
			];
}

/** The order as its owner reads it, plus its rows that no read shows (version, events). */
async function snapshot(key: string, id: string) {
	const row = await env.DB.prepare(
		`SELECT version, updated_at, (SELECT COUNT(*) FROM events WHERE order_id = ?1) AS events FROM orders WHERE id = ?1`,
	)
		.bind(id)
		.first();
	return { order: await readOrder(key, id), row };
}

async function expectUnchanged(world: Scenario, check: () => Promise<void>): Promise<void> {
	const liveBefore = await snapshot(world.owner.keys.live.key, world.live.id);
	const testBefore = await snapshot(world.owner.keys.test.key, world.test.id);
	await check();
	expect(await snapshot(world.owner.keys.live.key, world.live.id)).toEqual(liveBefore);
	expect(await snapshot(world.owner.keys.test.key, world.test.id)).toEqual(testBefore);
}

describe("order isolation between accounts and modes", () => {
	it("GET /v1/orders/{id}: 404 for another account and for the other mode", async () => {
		const world = await scenario();
		await expectUnchanged(world, async () => {
			for (const mode of ["live", "test"] as const) {
				for (const { who, key } of outsiders(world, mode)) {
					const response = await api(`/v1/orders/${world[mode].id}`, { key });
					expect(response.status, `${who} reading the ${mode} order`).toBe(404);
					await expectError(response, "not_found", "id");
				}
			}
		});
	});

	it("GET /v1/orders/by-external-id/{external_id}: 404 for another account and for the other mode", async () => {
		const world = await scenario();
		await expectUnchanged(world, async () => {
			for (const mode of ["live", "test"] as const) {
				for (const { who, key } of outsiders(world, mode)) {
					const path = `/v1/orders/by-external-id/${encodeURIComponent(world[mode].external_id)}`;
					const response = await api(path, { key });
					expect(response.status, `${who} looking up the ${mode} order`).toBe(404);
					await expectError(response, "not_found", "external_id");
				}
			}
		});
	});

	it("GET /v1/orders: each key lists only its own account's orders of its own mode", async () => {
		const world = await scenario();
		const list = async (key: string) => {
			const response = await api("/v1/orders?limit=100", { key });
			expect(response.status).toBe(200);
			return ((await response.json()) as OrderPage).data.map((order) => order.id);
		};
		expect(await list(world.owner.keys.live.key)).toEqual([world.live.id]);
		expect(await list(world.owner.keys.test.key)).toEqual([world.test.id]);
		expect(await list(world.stranger.keys.live.key)).toEqual([world.strangerLive.id]);
		expect(await list(world.stranger.keys.test.key)).toEqual([world.strangerTest.id]);
		// Filters do not widen the view.
		const held = await api("/v1/orders?status=on_hold&limit=100", { key: world.stranger.keys.live.key });
		expect(((await held.json()) as OrderPage).data.map((order) => order.id)).toEqual([world.strangerLive.id]);
	});

	it("PATCH /v1/orders/{id}/items/{item_id}: 404 for another account and for the other mode, nothing changed", async () => {
		const world = await scenario();
		await expectUnchanged(world, async () => {
			for (const mode of ["live", "test"] as const) {
				const itemId = world[mode].items[0]?.id ?? "";
				for (const { who, key } of outsiders(world, mode)) {
					const response = await send("PATCH", `/v1/orders/${world[mode].id}/items/${itemId}`, key, {
						frame: "walnut-flat-075",
					});
					expect(response.status, `${who} changing an item of the ${mode} order`).toBe(404);
					await expectError(response, "not_found", "id");
				}
			}
		});
	});

	it("POST /v1/orders/{id}/cancel: 404 for another account and for the other mode, nothing canceled", async () => {
		const world = await scenario();
		await expectUnchanged(world, async () => {
			for (const mode of ["live", "test"] as const) {
				for (const { who, key } of outsiders(world, mode)) {
					const response = await api(`/v1/orders/${world[mode].id}/cancel`, { method: "POST", key });
					expect(response.status, `${who} canceling the ${mode} order`).toBe(404);
					await expectError(response, "not_found", "id");
				}
			}
		});
		expect((await readOrder(world.owner.keys.live.key, world.live.id)).canceled_at).toBeNull();
	});

	it("POST /v1/sandbox/orders/{id}/advance: 404 for another account's test key, 403 for any live key", async () => {
		const world = await scenario();
		await expectUnchanged(world, async () => {
			const advance = (id: string, key: string) => api(`/v1/sandbox/orders/${id}/advance`, { method: "POST", key });
			// Another account's test key: the order does not exist for it.
			await expectError(await advance(world.test.id, world.stranger.keys.test.key), "not_found", "id");
			// The owner's own test key on its live order: the other mode, not found either.
			await expectError(await advance(world.live.id, world.owner.keys.test.key), "not_found", "id");
			// Live keys never reach the sandbox, whoever's order it is.
			await expectError(await advance(world.test.id, world.owner.keys.live.key), "forbidden");
			await expectError(await advance(world.test.id, world.stranger.keys.live.key), "forbidden");
			await expectError(await advance(world.live.id, world.stranger.keys.live.key), "forbidden");
		});
	});

	it("the owner can still act on the orders the others could not touch", async () => {
		const world = await scenario();
		const { live } = world;
		const key = world.owner.keys.live.key;
		const patched = await send("PATCH", `/v1/orders/${live.id}/items/${live.items[0]?.id}`, key, {
			frame: "walnut-flat-075",
		});
		expect(patched.status).toBe(200);
		const canceled = await api(`/v1/orders/${world.test.id}/cancel`, {
			method: "POST",
			key: world.owner.keys.test.key,
		});
		expect(canceled.status).toBe(200);
		expect(((await canceled.json()) as Order).status).toBe("canceled");
	});
});
