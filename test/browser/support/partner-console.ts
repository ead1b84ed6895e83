/**
 * The partner console in Chromium: a user of any role invited through the admin route (as the service
 * team does), their password set from the link and signed in; the accessibility check every page of
 * it passes (axe-core, no serious or critical violation); and the two widths every page is seen at.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { type ChromiumSession, launchChromium } from "../../../scripts/lib/chromium.ts";
import type { PartnerRole } from "../../../src/partner-users/users.ts";
import type { LocalService } from "./local-service.ts";
import { callApi } from "./partner-api.ts";
import { keepScreenshot } from "./screenshots.ts";

/** A phone and a desktop, in CSS pixels. */
export const PARTNER_WIDTHS = [390, 1440] as const;
export const CONSOLE_PASSWORD = "a lighthouse keeper's log";

/** Invites a user of `role` to the account through the admin route: their email and the invitation link. */
export async function invitePartnerUser(
	service: LocalService,
	accountId: string,
	role: PartnerRole,
): Promise<{ email: string; invitationUrl: string }> {
	const email = `${role}.${crypto.randomUUID().slice(0, 8)}@partner.example`;
	const invited = await callApi<{ invitation_url: string }>(
		service.origin,
		service.adminKey,
		"POST",
		`/v1/admin/accounts/${accountId}/users`,
		{ email, name: `A ${role}`, role },
	);
	return { email, invitationUrl: invited.invitation_url };
}

/** Follows the invitation link in the page, sets the password, and signs in: the page ends on the console's home. */
export async function acceptAndSignIn(page: Page, origin: string, email: string, invitationUrl: string): Promise<void> {
	await page.goto(invitationUrl);
	await page.getByLabel("New password").fill(CONSOLE_PASSWORD);
	await page.getByLabel("The same password again").fill(CONSOLE_PASSWORD);
	await page.getByRole("button", { name: "Set password" }).click();
	await page.waitForURL(`${origin}/partner/sign-in?password=set`);
	await page.getByLabel("Email").fill(email);
	await page.getByLabel("Password").fill(CONSOLE_PASSWORD);
	await page.getByRole("button", { name: "Sign in" }).click();
	await page.waitForURL(`${origin}/partner`);
}

/** A fresh Chromium at `width`, with a user of `role` of the account signed in to the console. */
export async function signedInPartnerPage(
	service: LocalService,
	accountId: string,
	role: PartnerRole,
	width: number,
): Promise<{ chromium: ChromiumSession; page: Page; email: string }> {
	const { email, invitationUrl } = await invitePartnerUser(service, accountId, role);
	const chromium = await launchChromium({ width, height: 900 });
	try {
		const page = await chromium.context.newPage();
		await acceptAndSignIn(page, service.origin, email, invitationUrl);
		return { chromium, page, email };
	} catch (error) {
		await chromium.close();
		throw error;
	}
}

/** axe-core's WCAG 2.x A and AA rules on the page as it is: no serious or critical violation (the failure lists them). */
export async function expectAccessible(page: Page): Promise<void> {
	const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
	const grave = results.violations
		.filter((violation) => violation.impact === "serious" || violation.impact === "critical")
		.map(
			(violation) =>
				`${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
		);
	expect(grave, `axe-core on ${page.url()}`).toEqual([]);
}

/** The page's HTML and CSS as served are under 100 kB (the console's budget for a slow connection). */
export async function expectUnderPageBudget(page: Page): Promise<void> {
	const bytes = new TextEncoder().encode(await page.content()).length;
	expect(bytes, `bytes of ${page.url()}`).toBeLessThan(100_000);
}

/** The page passes axe-core, is under the budget and does not scroll sideways at `width`; kept as `screenshot` when the run keeps them. */
export async function expectGoodPage(page: Page, width: number, screenshot?: string): Promise<void> {
	await expectAccessible(page);
	await expectUnderPageBudget(page);
	expect(await page.locator("html").evaluate((root) => root.scrollWidth), page.url()).toBeLessThanOrEqual(width);
	if (screenshot !== undefined)
		await keepScreenshot(screenshot, await page.screenshot({ type: "png", fullPage: true }));
}
