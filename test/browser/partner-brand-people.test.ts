/**
 * The partner console's brand and people sections in Debian's Chromium against a real `wrangler dev`,
 * on a phone (390 px) and a desktop (1,440 px): an owner saves the brand with a logo and opens the
 * sample packing slip that prints it; then invites a user, sees the link once, and revokes them. Every
 * page passes axe-core, stays under the page budget and fits the screen.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalService, startLocalService } from "./support/local-service.ts";
import { createPartner, gradientPng } from "./support/partner-api.ts";
import { expectGoodPage, PARTNER_WIDTHS, signedInPartnerPage } from "./support/partner-console.ts";
import { keepScreenshot } from "./support/screenshots.ts";

let service: LocalService | undefined;
let accountId = "";

function running(): LocalService {
	if (service === undefined) throw new Error("the local service did not start");
	return service;
}

beforeAll(async () => {
	service = await startLocalService("Partner brand and people");
	accountId = (await createPartner(service, "Harbour Museum Store")).account.id;
}, 120_000);

afterAll(async () => {
	await service?.stop();
});

describe.each(PARTNER_WIDTHS)("the brand and people sections at %i px", (width) => {
	it("an owner saves the brand with a logo and sees it on the sample packing slip", async () => {
		const { chromium, page } = await signedInPartnerPage(running(), accountId, "owner", width);
		try {
			const origin = running().origin;
			await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Brand" }).click();
			await page.waitForURL(`${origin}/partner/brand`);
			await expectGoodPage(page, width);
			await page.getByLabel("Brand name").fill(`Harbour Editions ${width}`);
			await page.getByLabel("Support email").fill("help@harbour.example");
			await page.getByLabel("Packing-slip message").fill("Thank you for visiting the harbour.");
			await page.getByLabel("Name", { exact: true }).fill("Harbour Museum Returns");
			await page.getByLabel("Address", { exact: true }).fill("1 Quay Street");
			await page.getByLabel("City").fill("Portland");
			await page.getByLabel("State or region").fill("ME");
			await page.getByLabel("Postcode").fill("04101");
			await page.getByLabel("Country (two letters, such as US)").fill("US");
			await page
				.getByLabel(/^(Upload a|Replace the) logo$/)
				.setInputFiles({ name: "harbour-logo.png", mimeType: "image/png", buffer: Buffer.from(gradientPng(300, 100)) });
			await page.getByRole("button", { name: /^(Create|Save) the brand profile$/ }).click();
			await page.waitForURL(`${origin}/partner/brand?done=saved`);
			expect(await page.getByRole("status").textContent()).toContain("The brand profile is saved");
			expect(await page.getByText("harbour-logo.png (PNG, 300 × 100 px").count()).toBe(1);
			await expectGoodPage(page, width);
			await keepScreenshot(`partner-brand-${width}.png`, await page.screenshot({ type: "png", fullPage: true }));

			await page.getByRole("link", { name: "See a sample packing slip as a buyer receives it" }).click();
			await page.waitForURL(`${origin}/partner/brand/slip-preview`);
			expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(`Harbour Editions ${width}`);
			const logo = page.getByRole("img", { name: `Harbour Editions ${width}` });
			expect(await logo.count()).toBe(1);
			expect(await page.evaluate<number>("document.querySelector('.brand img').naturalWidth")).toBe(300);
			expect(await page.getByText("Thank you for visiting the harbour.").count()).toBe(1);
			await expectGoodPage(page, width);
			await keepScreenshot(`partner-brand-slip-${width}.png`, await page.screenshot({ type: "png", fullPage: true }));
		} finally {
			await chromium.close();
		}
	});

	it("an owner invites a user, sees the link once, and revokes them with a confirmation", async () => {
		const { chromium, page } = await signedInPartnerPage(running(), accountId, "owner", width);
		try {
			const origin = running().origin;
			await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "People" }).click();
			await page.waitForURL(`${origin}/partner/people`);
			await expectGoodPage(page, width);
			const email = `invitee.${width}@harbour.example`;
			await page.getByLabel("Email").fill(email);
			await page.getByLabel("Name").fill(`Invitee ${width}`);
			await page.getByLabel("Role").selectOption("support");
			await page.getByRole("button", { name: "Invite" }).click();
			await page.waitForURL(`${origin}/partner/people/invite`);
			const link = await page.getByLabel("Invitation link").inputValue();
			expect(link).toMatch(new RegExp(`^${origin}/partner/invitations/[A-Za-z0-9]+$`));
			await expectGoodPage(page, width);
			await keepScreenshot(
				`partner-people-invited-${width}.png`,
				await page.screenshot({ type: "png", fullPage: true }),
			);

			const row = page.getByRole("row").filter({ hasText: email });
			expect(await row.getByText("Invited").count()).toBe(1);
			await row.getByLabel(`Yes, revoke Invitee ${width}`).check();
			await row.getByRole("button", { name: "Revoke" }).click();
			await page.waitForURL(`${origin}/partner/people?done=revoked`);
			expect(await page.getByRole("status").textContent()).toContain("The user is revoked");
			expect(await page.getByRole("row").filter({ hasText: email }).getByText("Revoked").count()).toBeGreaterThan(0);
			await expectGoodPage(page, width);
			await keepScreenshot(`partner-people-${width}.png`, await page.screenshot({ type: "png", fullPage: true }));
			// The link of a revoked user no longer sets a password.
			await page.goto(link);
			await page.getByLabel("New password").fill("a password never used");
			await page.getByLabel("The same password again").fill("a password never used");
			await page.getByRole("button", { name: "Set password" }).click();
			expect(await page.getByRole("alert").textContent()).toContain("not valid any more");
		} finally {
			await chromium.close();
		}
	});
});
