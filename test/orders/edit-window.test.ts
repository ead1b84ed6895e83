import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAdminKey, createKeyWithScopes, expectError, send } from "../helpers.ts";
import { createOrder, orderBody, partnerWithFile, readOrder } from "./order-helpers.ts";

/** PUT /v1/admin/accounts/{id}/settings with `body`, by `key`. */
function putSettings(key: string, accountId: string, body: unknown): Promise<Response> {
	return send("PUT", `/v1/admin/accounts/${accountId}/settings`, key, body);
}

describe("PUT /v1/admin/accounts/{id}/settings", () => {
	it("sets the edit window and answers the settings now in force", async () => {
		const { partner } = await partnerWithFile();
		const response = await putSettings(await createAdminKey(), partner.account.id, { edit_window_minutes: 30 });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ account_id: partner.account.id, edit_window_minutes: 30 });
	});

	it("refuses a window outside 0 to 1440 minutes, or not whole, with a 422 naming the field", async () => {
		const { partner } = await partnerWithFile();
		const admin = await createAdminKey();
		for (const minutes of [-1, 1441, 2.5, "30", null]) {
			await expectError(
				await putSettings(admin, partner.account.id, { edit_window_minutes: minutes }),
				"validation_error",
				"edit_window_minutes",
			);
		}
	});

	it("refuses any other field with a 422", async () => {
		const { partner } = await partnerWithFile();
		const response = await putSettings(await createAdminKey(), partner.account.id, {
			edit_window_minutes: 5,
			status: "x",
		});
		expect(response.status).toBe(422);
	});

	it("answers 404 for an unknown account", async () => {
		await expectError(
			await putSettings(await createAdminKey(), "acct_nope", { edit_window_minutes: 10 }),
			"not_found",
			"id",
		);
	});

	it("refuses a partner key or an ops key with 403", async () => {
		const { partner, key } = await partnerWithFile();
		await expectError(await putSettings(key, partner.account.id, { edit_window_minutes: 10 }), "forbidden");
		const ops = await createKeyWithScopes(["ops"]);
		await expectError(await putSettings(ops, partner.account.id, { edit_window_minutes: 10 }), "forbidden");
	});
});

describe("editable_until on the order", () => {
	it("is null when the account has no edit window", async () => {
		const { key, file } = await partnerWithFile();
		const order = await createOrder(key, orderBody(file));
		expect(order.editable_until).toBeNull();
	});

	it("is created_at plus the window, at once for the account's next order", async () => {
		const { partner, key, file } = await partnerWithFile();
		await putSettings(await createAdminKey(), partner.account.id, { edit_window_minutes: 45 });
		const order = await createOrder(key, orderBody(file));
		expect(order.editable_until).toBe(new Date(Date.parse(order.created_at) + 45 * 60_000).toISOString());
		expect((await readOrder(key, order.id)).editable_until).toBe(order.editable_until);
	});

	it("stays as it was when the account's window changes later", async () => {
		const { partner, key, file } = await partnerWithFile();
		const admin = await createAdminKey();
		await putSettings(admin, partner.account.id, { edit_window_minutes: 10 });
		const order = await createOrder(key, orderBody(file));
		await putSettings(admin, partner.account.id, { edit_window_minutes: 0 });
		expect((await readOrder(key, order.id)).editable_until).toBe(order.editable_until);
		const later = await createOrder(key, orderBody(file));
		expect(later.editable_until).toBeNull();
		const stored = await env.DB.prepare("SELECT edit_window_minutes FROM accounts WHERE id = ?1")
			.bind(partner.account.id)
			.first<{ edit_window_minutes: number }>();
		expect(stored?.edit_window_minutes).toBe(0);
	});
});
