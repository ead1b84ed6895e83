/**
 * The sandbox's controls: a test order and its claims walked through every event type by the partner's
 * test key alone, each move the live one (the same state machine, refusals and signed webhooks).
 */
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { ErrorCode, ErrorType } from "../../src/error-catalog.ts";
import { SENT_EVENT_TYPES } from "../../src/openapi/event-catalog.ts";
import { api, expectError, send } from "../helpers.ts";
import { createOrder, orderBody, settleValidation } from "../orders/order-helpers.ts";
import type { ReceivedRequest } from "../outbound/partner-hosts.ts";
import { waitForReceived } from "../webhooks/webhook-helpers.ts";
import { decideOk, orderOf, sandboxPartner, simulate, simulateOk } from "./sandbox-helpers.ts";

/** The body of a received webhook, verified with the Standard Webhooks package and the test secret. */
function verified(secret: string, request: ReceivedRequest): { event: string; order_id: string } {
	const headers = {
		"webhook-id": request.headers["webhook-id"] ?? "",
		"webhook-timestamp": request.headers["webhook-timestamp"] ?? "",
		"webhook-signature": request.headers["webhook-signature"] ?? "",
	};
	return new Webhook(secret).verify(request.body, headers) as { event: string; order_id: string };
}

/** A refusal of `type` with `code` (and `field`, when it names one). */
async function refused(pending: Promise<Response>, type: ErrorType, code: ErrorCode, field?: string) {
	const error = await expectError(await pending, type, field);
	expect(error.code).toBe(code);
}

describe("sandbox controls", () => {
	it("walks test orders through every event type by the sandbox's controls alone, each webhook signed with the test secret", async () => {
		const { key, secret, hook, file } = await sandboxPartner({ progress: "manual" });

		// A held order: validation's hold, which only the partner's fix clears; then the floor cancels it.
		const held = await createOrder(key, orderBody(file));
		expect((await orderOf(key, held.id)).status).toBe("received");
		const updated = await send("PATCH", `/v1/orders/${held.id}`, key, { shipping_method: "express" });
		expect(updated.status).toBe(200);
		const onHold = await simulateOk(key, held.id, { action: "hold", reason: "file_resolution_too_low" });
		expect(onHold).toMatchObject({ status: "on_hold", hold_reason: "file_resolution_too_low" });
		expect(onHold.hold_details).toEqual([
			{
				item_id: held.items[0]?.id,
				field: "print_file_id",
				code: "file_resolution_too_low",
				message: expect.stringContaining("Simulated by the sandbox"),
			},
		]);
		await refused(simulate(key, held.id, { action: "release" }), "conflict", "hold_needs_partner_fix");
		const canceled = await simulateOk(key, held.id, { action: "cancel" });
		expect(canceled.status).toBe("canceled");

		// A shipped order: validated, held by the floor and released, changed by the partner, started by the
		// floor (which closes changes), shipped in three boxes, one returned.
		const shipped = await createOrder(key, orderBody(file, {}, { quantity: 3 }));
		const itemId = shipped.items[0]?.id ?? "";
		expect((await simulateOk(key, shipped.id, { action: "validate" })).status).toBe("in_production");
		const floorHold = await simulateOk(key, shipped.id, {
			action: "hold",
			reason: "operator_hold",
			message: "Banding in the sky.",
		});
		expect(floorHold.hold_details[0]).toMatchObject({ code: "operator_hold", message: "Banding in the sky." });
		expect((await simulateOk(key, shipped.id, { action: "release" })).status).toBe("validating");
		expect((await settleValidation(key, shipped.id)).status).toBe("in_production");
		const edited = await send("PATCH", `/v1/orders/${shipped.id}`, key, { shipping_method: "express" });
		expect(edited.status).toBe(200);
		const started = await simulateOk(key, shipped.id, { action: "start" });
		expect(started.production_started_at).not.toBeNull();
		await refused(
			send("PATCH", `/v1/orders/${shipped.id}`, key, { shipping_method: "standard" }),
			"conflict",
			"order_not_editable",
		);
		const one = [{ item_id: itemId, quantity: 1 }];
		const boxed = await simulateOk(key, shipped.id, { action: "ship", boxes: [{ items: one }, { items: one }, {}] });
		expect(boxed.status).toBe("shipped");
		expect(boxed.shipments).toHaveLength(3);
		const [first, second, third] = boxed.shipments;
		expect(new Set(boxed.shipments.map((shipment) => shipment.tracking.number)).size).toBe(3);
		await simulateOk(key, shipped.id, { action: "deliver", shipment_id: first?.id });
		const returned = await simulateOk(key, shipped.id, { action: "return", shipment_id: second?.id });
		expect(returned.shipments.find((shipment) => shipment.id === second?.id)?.status).toBe("returned");
		// With a box back at the sender the order stays shipped until the floor records it delivered.
		const lastBox = await simulateOk(key, shipped.id, { action: "deliver", shipment_id: third?.id });
		expect(lastBox.status).toBe("shipped");
		expect((await simulateOk(key, shipped.id, { action: "deliver" })).status).toBe("delivered");

		// Two claims on the delivered units: one approved with a reprint, one rejected.
		const claim = (body: unknown) => send("POST", `/v1/orders/${shipped.id}/claims`, key, body);
		const wrongItem = { reason: "wrong_item", items: one, description: "Another print came in the box." };
		const firstClaim = await claim(wrongItem);
		expect(firstClaim.status).toBe(201);
		const secondClaim = await claim(wrongItem);
		expect(secondClaim.status).toBe(201);
		const approved = await decideOk(key, ((await firstClaim.json()) as { id: string }).id, {
			action: "approve",
			remedy: "reprint",
		});
		expect(approved.status).toBe("approved");
		expect(approved.resolution?.reprint_order_id).toMatch(/^ord_/);
		const rejected = await decideOk(key, ((await secondClaim.json()) as { id: string }).id, {
			action: "reject",
			message: "The photos show the print that was ordered.",
		});
		expect(rejected.status).toBe("rejected");

		// Every event type the service sends reached the test endpoint, each verified with the test secret.
		const requests = await waitForReceived(hook, (got) =>
			SENT_EVENT_TYPES.every((type) => got.some((request) => request.body.includes(`"event":"${type}"`))),
		);
		const types = new Set(requests.map((request) => verified(secret, request).event));
		expect([...types].sort()).toEqual([...SENT_EVENT_TYPES].sort());
		expect(types.size).toBe(12);
	}, 60_000);

	it("leaves a test order received while the account's sandbox progress is manual, and validates it on asking", async () => {
		const { key, file } = await sandboxPartner({ progress: "manual" });
		expect(await (await api("/v1/sandbox/settings", { key })).json()).toEqual({ progress: "manual" });
		const created = await createOrder(key, orderBody(file));
		await settleValidation(key, created.id);
		expect((await orderOf(key, created.id)).status).toBe("received");
		expect((await simulateOk(key, created.id, { action: "validate" })).status).toBe("in_production");
		await refused(simulate(key, created.id, { action: "validate" }), "conflict", "order_move_refused");
	});

	it("refuses a move the order's status does not allow with the same 409 as live", async () => {
		const { key, file } = await sandboxPartner({ progress: "manual" });
		const created = await createOrder(key, orderBody(file));
		await refused(simulate(key, created.id, { action: "ship" }), "conflict", "order_move_refused");
		await refused(simulate(key, created.id, { action: "release" }), "conflict", "order_move_refused");
		await refused(simulate(key, created.id, { action: "deliver" }), "conflict", "order_move_refused");
		await simulateOk(key, created.id, { action: "validate" });
		const validationHold = { action: "hold", reason: "frame_not_found" };
		await refused(simulate(key, created.id, validationHold), "conflict", "order_move_refused");
		await refused(simulate(key, created.id, { action: "return" }), "validation_error", "invalid_field", "shipment_id");
	});

	it("holds an order in production for a changed file, as the floor's check would", async () => {
		const { key, file } = await sandboxPartner({ progress: "manual" });
		const created = await createOrder(key, orderBody(file));
		await simulateOk(key, created.id, { action: "validate" });
		const held = await simulateOk(key, created.id, { action: "hold", reason: "file_unreadable" });
		expect(held).toMatchObject({ status: "on_hold", hold_reason: "file_unreadable" });
	});

	it("refuses a hold naming an item the order does not have, on item_id", async () => {
		const { key, file } = await sandboxPartner({ progress: "manual" });
		const created = await createOrder(key, orderBody(file));
		const body = { action: "hold", reason: "mat_not_found", item_id: "itm_nope" };
		await refused(simulate(key, created.id, body), "validation_error", "invalid_field", "item_id");
	});

	it("refuses an unknown action and a field an action does not take as a 422, a missing reason and a non-object as a 400", async () => {
		const { key, file } = await sandboxPartner({ progress: "manual" });
		const created = await createOrder(key, orderBody(file));
		const cases: Array<[unknown, number]> = [
			[{ action: "teleport" }, 422],
			[{ action: "cancel", tracking: "x" }, 422],
			[{ action: "hold", reason: "bored" }, 422],
			[{ action: "hold" }, 400],
			[[], 400],
		];
		for (const [body, status] of cases) {
			const response = await simulate(key, created.id, body);
			expect([response.status, JSON.stringify(body)]).toEqual([status, JSON.stringify(body)]);
		}
		expect((await orderOf(key, created.id)).status).toBe("received");
	});
});
