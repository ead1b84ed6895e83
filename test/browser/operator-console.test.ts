/**
 * The operator console (/ops) in Debian's Chromium against a real `wrangler dev`: an operator signs
 * in with an ops key, finds an order in the production queue, ships it with tracking, and the
 * partner's webhook receiver gets the signed `order.shipped`; then the order's packing slip, signing
 * out, and a partner's key refused at sign-in. The tests run in order, as one operator's shift.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChromiumSession, launchChromium } from "../../scripts/lib/chromium.ts";
import type { NewAccount } from "../../src/admin/provisioning.ts";
import { type LocalService, startLocalService } from "./support/local-service.ts";
import {
	BRAND,
	callApi,
	createOrder,
	createPartner,
	issueOpsKey,
	type Order,
	SERVICE_NAME,
	type ShipTo,
	setUpBrandedPartner,
	type Tracking,
	uploadPrintFile,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { readPdf } from "./support/rendered-output.ts";
import { keepScreenshot } from "./support/screenshots.ts";
import { isSignedWith, type SignedWebhookReceiver, startSignedWebhookReceiver } from "./support/signed-webhooks.ts";

const VIEWPORT = { width: 1280, height: 800 };
const SESSION_COOKIE = "__Host-ops_session";
const GIFT_MESSAGE = "For the new flat. Love, Mum";
const TRACKING: Tracking = {
	carrier: "UPS",
	number: "1Z999AA10123456784",
	url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
};

function shipTo(name: string, city: string): ShipTo {
	return { name, address1: "12 Harbour Street", city, state: "ME", zip: "04101", country: "US" };
}

let service: LocalService | undefined;
let chromium: ChromiumSession | undefined;
let receiver: SignedWebhookReceiver | undefined;
let page: Page;
let partner: NewAccount;
let opsKey = "";
/** The order the operator ships. */
let order: Order;

function origin(): string {
	if (service === undefined) throw new Error("the local service did not start");
	return service.origin;
}

async function signIn(key: string): Promise<void> {
	await page.goto(`${origin()}/ops/sign-in`);
	await page.getByLabel("API key").fill(key);
	await page.getByRole("button", { name: "Sign in" }).click();
	await page.waitForLoadState();
}

/**
 * The queue as the screenshot in docs/operator-console.md shows it: two partners' orders in production, one on hold
 * (a frame the catalog does not have), one shipped and one delivered.
 */
async function fillTheQueue(printFileId: string, callbackUrl: string): Promise<void> {
	if (service === undefined) throw new Error("the local service did not start");
	const other = await createPartner(service, "Northlight Photo Co.");
	const otherFile = await uploadPrintFile(origin(), other.keys.live.key);
	const put = (
		key: string,
		file: string,
		externalId: string,
		customer: ShipTo,
		frame: string,
		extra: { giftMessage?: string; callbackUrl?: string } = {},
	) =>
		createOrder(origin(), key, {
			externalId,
			printFileId: file,
			shipTo: customer,
			items: [{ widthIn: 8, heightIn: 10, frame, mat: "bright-white" }],
			...extra,
		});
	const ours = partner.keys.live.key;
	const theirs = other.keys.live.key;
	const created = [
		{
			key: ours,
			order: await put(ours, printFileId, "HMS-1040", shipTo("Mary Anning", "Lyme Regis"), "gallery-black-125"),
		},
		{
			key: theirs,
			order: await put(theirs, otherFile, "NL-77812", shipTo("Ansel Adams", "Carmel"), "black-metal-050"),
		},
		{
			key: ours,
			order: await put(ours, printFileId, "HMS-1041", shipTo("Ada Lovelace", "Portland"), "walnut-flat-075", {
				giftMessage: GIFT_MESSAGE,
				callbackUrl,
			}),
		},
		{
			key: ours,
			order: await put(ours, printFileId, "HMS-1042", shipTo("Grace Hopper", "Arlington"), "white-oak-flat-075"),
		},
		{
			key: theirs,
			order: await put(theirs, otherFile, "NL-77815", shipTo("Dorothea Lange", "Berkeley"), "no-such-frame"),
		},
		{
			key: ours,
			order: await put(ours, printFileId, "HMS-1043", shipTo("Katherine Johnson", "Hampton"), "maple-flat-125"),
		},
		{
			key: theirs,
			order: await put(theirs, otherFile, "NL-77819", shipTo("Vivian Maier", "Chicago"), "silver-metal-075"),
		},
	];
	const settled = await Promise.all(
		created.map(({ key, order: each }) =>
			waitForOrderStatus(origin(), key, each.id, each.external_id === "NL-77815" ? "on_hold" : "in_production"),
		),
	);
	const [shippedEarlier, deliveredEarlier, toShip] = settled;
	if (shippedEarlier === undefined || deliveredEarlier === undefined || toShip === undefined) {
		throw new Error("the orders were not created");
	}
	for (const earlier of [shippedEarlier, deliveredEarlier]) {
		await callApi(origin(), opsKey, "POST", `/v1/ops/orders/${earlier.id}/ship`, {
			carrier: "USPS",
			number: "9400111899223100012345",
			url: "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223100012345",
		});
	}
	await callApi(origin(), opsKey, "POST", `/v1/ops/orders/${deliveredEarlier.id}/deliver`);
	order = toShip;
}

beforeAll(async () => {
	service = await startLocalService("Operator console");
	receiver = await startSignedWebhookReceiver();
	const setUp = await setUpBrandedPartner(service, "Harbour Museum Store");
	partner = setUp.partner;
	opsKey = await issueOpsKey(service);
	await fillTheQueue(setUp.printFileId, receiver.url);
	chromium = await launchChromium(VIEWPORT);
	page = await chromium.context.newPage();
});

afterAll(async () => {
	try {
		await chromium?.close();
		await receiver?.close();
	} finally {
		await service?.stop();
	}
});

describe("operator console in Chromium", () => {
	it("a partner's key cannot sign in: the sign-in page says why and no session cookie is set", async () => {
		await signIn(partner.keys.live.key);
		expect(new URL(page.url()).pathname).toBe("/ops/sign-in");
		expect(await page.getByRole("alert").textContent()).toContain(
			"the console is for operations keys (scope ops) only",
		);
		expect((await chromium?.context.cookies())?.map((cookie) => cookie.name)).not.toContain(SESSION_COOKIE);
	});

	it("an ops key signs in to the production queue, with a __Host- session cookie that is HttpOnly, Secure and SameSite=Strict", async () => {
		await signIn(opsKey);
		expect(new URL(page.url()).pathname).toBe("/ops/orders");
		expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Production queue");
		// Chromium keeps a Secure cookie set over plain http from 127.0.0.1: loopback counts as a secure context.
		const cookie = (await chromium?.context.cookies())?.find((candidate) => candidate.name === SESSION_COOKIE);
		expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: "Strict", path: "/" });
	});

	it("the queue counts orders by status and lists the order; its external id opens the order page", async () => {
		for (const filter of ["All (7)", "In production (4)", "On hold (1)", "Shipped (1)", "Delivered (1)"]) {
			expect(await page.getByRole("link", { name: filter }).count(), filter).toBe(1);
		}
		const row = page.locator(`tr[data-order-id="${order.id}"]`);
		expect(await row.textContent()).toContain("Harbour Museum Store");
		await keepScreenshot("ops-queue.png", await page.screenshot({ type: "png" }));

		await row.getByRole("link", { name: order.external_id }).click();
		await page.waitForURL(`${origin()}/ops/orders/${order.id}`);
		expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain(order.external_id);
		expect(await page.getByTestId("order-status").textContent()).toBe("In production");
	});

	it("Mark shipped with carrier, tracking number and URL ships the order: the page says so and shows the tracking", async () => {
		// The Moves panel's ship form: the Shipments panel has a label form of its own, for some units.
		const moves = page.getByRole("region", { name: "Moves" });
		await moves.getByLabel("Carrier").fill(TRACKING.carrier);
		await moves.getByLabel("Tracking number").fill(TRACKING.number);
		await moves.getByLabel("Tracking URL").fill(TRACKING.url);
		await moves.getByRole("button", { name: "Mark shipped" }).click();
		await page.waitForURL(`${origin()}/ops/orders/${order.id}?done=ship`);
		expect(await page.getByRole("status").textContent()).toBe("Order shipped.");
		expect(await page.getByTestId("order-status").textContent()).toBe("Shipped");
		const tracking = page.getByRole("region", { name: "Tracking" });
		expect(await tracking.textContent()).toContain(TRACKING.number);
		expect(await tracking.getByRole("link").getAttribute("href")).toBe(TRACKING.url);
		await keepScreenshot("ops-order.png", await page.screenshot({ type: "png", fullPage: true }));
		// The partner sees the same through the API.
		const seen = await callApi<Order>(origin(), partner.keys.live.key, "GET", `/v1/orders/${order.id}`);
		expect(seen).toMatchObject({ status: "shipped", tracking: TRACKING });
	});

	it("the partner's webhook receiver gets order.shipped with that tracking, signed with the partner's secret", async () => {
		if (receiver === undefined) throw new Error("no receiver");
		const delivery = await receiver.waitFor("order.shipped", order.id);
		expect(delivery.event).toMatchObject({
			event: "order.shipped",
			order_id: order.id,
			external_id: order.external_id,
			status: "shipped",
			tracking: TRACKING,
		});
		expect(await isSignedWith(delivery, partner.webhook_secret)).toBe(true);
		expect(await isSignedWith(delivery, "whsec_not_the_partners_secret")).toBe(false);
	});

	it("the order's Packing slip link opens the partner-branded slip, which prints to PDF without the service's name", async () => {
		await page.getByRole("link", { name: "Packing slip" }).click();
		await page.waitForURL(`${origin()}/ops/orders/${order.id}/packing-slip`);
		const pdf = await readPdf(await page.pdf({ format: "Letter", printBackground: true }));
		expect(pdf.text).toContain(BRAND.brand_name);
		expect(pdf.text).toContain(GIFT_MESSAGE);
		expect(pdf.text).toContain("Ada Lovelace");
		expect(pdf.text).toContain("Walnut Flat 3/4 in");
		expect(pdf.text).not.toMatch(SERVICE_NAME);
		await page.goBack();
	});

	it("Sign out ends the session: the queue then redirects to sign-in, even when the old cookie is put back", async () => {
		const context = chromium?.context;
		if (context === undefined) throw new Error("no browser");
		const before = (await context.cookies()).find((cookie) => cookie.name === SESSION_COOKIE);
		expect(before).toBeDefined();

		await page.getByRole("button", { name: "Sign out" }).click();
		await page.waitForURL(`${origin()}/ops/sign-in`);
		expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain(SESSION_COOKIE);
		await page.goto(`${origin()}/ops/orders`);
		expect(new URL(page.url()).pathname).toBe("/ops/sign-in");

		// The session is gone on the server, not only from the browser: the old cookie no longer works.
		if (before !== undefined) await context.addCookies([before]);
		await page.goto(`${origin()}/ops/orders`);
		expect(new URL(page.url()).pathname).toBe("/ops/sign-in");
		expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sign in");
	});
});
