import { describe, expect, it } from "vitest";
import { consoleRequest, htmlOf, signedInOperator } from "../console/console-helpers.ts";
import { api } from "../helpers.ts";
import { createOrder, orderBody, partnerWithFile, settleValidation } from "../orders/order-helpers.ts";

/** A key and a value no page of the service writes by itself, the value with markup in it. */
const KEY = "floor_unseen_mdkey";
const VALUE_MARK = "MDVALUE-7731";
const METADATA = { [KEY]: `<img src=x onerror=alert(1)><b>${VALUE_MARK}</b> & "quoted"`, channel: "etsy" };

/** Asserts that `html` shows neither the metadata's key nor its value, raw or escaped. */
function expectNoMetadata(html: string): void {
	expect(html.length).toBeGreaterThan(0);
	expect(html).not.toContain(KEY);
	expect(html).not.toContain(VALUE_MARK);
	expect(html).not.toContain("onerror");
}

describe("metadata is never shown on the floor's pages", () => {
	it("is on the order, yet nowhere on the packing slip, the work ticket or the console's pages", async () => {
		const { key, file, opsKey } = await partnerWithFile({ opsKey: true });
		const created = await createOrder(key, orderBody(file, { metadata: METADATA }));
		expect(created.metadata).toEqual(METADATA);
		expect((await settleValidation(key, created.id)).status).toBe("in_production");

		for (const path of [`/v1/ops/orders/${created.id}/packing-slip`, `/v1/ops/orders/${created.id}/work-ticket`]) {
			const response = await api(path, { key: opsKey });
			expect(response.status).toBe(200);
			expectNoMetadata(await response.text());
		}

		const { cookie } = await signedInOperator();
		for (const path of [
			"/ops/orders",
			`/ops/orders?q=${encodeURIComponent(created.external_id)}`,
			`/ops/orders/${created.id}`,
			`/ops/orders/${created.id}/packing-slip`,
			`/ops/orders/${created.id}/work-ticket`,
		]) {
			expectNoMetadata(await htmlOf(await consoleRequest(path, { cookie }), 200));
		}
	});
});
