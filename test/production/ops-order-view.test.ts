import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { putProfile, RETURN_ADDRESS, STORED_RETURN_ADDRESS } from "../branding/branding-helpers.ts";
import { api, createKeyWithScopes, expectError } from "../helpers.ts";
import {
	createOrder,
	orderBody,
	partnerWithFile,
	readOrder,
	readyFile,
	SHIP_TO,
	settleValidation,
} from "../orders/order-helpers.ts";

type OpsOrderView = {
	order: Order;
	account: { id: string; name: string };
	shipping_label: {
		return_address: Record<string, string> | null;
		ship_to: Record<string, string>;
		return_address_lines: string[] | null;
		ship_to_lines: string[];
	};
	brand_name: string | null;
	packing_slip_url: string;
	commercial_invoice_url: string | null;
};

/** partnerWithFile here: a partner ("Harbour Gallery"), its live key and a ready 300 DPI file for 8 × 10 in, and an ops key. */
const HARBOUR = { name: "Harbour Gallery", opsKey: true } as const;

/** GET /v1/ops/orders/{id}. */
function viewResponse(key: string, orderId: string): Promise<Response> {
	return api(`/v1/ops/orders/${orderId}`, { key });
}

/** The ops view of an order, checked to be a 200. */
async function opsView(opsKey: string, orderId: string): Promise<OpsOrderView> {
	const response = await viewResponse(opsKey, orderId);
	expect(response.status).toBe(200);
	expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
	return (await response.json()) as OpsOrderView;
}

describe("GET /v1/ops/orders/{id}", () => {
	it("shows the order, its partner, the label's addresses (the partner's return address), the brand and the slip's URL", async () => {
		const { partner, key, file, opsKey } = await partnerWithFile(HARBOUR);
		await putProfile(key, { brand_name: "Harbour Prints", return_address: RETURN_ADDRESS });
		const created = await createOrder(key, orderBody(file, { gift_message: "Enjoy!" }));
		const settled = await settleValidation(key, created.id);

		const view = await opsView(opsKey, created.id);
		expect(view).toEqual({
			order: settled,
			account: { id: partner.account.id, name: "Harbour Gallery" },
			shipping_label: {
				return_address: STORED_RETURN_ADDRESS,
				ship_to: SHIP_TO,
				return_address_lines: [
					"Lumen Prints Returns",
					"400 Gallery Row",
					"Unit 7",
					"Burlington, VT 05401",
					"United States",
				],
				ship_to_lines: ["Ada Lovelace", "12 Harbour Street", "Portland, ME 04101", "United States"],
			},
			brand_name: "Harbour Prints",
			packing_slip_url: `/v1/ops/orders/${created.id}/packing-slip`,
			// A US order crosses no border: no commercial invoice.
			commercial_invoice_url: null,
		});
		expect(view.order.gift_message).toBe("Enjoy!");
	});

	it("its order is the order the partner reads", async () => {
		const { key, file, opsKey } = await partnerWithFile(HARBOUR);
		const created = await createOrder(key, orderBody(file));
		await settleValidation(key, created.id);
		expect((await opsView(opsKey, created.id)).order).toEqual(await readOrder(key, created.id));
	});

	it("without a brand profile the label has no return address and there is no brand name (never the service's)", async () => {
		const { key, file, opsKey } = await partnerWithFile(HARBOUR);
		const created = await createOrder(key, orderBody(file));
		const view = await opsView(opsKey, created.id);
		expect(view.shipping_label).toEqual({
			return_address: null,
			ship_to: SHIP_TO,
			return_address_lines: null,
			ship_to_lines: ["Ada Lovelace", "12 Harbour Street", "Portland, ME 04101", "United States"],
		});
		expect(view.brand_name).toBeNull();
		expect(JSON.stringify(view)).not.toMatch(/framed[-\s]?print|fulfil+ment api/i);
	});

	it("a profile without a return address gives the brand name but a label without return address", async () => {
		const { key, file, opsKey } = await partnerWithFile(HARBOUR);
		await putProfile(key, { brand_name: "Harbour Prints" });
		const view = await opsView(opsKey, (await createOrder(key, orderBody(file))).id);
		expect(view.brand_name).toBe("Harbour Prints");
		expect(view.shipping_label.return_address).toBeNull();
	});

	it("a test-mode order uses the test key's profile, never the one the partner set with its live key", async () => {
		const { partner, key, opsKey } = await partnerWithFile(HARBOUR);
		await putProfile(key, { brand_name: "Harbour Prints", return_address: RETURN_ADDRESS });
		const testKey = partner.keys.test.key;
		const created = await createOrder(testKey, orderBody(await readyFile(testKey, 2400, 3000)));
		const unbranded = await opsView(opsKey, created.id);
		expect(unbranded.order.mode).toBe("test");
		expect(unbranded.brand_name).toBeNull();
		expect(unbranded.shipping_label.return_address).toBeNull();
		await putProfile(testKey, { brand_name: "Harbour Sandbox", return_address: RETURN_ADDRESS });
		const view = await opsView(opsKey, created.id);
		expect(view.brand_name).toBe("Harbour Sandbox");
		expect(view.shipping_label.return_address).toEqual(STORED_RETURN_ADDRESS);
	});

	it("each of two branded partners' orders shows only its own partner, brand and return address", async () => {
		const first = await partnerWithFile({ ...HARBOUR, name: "First Gallery" });
		const second = await partnerWithFile({ ...HARBOUR, name: "Second Gallery" });
		const secondAddress = {
			name: "Second Returns",
			address1: "9 Northern Way",
			city: "Leeds",
			zip: "LS1 4AP",
			country: "GB",
		};
		await putProfile(first.key, { brand_name: "Aurora Frames", return_address: RETURN_ADDRESS });
		await putProfile(second.key, { brand_name: "Borealis Art", return_address: secondAddress });
		const firstOrder = await createOrder(first.key, orderBody(first.file));
		const secondOrder = await createOrder(second.key, orderBody(second.file));

		const firstView = await opsView(first.opsKey, firstOrder.id);
		expect(firstView.account).toEqual({ id: first.partner.account.id, name: "First Gallery" });
		expect(firstView.brand_name).toBe("Aurora Frames");
		expect(firstView.shipping_label.return_address).toEqual(STORED_RETURN_ADDRESS);

		const secondView = await opsView(first.opsKey, secondOrder.id);
		expect(secondView.account).toEqual({ id: second.partner.account.id, name: "Second Gallery" });
		expect(secondView.brand_name).toBe("Borealis Art");
		expect(secondView.shipping_label.return_address).toEqual(secondAddress);
	});

	it("its packing_slip_url serves the slip to the same ops key", async () => {
		const { key, file, opsKey } = await partnerWithFile(HARBOUR);
		await putProfile(key, { brand_name: "Harbour Prints" });
		const view = await opsView(opsKey, (await createOrder(key, orderBody(file))).id);
		const slip = await api(view.packing_slip_url, { key: opsKey });
		expect(slip.status).toBe(200);
		expect(slip.headers.get("Content-Type")).toMatch(/^text\/html/);
		expect(await slip.text()).toContain("<h1>Harbour Prints</h1>");
	});

	it("without a key is a 401", async () => {
		const { key, file } = await partnerWithFile(HARBOUR);
		const created = await createOrder(key, orderBody(file));
		await expectError(await api(`/v1/ops/orders/${created.id}`), "unauthorized");
	});

	it("a partner key is a 403, even for the partner's own order; so is an admin key", async () => {
		const { partner, key, file } = await partnerWithFile(HARBOUR);
		const created = await createOrder(key, orderBody(file));
		await expectError(await viewResponse(key, created.id), "forbidden");
		await expectError(await viewResponse(partner.keys.test.key, created.id), "forbidden");
		await expectError(await viewResponse(await createKeyWithScopes(["admin"]), created.id), "forbidden");
	});

	it("an unknown order is a 404 envelope on id", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const error = await expectError(await viewResponse(opsKey, "ord_doesnotexist"), "not_found", "id");
		expect(error.message).toContain("ord_doesnotexist");
	});
});
