/**
 * A claim on the service team's page in Debian's Chromium against a real `wrangler dev`, on a phone
 * (390 px) and a desktop (1,440 px): the photo shows inline (decoded by the browser, from R2 through the
 * console), with the claim, the order and its shipment, and the forms, all inside the screen; once
 * approved with a reprint, the original's order page links to the reprint and the reprint's back.
 */
import { mkdir, writeFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChromiumSession } from "../../scripts/lib/chromium.ts";
import { closeAll, type LocalService, signedInFloorPage, startLocalService } from "./support/local-service.ts";
import {
	callApi,
	createOrder,
	createPartner,
	gradientPng,
	issueOpsKey,
	uploadPng,
	uploadPrintFile,
	waitForOrderStatus,
} from "./support/partner-api.ts";

const WIDTHS = [390, 1440] as const;
/** Where a run that sets CLAIMS_SCREENSHOTS keeps this file's screenshots, for a person to look at. */
const LOOK_DIR = process.env.CLAIMS_SCREENSHOTS;

let service: LocalService | undefined;
let chromium: ChromiumSession | undefined;
let page: Page;
let claimId = "";
let orderId = "";
let opsKeyOf = "";

function origin(): string {
	if (service === undefined) throw new Error("the local service did not start");
	return service.origin;
}

async function look(name: string): Promise<void> {
	if (LOOK_DIR === undefined || LOOK_DIR === "") return;
	await mkdir(LOOK_DIR, { recursive: true });
	await writeFile(`${LOOK_DIR}/${name}`, await page.screenshot({ type: "png", fullPage: true }));
}

beforeAll(async () => {
	service = await startLocalService("Claims");
	const partner = await createPartner(service, "Cameron Prints");
	const key = partner.keys.live.key;
	const file = await uploadPrintFile(service.origin, key);
	const created = await createOrder(service.origin, key, {
		externalId: "CP-7710",
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
	const opsKey = await issueOpsKey(service);
	orderId = order.id;
	opsKeyOf = opsKey;
	const shipment = await callApi<{ id: string }>(
		service.origin,
		opsKey,
		"POST",
		`/v1/ops/orders/${order.id}/shipments`,
		{
			carrier: "UPS",
			number: "1Z999AA10123456784",
		},
	);
	await callApi(service.origin, opsKey, "POST", `/v1/ops/shipments/${shipment.id}/deliver`);
	const photo = await uploadPng(service.origin, key, gradientPng(480, 320), "cracked-glass.png");
	const claim = await callApi<{ id: string }>(service.origin, key, "POST", `/v1/orders/${order.id}/claims`, {
		reason: "damaged_in_transit",
		items: [{ item_id: order.items[0]?.id ?? "", quantity: 1 }],
		description: "The glass arrived cracked across the top left corner; the box was crushed on that side.",
		photo_file_ids: [photo],
	});
	claimId = claim.id;
	({ chromium, page } = await signedInFloorPage(service, opsKey, { width: 1440, height: 900 }));
});

afterAll(() => closeAll(chromium, service));

describe.each(WIDTHS)("a claim on the service team's page at %i px wide", (width) => {
	it("shows the photo decoded inline, the order and its shipment, and the forms, inside the screen", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/claims/${claimId}`);
		const image = page.getByRole("img", { name: /What arrived, 1 of 1/ });
		await image.waitFor();
		expect(await image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(480);
		const text = (await page.locator("main").textContent()) ?? "";
		expect(text).toContain("CP-7710");
		expect(text).toContain("1Z999AA10123456784");
		expect(text).toContain("Damaged in transit");
		expect(await page.getByRole("button", { name: "Approve" }).isVisible()).toBe(true);
		await look(`claim-page-${width}.png`);
		expect(await page.locator("html").evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(width);
	});

	it("the claims list links to it, inside the screen", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/claims`);
		expect(await page.locator(`a[href="/ops/claims/${claimId}"]`).count()).toBe(1);
		expect(await page.locator("html").evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(width);
		await look(`claims-${width}.png`);
	});
});

/** The page's link to `orderId`, which must show, with `label`, on a page inside the screen; screenshot as `shot`. */
async function linkUnder(label: string, orderId: string, shot: string, width: number) {
	const link = page.getByRole("link", { name: orderId });
	expect(await link.isVisible()).toBe(true);
	expect((await page.locator("main").textContent()) ?? "").toContain(label);
	await look(shot);
	expect(await page.locator("html").evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(width);
	return link;
}

describe("an approved claim's reprint and its original on their order pages", () => {
	let reprintId = "";
	beforeAll(async () => {
		const approved = await callApi<{ resolution: { reprint_order_id: string } }>(
			origin(),
			opsKeyOf,
			"POST",
			`/v1/ops/claims/${claimId}/approve`,
			{ remedy: "reprint", message: "A new piece ships this week." },
		);
		reprintId = approved.resolution.reprint_order_id;
	});

	it.each(WIDTHS)(
		"at %i px the original says Reprinted as and the reprint says Reprint of, each a link, inside the screen",
		async (width) => {
			await page.setViewportSize({ width, height: 900 });
			await page.goto(`${origin()}/ops/orders/${orderId}`);
			const toReprint = await linkUnder("Reprinted as", reprintId, `original-order-${width}.png`, width);
			await toReprint.click();
			await page.waitForURL(`${origin()}/ops/orders/${reprintId}`);
			await linkUnder("Reprint of", orderId, `reprint-order-${width}.png`, width);
		},
	);
});
