import { describe, expect, it } from "vitest";
import { OPENAPI_PATH } from "../../src/openapi/document.ts";
import type { Order } from "../../src/orders/response.ts";
import { api } from "../helpers.ts";
import { eventsOf, orderBody, partnerWithFile, readOrder, settleValidation } from "./order-helpers.ts";

/** Metadata as a partner's JSON writes it, keys in this order: integer-like keys among the others. */
const SENT_METADATA_JSON = '{"zeta":"1","20":"a","alpha":"2","3":"b","007":"c","-1":"d"}';
/**
 * The order every answer gives them: JSON objects in JavaScript (and so in every JSON answer) put keys
 * that are canonical array indexes first, in ascending numeric order; the others keep the order sent.
 */
const ANSWERED_KEYS = ["3", "20", "zeta", "alpha", "007", "-1"];

describe("metadata: the order of its keys", () => {
	it("integer-like keys come back first in ascending numeric order, the others in the order sent: on the 201, the GET and the events", async () => {
		const { key, file } = await partnerWithFile();
		const body = JSON.stringify(orderBody(file)).replace(/}$/, `,"metadata":${SENT_METADATA_JSON}}`);
		const response = await api("/v1/orders", { method: "POST", key, body });
		expect(response.status).toBe(201);
		const created = (await response.json()) as Order;
		expect(Object.keys(created.metadata)).toEqual(ANSWERED_KEYS);
		await settleValidation(key, created.id);
		expect(Object.keys((await readOrder(key, created.id)).metadata)).toEqual(ANSWERED_KEYS);
		for (const event of await eventsOf(created.id)) {
			expect(Object.keys(event.body.metadata as Record<string, string>), event.type).toEqual(ANSWERED_KEYS);
		}
	});

	it("the reference says so where it describes metadata: integer-like keys first, in numeric order", async () => {
		const document = (await (await api(OPENAPI_PATH)).json()) as {
			components: {
				schemas: Record<string, { description?: string; properties?: Record<string, { description?: string }> }>;
			};
		};
		const { schemas } = document.components;
		const described = {
			"CreateOrderRequest.metadata": schemas.CreateOrderRequest?.properties?.metadata?.description,
			"Metadata (orders and events)": schemas.Metadata?.description,
		};
		for (const [where, description] of Object.entries(described)) {
			expect(description ?? "", where).toMatch(/integer/i);
			expect(description ?? "", where).toMatch(/ascending numeric order/);
		}
	});
});
