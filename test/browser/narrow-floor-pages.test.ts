/**
 * The floor's pages on a phone (390 px) and a desktop (1,440 px), in Debian's Chromium against a real
 * `wrangler dev`: the order page with a history of long notes, the work ticket and the packing slip
 * of an order with address warnings, and a cancel's confirmation step. Nothing runs off the side of
 * the screen (the page is never wider than the window), and the address warnings are shown.
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
	issueOpsKey,
	type Order,
	uploadPrintFile,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { keepScreenshot } from "./support/screenshots.ts";

/** A first line longer than a label prints, and a ZIP code of California in Maine: two address warnings. */
const WARNED_SHIP_TO = {
	name: "Dorothea Lange",
	address1: "1234 Extraordinarily Long Boulevard Northeast",
	address2: "Building C, Loading Dock 4, Attention Receiving",
	city: "Portland",
	state: "ME",
	zip: "90210",
	country: "US",
};
const WIDTHS = [390, 1440] as const;
/** Where a run that sets NARROW_SCREENSHOTS keeps this file's screenshots, for a person to look at. */
const LOOK_DIR = process.env.NARROW_SCREENSHOTS;
/** A hold message as an operator types one: long, with a long unbroken reference in it. */
const HOLD_MESSAGE =
	"The print file shows banding in the sky; please upload a new export from the original at full size (ref PRINTFILE-BANDING-2026-11-27-HARBOUR-AT-DUSK-FINAL-V3).";
const TRACKING = {
	carrier: "USPS",
	number: "9400111899223100012345678901",
	url: "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223100012345678901",
};

let service: LocalService | undefined;
let chromium: ChromiumSession | undefined;
let page: Page;
let shipped: Order;
let toCancel: Order;

function origin(): string {
	if (service === undefined) throw new Error("the local service did not start");
	return service.origin;
}

async function look(name: string): Promise<void> {
	if (LOOK_DIR === undefined || LOOK_DIR === "") return;
	await mkdir(LOOK_DIR, { recursive: true });
	await writeFile(`${LOOK_DIR}/${name}`, await page.screenshot({ type: "png", fullPage: true }));
	const history = page.getByRole("region", { name: "History" });
	if ((await history.count()) === 1) await writeFile(`${LOOK_DIR}/history-${name}`, await history.screenshot());
}

/**
 * How far the page, or a table inside its scrolling wrapper, runs past its edge, in CSS pixels (0 or
 * less when everything fits): a table that only fits by scrolling sideways spills too.
 */
async function overflow(): Promise<number> {
	const windowWidth = page.viewportSize()?.width ?? 0;
	const pageWidth = await page.locator("html").evaluate((root: { scrollWidth: number }) => root.scrollWidth);
	const tables = await page
		.locator(".table-wrap")
		.evaluateAll((wraps: { scrollWidth: number; clientWidth: number }[]) =>
			wraps.map((wrap) => wrap.scrollWidth - wrap.clientWidth),
		);
	return Math.max(pageWidth - windowWidth, ...tables);
}

beforeAll(async () => {
	service = await startLocalService("Narrow floor pages");
	const partner = await createPartner(service, "Lange Editions");
	const key = partner.keys.live.key;
	const file = await uploadPrintFile(service.origin, key);
	const items = [
		{ widthIn: 16, heightIn: 20, frame: "gallery-black-125", mat: "bright-white", quantity: 2 },
		{ widthIn: 8, heightIn: 10, frame: "gallery-black-125" },
	];
	const created = await createOrder(service.origin, key, {
		externalId: "DL-1936-MIGRANT-MOTHER-NIPOMO-CALIFORNIA-EDITION-OF-TWELVE-PROOF-A",
		printFileId: file,
		shipTo: WARNED_SHIP_TO,
		items,
	});
	await waitForOrderStatus(service.origin, key, created.id, "in_production");
	const opsKey = await issueOpsKey(service);
	// A history with long notes: a hold, its release, and a shipment with a long tracking number.
	await callApi(service.origin, opsKey, "POST", `/v1/ops/orders/${created.id}/hold`, { message: HOLD_MESSAGE });
	await callApi(service.origin, opsKey, "POST", `/v1/ops/orders/${created.id}/release`, {});
	await waitForOrderStatus(service.origin, key, created.id, "in_production");
	await callApi(service.origin, opsKey, "POST", `/v1/ops/orders/${created.id}/ship`, TRACKING);
	shipped = await waitForOrderStatus(service.origin, key, created.id, "shipped");
	const second = await createOrder(service.origin, key, {
		externalId: "DL-1937",
		printFileId: file,
		shipTo: {
			name: "Dorothea Lange",
			address1: "3 Mill Lane",
			city: "Portland",
			state: "ME",
			zip: "04101",
			country: "US",
		},
		items: [{ widthIn: 8, heightIn: 10, frame: "gallery-black-125", mat: "bright-white" }],
	});
	toCancel = await waitForOrderStatus(service.origin, key, second.id, "in_production");
	({ chromium, page } = await signedInFloorPage(service, opsKey, { width: 1440, height: 900 }));
}, 240_000);

afterAll(() => closeAll(chromium, service));

describe.each(WIDTHS)("the floor's pages at %i px wide", (width) => {
	it("the order page, its history of long notes and its address warnings fit the screen", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders/${shipped.id}`);
		expect(await page.getByTestId("address-warnings").textContent()).toContain("ZIP code of another state");
		const history = page.getByRole("region", { name: "History" });
		expect(await history.textContent()).toContain(TRACKING.number);
		await look(`order-page-${width}.png`);
		expect(await overflow()).toBeLessThanOrEqual(0);
		if (width === 390) {
			await keepScreenshot("ops-order-history-narrow.png", await page.screenshot({ type: "png", fullPage: true }));
		}
	});

	it("the work ticket fits the screen and shows the address warnings", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders/${shipped.id}/work-ticket`);
		expect(await page.getByTestId("address-warnings").first().textContent()).toContain("Check the address");
		await look(`work-ticket-${width}.png`);
		expect(await overflow()).toBeLessThanOrEqual(0);
	});

	it("the packing slip fits the screen and shows the packer the address warnings on screen", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders/${shipped.id}/packing-slip`);
		expect(await page.getByTestId("address-warnings").isVisible()).toBe(true);
		await look(`packing-slip-${width}.png`);
		expect(await overflow()).toBeLessThanOrEqual(0);
	});

	it("a cancel asks to confirm, with the reason, inside the screen; keeping the order changes nothing", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders/${toCancel.id}`);
		const moves = page.getByRole("region", { name: "Moves" });
		await moves.getByLabel("Reason").fill("The buyer asked to cancel by phone");
		await moves.getByRole("button", { name: "Cancel order…" }).click();
		const confirm = page.getByTestId("confirm-cancel");
		expect(await confirm.textContent()).toContain("The buyer asked to cancel by phone");
		// The confirmation is in view, not above the window where the page was scrolled to the form.
		const box = await confirm.getByRole("button", { name: "Yes, cancel the order" }).boundingBox();
		expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
		expect((box?.y ?? 900) + (box?.height ?? 0)).toBeLessThanOrEqual(900);
		expect(await overflow()).toBeLessThanOrEqual(0);
		// The window as the operator sees it, before the full-page look (which moves the scroll).
		if (width === 390) await keepScreenshot("ops-cancel-confirm-narrow.png", await page.screenshot({ type: "png" }));
		await look(`cancel-confirm-${width}.png`);
		await confirm.getByRole("link", { name: "No, keep the order" }).click();
		expect(await page.getByTestId("order-status").textContent()).toBe("In production");
	});
});

describe("the packing slip on paper", () => {
	it("does not print the address warnings: the slip is the buyer's", async () => {
		await page.goto(`${origin()}/ops/orders/${shipped.id}/packing-slip`);
		await page.emulateMedia({ media: "print" });
		expect(await page.getByTestId("address-warnings").isVisible()).toBe(false);
		await page.emulateMedia({ media: "screen" });
	});
});
