import { describe, expect, it } from "vitest";
import {
	CLAIM_EVENT_SCHEMAS,
	CLAIM_EVENT_TYPES,
	type ClaimEvent,
	type ClaimEventBody,
	claimEventBody,
} from "../../src/claims/events.ts";

const AT = new Date("2026-12-01T09:00:00.000Z");

const EVENT: Omit<ClaimEvent, "type"> = {
	accountId: "acc_1",
	mode: "live",
	order: {
		id: "ord_1",
		external_id: "PO-1",
		status: "delivered",
		version: 7,
		tracking: { carrier: "UPS", number: "1Z999", url: "https://ups.example/1Z999" },
		shipped_at: "2026-11-21T10:00:00.000Z",
		hold_reason: null,
		hold_details: [],
		delivered_at: "2026-11-24T10:00:00.000Z",
		canceled_at: null,
		metadata: { shop_order_ref: "SO-1" },
	},
	claim: {
		id: "clm_1",
		order_id: "ord_1",
		status: "submitted",
		reason: "damaged_in_transit",
		items: [{ item_id: "itm_1", quantity: 1 }],
		description: "The glass arrived cracked.",
		photos: ["pf_1"],
		created_at: AT.toISOString(),
		resolution: null,
	},
	delivery: { url: null },
	createdAt: AT,
};

describe("claimEventBody", () => {
	for (const type of CLAIM_EVENT_TYPES) {
		it(`${type}'s body is the order's base, the claim, then the order's metadata, as its schema accepts`, () => {
			const body = JSON.parse(claimEventBody({ ...EVENT, type }, "evt_1")) as Record<string, unknown>;
			expect(Object.keys(body)).toEqual([
				"id",
				"event",
				"created_at",
				"order_id",
				"external_id",
				"status",
				"version",
				"claim",
				"metadata",
			]);
			expect(CLAIM_EVENT_SCHEMAS[type].strict().safeParse(body).success).toBe(true);
			const typed: ClaimEventBody<typeof type> = CLAIM_EVENT_SCHEMAS[type].parse(body);
			expect(typed.claim.id).toBe("clm_1");
		});
	}

	it("refuses a claim its schema does not accept (no unit claimed), rather than send it", () => {
		const claim = { ...EVENT.claim, items: [{ item_id: "itm_1", quantity: 0 }] };
		expect(() => claimEventBody({ ...EVENT, type: "claim.created", claim }, "evt_2")).toThrow();
	});
});
