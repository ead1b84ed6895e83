import { describe, expect, it } from "vitest";
import { api, send } from "../helpers.ts";
import { damagedBody, deliveredOrder, expectCode, postClaim, postClaimOk } from "./claim-helpers.ts";

describe("the claim routes refuse fields they do not name (no mass assignment)", () => {
	it("a claim carrying status, or an item carrying credit_cents, is a 422 invalid_field naming it, and no claim is made", async () => {
		const { key, order, itemId, photo } = await deliveredOrder(2);
		const withStatus = await postClaim(key, order.id, { ...damagedBody(itemId, 1, [photo]), status: "approved" });
		const error = await expectCode(withStatus, 422, "validation_error", "invalid_field");
		expect(error.field).toBe("status");
		expect(error.message).toContain('Unknown field "status"');
		const body = damagedBody(itemId, 1, [photo]);
		const inItem = await postClaim(key, order.id, {
			...body,
			items: [{ item_id: itemId, quantity: 1, credit_cents: 100 }],
		});
		expect((await expectCode(inItem, 422, "validation_error", "invalid_field")).field).toBe("items[0].credit_cents");
		const claims = (await (await api(`/v1/orders/${order.id}/claims`, { key })).json()) as { data: unknown[] };
		expect(claims.data).toEqual([]);
	});

	it("an approve carrying credit_cents, or a reject carrying status, is a 422 invalid_field naming it, and the claim stays submitted", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(2);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const approve = await send("POST", `/v1/ops/claims/${claim.id}/approve`, opsKey, {
			remedy: "refund",
			credit_cents: 1_000_000,
		});
		expect((await expectCode(approve, 422, "validation_error", "invalid_field")).field).toBe("credit_cents");
		const reject = await send("POST", `/v1/ops/claims/${claim.id}/reject`, opsKey, {
			message: "No.",
			status: "approved",
		});
		expect((await expectCode(reject, 422, "validation_error", "invalid_field")).field).toBe("status");
		const after = (await (await api(`/v1/claims/${claim.id}`, { key })).json()) as { status: string };
		expect(after.status).toBe("submitted");
	});
});
