/**
 * The partner console's front door in Debian's Chromium against a real `wrangler dev`, on a phone
 * (390 px) and a desktop (1,440 px): an invitation link sets the password, sign-in opens the home
 * page, the sections a role may open are in the top bar, the test switch marks test pages; every page
 * passes axe-core and fits the screen.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../scripts/lib/chromium.ts";
import { type LocalService, startLocalService } from "./support/local-service.ts";
import { createPartner } from "./support/partner-api.ts";
import {
	acceptAndSignIn,
	expectAccessible,
	expectUnderPageBudget,
	invitePartnerUser,
	PARTNER_WIDTHS,
} from "./support/partner-console.ts";
import { keepScreenshot } from "./support/screenshots.ts";

let service: LocalService | undefined;
let accountId = "";

function running(): LocalService {
	if (service === undefined) throw new Error("the local service did not start");
	return service;
}

beforeAll(async () => {
	service = await startLocalService("Partner sign-in");
	accountId = (await createPartner(service, "Harbour Museum Store")).account.id;
}, 120_000);

afterAll(async () => {
	await service?.stop();
});

describe.each(PARTNER_WIDTHS)("the partner console's front door at %i px", (width) => {
	it("an invited support user sets a password, signs in, sees their sections only and the marked test data", async () => {
		const chromium = await launchChromium({ width, height: 900 });
		try {
			const page = await chromium.context.newPage();
			const { email, invitationUrl } = await invitePartnerUser(running(), accountId, "support");
			await page.goto(invitationUrl);
			await expectAccessible(page);
			await keepScreenshot(`partner-invitation-${width}.png`, await page.screenshot({ type: "png", fullPage: true }));
			await acceptAndSignIn(page, running().origin, email, invitationUrl);
			expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Harbour Museum Store");
			const sections = page.getByRole("navigation", { name: "Sections" });
			expect(await sections.getByRole("link").allTextContents()).toEqual([
				"Home",
				"Orders",
				"Place orders",
				"Claims",
				"Brand",
			]);
			await expectAccessible(page);
			await expectUnderPageBudget(page);
			expect(await page.locator("html").evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(width);
			await page.getByRole("link", { name: "Test data" }).click();
			expect(await page.getByRole("note").textContent()).toBe(
				"Test data: nothing on these pages is a real order or charge.",
			);
			await expectAccessible(page);
			await keepScreenshot(`partner-home-test-${width}.png`, await page.screenshot({ type: "png", fullPage: true }));
			await page.getByRole("button", { name: "Sign out", exact: true }).click();
			await page.waitForURL(`${running().origin}/partner/sign-in`);
			await expectAccessible(page);
		} finally {
			await chromium.close();
		}
	});
});
