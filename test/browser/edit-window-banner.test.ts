/**
 * The floor's order page of an order still in its edit window, in Debian's Chromium against a real
 * `wrangler dev`, on a phone (390 px) and a desktop (1,440 px): the amber banner says when the floor
 * may start the order, inside the screen, and the queue does not list it.
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

const SHIP_TO = {
	name: "Dorothea Lange",
	address1: "3 Mill Lane",
	city: "Portland",
	state: "ME",
	zip: "04101",
	country: "US",
};
const WIDTHS = [390, 1440] as const;
/** Where a run that sets EDIT_WINDOW_SCREENSHOTS keeps this file's screenshots, for a person to look at. */
const LOOK_DIR = process.env.EDIT_WINDOW_SCREENSHOTS;

let service: LocalService | undefined;
let chromium: ChromiumSession | undefined;
let page: Page;
let editable: Order & { editable_until?: string | null };

function origin(): string {
	if (service === undefined) throw new Error("the local service did not start");
	return service.origin;
}

async function look(name: string): Promise<void> {
	if (LOOK_DIR === undefined || LOOK_DIR === "") return;
	await mkdir(LOOK_DIR, { recursive: true });
	await writeFile(`${LOOK_DIR}/${name}`, await page.screenshot({ type: "png" }));
}

beforeAll(async () => {
	service = await startLocalService("Edit window");
	const partner = await createPartner(service, "Lange Editions");
	await callApi(service.origin, service.adminKey, "PUT", `/v1/admin/accounts/${partner.account.id}/settings`, {
		edit_window_minutes: 90,
	});
	const key = partner.keys.live.key;
	const file = await uploadPrintFile(service.origin, key);
	const created = await createOrder(service.origin, key, {
		externalId: "DL-0907",
		printFileId: file,
		shipTo: SHIP_TO,
		items: [{ widthIn: 8, heightIn: 10, frame: "gallery-black-125", mat: "bright-white" }],
	});
	editable = await waitForOrderStatus(service.origin, key, created.id, "in_production");
	const opsKey = await issueOpsKey(service);
	({ chromium, page } = await signedInFloorPage(service, opsKey, { width: 1440, height: 900 }));
});

afterAll(() => closeAll(chromium, service));

describe.each(WIDTHS)("an order in its edit window at %i px wide", (width) => {
	it("the order page says the order is not to be started before the window's end, inside the screen", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders/${editable.id}`);
		const until = new Date(editable.editable_until ?? "").toISOString();
		const banner = page.getByTestId("edit-window");
		expect(await banner.getByRole("heading").textContent()).toBe(
			`Not to be started before ${until.slice(0, 10)} ${until.slice(11, 16)} UTC`,
		);
		const box = await banner.boundingBox();
		expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY) <= width).toBe(true);
		expect(await page.locator("html").evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(width);
		await look(`order-page-${width}.png`);
	});

	it("the queue does not list it", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders?q=DL-0907`);
		expect(await page.locator(`tr[data-order-id="${editable.id}"]`).count()).toBe(0);
	});
});
