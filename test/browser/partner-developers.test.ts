/**
 * The partner console's developers' corner in Debian's Chromium against a real `wrangler dev`, on a
 * phone (390 px) and a desktop (1,440 px): an owner resends a webhook its receiver failed (a loopback
 * receiver that answers 500 once, then 200), and creates and revokes an API key, which the API then
 * refuses. Every page passes axe-core, stays under the page budget and fits the screen.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NewAccount } from "../../src/admin/provisioning.ts";
import { type LocalService, startLocalService } from "./support/local-service.ts";
import {
	createOrder,
	createPartner,
	type ShipTo,
	until,
	uploadPrintFile,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { expectGoodPage, PARTNER_WIDTHS, signedInPartnerPage } from "./support/partner-console.ts";
import { keepScreenshot } from "./support/screenshots.ts";
import { startSignedWebhookReceiver } from "./support/signed-webhooks.ts";

const SHIP_TO: ShipTo = {
	name: "Ines Duarte",
	address1: "Rua das Flores 12",
	city: "Porto",
	state: "PT",
	zip: "4050-262",
	country: "PT",
};

let service: LocalService | undefined;

function running(): LocalService {
	if (service === undefined) throw new Error("the local service did not start");
	return service;
}

beforeAll(async () => {
	service = await startLocalService("Partner developers");
}, 300_000);

afterAll(async () => {
	await service?.stop();
});

describe.each(PARTNER_WIDTHS)("the developers' corner at %i px", (width) => {
	it("an owner resends a webhook its receiver failed, and it is delivered", async () => {
		const origin = running().origin;
		const partner: NewAccount = await createPartner(running(), `Harbour Prints ${width}`);
		const receiver = await startSignedWebhookReceiver({ failFirst: 1 });
		const { chromium, page } = await signedInPartnerPage(running(), partner.account.id, "owner", width);
		try {
			await page.goto(`${origin}/partner/developers/webhooks`);
			await expectGoodPage(page, width);
			await page.getByLabel("URL").fill(receiver.url);
			await page.getByLabel("Note (optional)").fill("Shop fulfilment service");
			for (const box of await page.getByRole("checkbox").all()) {
				if ((await box.getAttribute("value")) !== "order.in_production") await box.uncheck();
			}
			await page.getByRole("button", { name: "Add endpoint" }).click();
			await page.waitForURL(`${origin}/partner/developers/webhooks?done=added`);
			expect(await page.getByRole("status").textContent()).toContain("The endpoint is added");
			await expectGoodPage(page, width);
			await keepScreenshot(
				`partner-developers-webhooks-${width}.png`,
				await page.screenshot({ type: "png", fullPage: true }),
			);

			const key = partner.keys.live.key;
			const order = await createOrder(origin, key, {
				externalId: `DEV-${width}-${crypto.randomUUID().slice(0, 6)}`,
				printFileId: await uploadPrintFile(origin, key),
				shipTo: SHIP_TO,
				items: [{ widthIn: 8, heightIn: 10, frame: "gallery-black-075" }],
			});
			await waitForOrderStatus(origin, key, order.id, "in_production");
			const failed = await receiver.waitFor("order.in_production", order.id);

			await page.goto(`${origin}/partner/developers/events`);
			const event = page.getByRole("region", { name: /^order\.in_production/ }).first();
			await until("the failed attempt in the log", async () => {
				await page.reload();
				return (await event.textContent())?.includes("Status 500") === true ? true : null;
			});
			expect(await event.textContent()).toContain("receiver down for maintenance");
			await expectGoodPage(page, width);
			await keepScreenshot(
				`partner-developers-events-failed-${width}.png`,
				await page.screenshot({ type: "png", fullPage: true }),
			);

			await event.getByRole("button", { name: /^Resend/ }).click();
			await page.waitForURL(`${origin}/partner/developers/events?done=resent`);
			await until("the resent event at the receiver", async () =>
				receiver.deliveries.filter((delivery) => delivery.event.id === failed.event.id).length >= 2 ? true : null,
			);
			await until("the delivery shown as delivered", async () => {
				await page.reload();
				return (await event.textContent())?.includes("Delivered") === true ? true : null;
			});
			await expectGoodPage(page, width);
			await keepScreenshot(
				`partner-developers-events-resent-${width}.png`,
				await page.screenshot({ type: "png", fullPage: true }),
			);
		} finally {
			await chromium.close();
			await receiver.close();
		}
	}, 180_000);

	it("an owner creates a key, sees it once, and revokes it; the API refuses it at once", async () => {
		const origin = running().origin;
		const partner = await createPartner(running(), `Harbour Keys ${width}`);
		const { chromium, page } = await signedInPartnerPage(running(), partner.account.id, "owner", width);
		try {
			await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Developers" }).click();
			await page.getByRole("link", { name: "Test data" }).click();
			await page.waitForURL(`${origin}/partner/developers?mode=test`);
			await expectGoodPage(page, width);
			await page.getByLabel("Expires").selectOption("90");
			await page.getByRole("button", { name: "Create key" }).click();
			const key = (await page.locator("#issued-key").textContent())?.trim() ?? "";
			expect(key).toMatch(/^fps_test_[0-9A-Za-z]{32}$/);
			await expectGoodPage(page, width);
			await keepScreenshot(
				`partner-developers-key-created-${width}.png`,
				await page.screenshot({ type: "png", fullPage: true }),
			);
			const works = await fetch(`${origin}/v1/orders`, { headers: { Authorization: `Bearer ${key}` } });
			expect(works.status).toBe(200);

			await page.goto(`${origin}/partner/developers?mode=test`);
			expect(await page.content()).not.toContain(key);
			await page.getByRole("link", { name: `Revoke ${key.slice(0, 13)}…` }).click();
			await expectGoodPage(page, width);
			await keepScreenshot(
				`partner-developers-key-revoke-${width}.png`,
				await page.screenshot({ type: "png", fullPage: true }),
			);
			await page.getByRole("button", { name: `Revoke ${key.slice(0, 13)}…` }).click();
			await page.waitForURL(`${origin}/partner/developers?done=revoked&mode=test`);
			expect(await page.getByRole("status").textContent()).toContain("The key is revoked");
			const refused = await fetch(`${origin}/v1/orders`, { headers: { Authorization: `Bearer ${key}` } });
			expect(refused.status).toBe(401);
			await expectGoodPage(page, width);
			await keepScreenshot(
				`partner-developers-keys-${width}.png`,
				await page.screenshot({ type: "png", fullPage: true }),
			);
		} finally {
			await chromium.close();
		}
	}, 120_000);
});
