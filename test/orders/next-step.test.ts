import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { send } from "../helpers.ts";
import { waitFor } from "../polling.ts";
import { FILE_HOST, partnerFileServer } from "../print-files/file-hosting.ts";
import {
	createOrder,
	opsMoveOk,
	orderBody,
	partnerWithWindow,
	readOrder,
	readyFile,
	runOrderAlarm,
	SHIP_TO,
	settleValidation,
} from "./order-helpers.ts";

/**
 * Every path that loses a race for an order's version, or changes it, leaves the order with its next
 * step: an alarm set for the version it is now at, when the order still has something to do by itself.
 */

const { sharpFileUrl } = partnerFileServer("next-step");

/** The alarm the order's machine has set, with the version and time it was set for; null when none. */
async function alarmOf(orderId: string): Promise<{ at: number; version: number | null } | null> {
	const stub = env.ORDER_MACHINE.get(env.ORDER_MACHINE.idFromName(orderId));
	return runInDurableObject(stub, async (_machine, state) => {
		const alarm = await state.storage.getAlarm();
		const intent = await state.storage.get<{ at: number; version: number | null }>("alarm_intent");
		return alarm === null || intent === undefined ? null : intent;
	});
}

describe("an order that loses a race keeps a next step", () => {
	it("a PATCH that lands while a slow file is fetched leaves the order a next step: it is validated again by itself", async () => {
		const { key } = await partnerWithWindow(0);
		const url = (await sharpFileUrl()).replace(FILE_HOST, `${FILE_HOST}/slow/1500`);
		const created = await createOrder(key, {
			...orderBody("unused"),
			items: [{ print_file_url: url, width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" }],
		});
		// Validation starts and fetches the file, which takes 1.5 s; the partner changes the recipient meanwhile.
		const validating = runOrderAlarm(created.id);
		await new Promise((resolve) => setTimeout(resolve, 500));
		const patched = await send("PATCH", `/v1/orders/${created.id}`, key, {
			ship_to: { ...SHIP_TO, name: "Ada Lovelace" },
		});
		expect(patched.status).toBe(200);
		await validating;
		const after = await readOrder(key, created.id);
		if (after.status === "validating") expect(await alarmOf(created.id)).toMatchObject({ version: after.version });
		// Nothing drives it now: its own alarm validates the version the PATCH wrote.
		const settled = await waitFor(
			() => readOrder(key, created.id),
			(order) => order.status === "in_production",
		);
		expect(settled.ship_to.name).toBe("Ada Lovelace");
	});

	it("a metadata PATCH on a test order in production keeps its sandbox step: the alarm follows the new version", async () => {
		const { partner } = await partnerWithWindow(0);
		const testKey = partner.keys.test.key;
		const created = await createOrder(testKey, orderBody(await readyFile(testKey, 2400, 3000)));
		const order = await settleValidation(testKey, created.id);
		expect(order.status).toBe("in_production");
		const patched = await send("PATCH", `/v1/orders/${order.id}`, testKey, { metadata: { shelf: "B4" } });
		expect(patched.status).toBe(200);
		const { version } = (await patched.json()) as Order;
		expect(await alarmOf(order.id)).toMatchObject({ version });
		// The sandbox's next step, from the new version: its start, then its ship.
		expect(await runOrderAlarm(order.id)).toBe(true);
		expect((await readOrder(testKey, order.id)).production_started_at).not.toBeNull();
		expect(await runOrderAlarm(order.id)).toBe(true);
		expect((await readOrder(testKey, order.id)).status).toBe("shipped");
	});
});

describe("validation inside the edit window", () => {
	it("an item fix inside the window is validated at once, not at the window's end", async () => {
		const { key, file } = await partnerWithWindow(60);
		const created = await createOrder(key, orderBody(file, {}, { frame: "no-such-frame" }));
		const held = await settleValidation(key, created.id);
		expect(held.status).toBe("on_hold");
		const itemId = held.items[0]?.id ?? "";
		const fixed = await send("PATCH", `/v1/orders/${held.id}/items/${itemId}`, key, { frame: "walnut-flat-075" });
		expect(fixed.status).toBe(200);
		// Its own alarm, unprompted, within moments (the window has an hour to run).
		await waitFor(
			() => readOrder(key, held.id),
			(order) => order.status === "in_production",
		);
	});

	it("a hold released by the floor inside the window is validated at once", async () => {
		const { key, file, opsKey } = await partnerWithWindow(60);
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		expect(order.status).toBe("in_production");
		await opsMoveOk(opsKey, order.id, "hold", { message: "Check the moulding's colour with the partner." });
		await opsMoveOk(opsKey, order.id, "release");
		await waitFor(
			() => readOrder(key, order.id),
			(current) => current.status === "in_production",
		);
	});
});
