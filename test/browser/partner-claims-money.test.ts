/**
 * The partner console's claims and money in Debian's Chromium against a real `wrangler dev`, on a phone
 * (390 px) and a desktop (1,440 px): an owner opens the claim form of a delivered order, files a claim
 * with a photo, sees it on its page (the photo decoded inline) and in the list, then opens the month's
 * statement and downloads its CSV. Every page passes axe-core, stays under the page budget and fits
 * the screen.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalService, startLocalService } from "./support/local-service.ts";
import {
	callApi,
	createOrder,
	createPartner,
	gradientPng,
	issueOpsKey,
	uploadPrintFile,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { expectGoodPage, PARTNER_WIDTHS, signedInPartnerPage } from "./support/partner-console.ts";

let service: LocalService | undefined;
let accountId = "";
let orderId = "";
let externalId = "";

function running(): LocalService {
	if (service === undefined) throw new Error("the local service did not start");
	return service;
}

beforeAll(async () => {
	service = await startLocalService("Partner claims and money");
	const partner = await createPartner(service, "Harbour Museum Store");
	accountId = partner.account.id;
	const key = partner.keys.live.key;
	const file = await uploadPrintFile(service.origin, key);
	externalId = "HMS-2210";
	const created = await createOrder(service.origin, key, {
		externalId,
		printFileId: file,
		shipTo: {
			name: "Julia Cameron",
			address1: "9 Dimbola Lane",
			city: "Portland",
			state: "ME",
			zip: "04101",
			country: "US",
		},
		items: [{ widthIn: 8, heightIn: 10, frame: "gallery-black-125", mat: "bright-white", quantity: 2 }],
	});
	const order = await waitForOrderStatus(service.origin, key, created.id, "in_production");
	orderId = order.id;
	// Shipped and delivered through the ops API, as the floor does.
	const opsKey = await issueOpsKey(service);
	const shipment = await callApi<{ id: string }>(
		service.origin,
		opsKey,
		"POST",
		`/v1/ops/orders/${orderId}/shipments`,
		{
			carrier: "UPS",
			number: "1Z999AA10123456784",
		},
	);
	await callApi(service.origin, opsKey, "POST", `/v1/ops/shipments/${shipment.id}/deliver`);
}, 180_000);

afterAll(async () => {
	await service?.stop();
});

describe.each(PARTNER_WIDTHS)("claims and money in the partner console at %i px", (width) => {
	it("an owner files a claim with a photo on a delivered order, follows it, and downloads the month's statement", async () => {
		const { chromium, page } = await signedInPartnerPage(running(), accountId, "owner", width);
		const origin = running().origin;
		try {
			await page.goto(`${origin}/partner/claims/new?order=${orderId}`);
			expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("File a claim");
			await expectGoodPage(page, width, `partner-claims-form-${width}.png`);
			await page.getByLabel(/Damaged in transit/).check();
			await page.getByLabel(/Item 1 of 1/).fill("1");
			await page.getByLabel("What you or your customer saw").fill("The glass arrived cracked across one corner.");
			await page.getByLabel(/Photos of what arrived/).setInputFiles({
				name: "cracked-glass.png",
				mimeType: "image/png",
				buffer: Buffer.from(gradientPng(480, 320)),
			});
			await page.getByRole("button", { name: "File the claim" }).click();
			await page.waitForURL(/\/partner\/claims\/clm_[^/?]+\?done=filed$/);
			const claimPath = new URL(page.url()).pathname;
			expect(await page.getByRole("status").textContent()).toContain("Your claim is filed.");
			const photo = page.getByRole("img", { name: "What arrived, 1 of 1" });
			await photo.waitFor();
			expect(await photo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(480);
			expect((await page.locator("main").textContent()) ?? "").toContain(externalId);
			await expectGoodPage(page, width, `partner-claims-claim-${width}.png`);

			await page.getByRole("link", { name: "Claims", exact: true }).click();
			await page.waitForURL(`${origin}/partner/claims`);
			expect(await page.locator(`a[href="${claimPath}"]`).count()).toBe(1);
			expect((await page.locator("main").textContent()) ?? "").toContain("Waiting for a decision");
			await expectGoodPage(page, width, `partner-claims-list-${width}.png`);

			await page.getByRole("link", { name: "Money", exact: true }).click();
			await page.waitForURL(`${origin}/partner/money`);
			expect((await page.locator("main").textContent()) ?? "").toContain(`Order ${externalId}`);
			await expectGoodPage(page, width, `partner-money-statement-${width}.png`);
			const [download] = await Promise.all([
				page.waitForEvent("download"),
				page.getByRole("link", { name: /Download the CSV of/ }).click(),
			]);
			expect(download.suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}-live\.csv$/);
			const csv = await readFile(await download.path(), "utf8");
			expect(csv.split("\r\n")[0]).toBe(
				"id,at,type,order_id,claim_id,amount_cents,currency,memo,tax_cents,tax_treatment,tax_rate_bp",
			);
			expect(csv).toContain(`Order ${externalId}`);
		} finally {
			await chromium.close();
		}
	});
});
