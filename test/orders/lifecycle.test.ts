import { describe, expect, it } from "vitest";
import { createPartner } from "../helpers.ts";
import { createOrder, orderBody, readyFile, settleValidation } from "./order-helpers.ts";

describe("an order's life", () => {
	it("is received at creation and goes to in_production when its items pass", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const file = await readyFile(key, 2400, 3000);
		const created = await createOrder(key, orderBody(file));
		expect(created.status).toBe("received");
		expect(created.tracking).toBeNull();
		expect(created.items[0]?.effective_dpi).toBe(300);
		const settled = await settleValidation(key, created.id);
		expect(settled.status).toBe("in_production");
	});
});
