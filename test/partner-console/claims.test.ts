/**
 * The partner console's claims: the account's claims newest first a page at a time, a claim's page with
 * its photos and decision, and filing a claim with photos on a shipped order through the API's own
 * createClaim (the same rules and refusals, in words). Attacks: another account's or mode's claim or
 * order is a 404 on every page and form, a form without its token or with a forged one is refused,
 * and a viewer cannot file.
 */
import { describe, expect, it } from "vitest";
import type { Claim } from "../../src/claims/schema.ts";
import { damagedBody, deliveredOrder, postClaimOk, shippedOrder } from "../claims/claim-helpers.ts";
import { api, send } from "../helpers.ts";
import { buildTiff } from "../imaging/fixtures/tiff.ts";
import { eventTypes } from "../orders/order-helpers.ts";
import { smallPng } from "../print-files/upload-helpers.ts";
import { post, postMultipart, signedInUser } from "./console-client.ts";

/** The API's claims of the key's account, newest first. */
async function apiClaims(key: string): Promise<Claim[]> {
	return ((await (await api("/v1/claims", { key })).json()) as { data: Claim[] }).data;
}

/** The claim form of a delivered order, filled in: `units` of its item, `photos` as PNGs (none when empty). */
function claimForm(itemId: string, units: string, reason: string, photos: Uint8Array[]): FormData {
	const form = new FormData();
	form.set("reason", reason);
	form.set(`units-${itemId}`, units);
	form.set("description", "The glass arrived cracked across the top left corner.");
	for (const [index, png] of photos.entries()) {
		form.append("photos", new File([png], `cracked-${index}.png`, { type: "image/png" }));
	}
	return form;
}

/** A signed-in user of `role` on the account of a delivered order, and the order. */
async function deliveredWithUser(role: "owner" | "support" | "viewer" | "developer", quantity = 2) {
	const made = await deliveredOrder(quantity);
	return { ...made, user: await signedInUser(role, made.partner) };
}

describe("the claims list", () => {
	it("lists the account's claims newest first, status in words, each linked to its claim and order", async () => {
		const { key, order, itemId, photo, user } = await deliveredWithUser("viewer", 3);
		const first = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const second = await postClaimOk(key, order.id, {
			reason: "wrong_item",
			items: [{ item_id: itemId, quantity: 1 }],
			description: "A different picture arrived.",
		});
		const response = await user.get("/partner/claims");
		expect(response.status).toBe(200);
		const html = await response.text();
		expect(html.indexOf(second.id)).toBeLessThan(html.indexOf(first.id));
		expect(html).toContain("Waiting for a decision");
		expect(html).toContain("Wrong item");
		expect(html).toContain("Damaged in transit");
		expect(html).toContain(`href="/partner/claims/${first.id}"`);
		expect(html).toContain(`href="/partner/orders/${order.id}"`);
		expect(html).not.toContain("submitted");
		// A viewer reads, and is not offered the claim form.
		expect(html).not.toContain("Open the claim form");
	});

	it("pages by 20, with a link to the next page and back to the first", async () => {
		const { key, order, itemId, user } = await deliveredWithUser("support", 21);
		const ids: string[] = [];
		for (let index = 0; index < 21; index += 1) {
			const claim = await postClaimOk(key, order.id, {
				reason: "wrong_item",
				items: [{ item_id: itemId, quantity: 1 }],
				description: `Wrong picture number ${index}.`,
			});
			ids.push(claim.id);
		}
		const firstPage = await (await user.get("/partner/claims")).text();
		expect(firstPage).not.toContain(`/partner/claims/${ids[0]}"`);
		expect(firstPage).toContain(`/partner/claims/${ids[20]}"`);
		const next = /href="(\/partner\/claims\?cursor=[^"]+)"/.exec(firstPage)?.[1] ?? "";
		expect(next).not.toBe("");
		const secondPage = await (await user.get(next.replaceAll("&amp;", "&"))).text();
		expect(secondPage).toContain(`/partner/claims/${ids[0]}"`);
		expect(secondPage).toContain("First page");
		expect(secondPage).not.toContain("Next page");
	});

	it("answers a cursor that is not one with a 4xx page, not a 500", async () => {
		const user = await signedInUser("viewer");
		const response = await user.get("/partner/claims?cursor=not-a-cursor");
		expect(response.status).toBeGreaterThanOrEqual(400);
		expect(response.status).toBeLessThan(500);
	});
});

describe("a claim's page", () => {
	it("shows the claimed units, the order, the shipment, the photo served inline, and no decision yet", async () => {
		const { key, order, itemId, photo, user } = await deliveredWithUser("viewer");
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const response = await user.get(`/partner/claims/${claim.id}`);
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Security-Policy")).toContain("img-src 'self'");
		const html = await response.text();
		expect(html).toContain("Damaged in transit");
		expect(html).toContain("1 × Item 1 of 1");
		expect(html).toContain(order.external_id);
		expect(html).toContain("1Z999AA10123456784");
		expect(html).toContain("The service team has not decided this claim yet.");
		expect(html).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
		expect(html).not.toContain(claim.created_at);
		expect(html).toContain(`src="/partner/claims/${claim.id}/photos/0"`);
		const image = await user.get(`/partner/claims/${claim.id}/photos/0`);
		expect(image.status).toBe(200);
		expect(image.headers.get("Content-Type")).toBe("image/png");
		expect((await user.get(`/partner/claims/${claim.id}/photos/1`)).status).toBe(404);
	});

	it("after a refund shows the decision in words, the service team's message and the credit, linked to the statement", async () => {
		const { key, opsKey, order, itemId, photo, user } = await deliveredWithUser("viewer");
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const decided = await send("POST", `/v1/ops/claims/${claim.id}/approve`, opsKey ?? "", {
			remedy: "refund",
			message: "Sorry about the glass.",
		});
		const approved = (await decided.json()) as Claim;
		const html = await (await user.get(`/partner/claims/${claim.id}`)).text();
		expect(html).toContain("Approved");
		expect(html).toContain("Refund: the claimed units&#39; share of the charges is credited");
		expect(html).toContain("Sorry about the glass.");
		const cents = approved.resolution?.credit_cents ?? 0;
		expect(html).toContain(`$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`);
		expect(html).toContain(`/partner/money?month=${approved.resolution?.resolved_at.slice(0, 7)}`);
	});

	it("after a reprint links to the reprint's order page", async () => {
		const { key, opsKey, order, itemId, photo, user } = await deliveredWithUser("support");
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const decided = await send("POST", `/v1/ops/claims/${claim.id}/approve`, opsKey ?? "", { remedy: "reprint" });
		const reprintId = ((await decided.json()) as Claim).resolution?.reprint_order_id ?? "";
		expect(reprintId).toMatch(/^ord_/);
		const html = await (await user.get(`/partner/claims/${claim.id}`)).text();
		expect(html).toContain(`href="/partner/orders/${reprintId}"`);
		expect(html).toContain("Reprint: the claimed units are printed and shipped again");
	});
});

describe("filing a claim", () => {
	it("the form of a delivered order offers each shipped item and the reasons in words", async () => {
		const { order, itemId, user } = await deliveredWithUser("support");
		const response = await user.get(`/partner/claims/new?order=${order.id}`);
		expect(response.status).toBe(200);
		const html = await response.text();
		expect(html).toContain(`for="units-${itemId}"`);
		expect(html).toContain("2 shipped");
		expect(html).toContain("Lost in transit");
		expect(html).toContain('enctype="multipart/form-data"');
		expect(html).toContain('name="_csrf"');
	});

	it("files a claim with a photo, as POST /v1/orders/{id}/claims would: 303 to its page, the event recorded", async () => {
		const { key, order, itemId, user } = await deliveredWithUser("support");
		const response = await user.upload(
			`/partner/claims/new?order=${order.id}`,
			claimForm(itemId, "1", "damaged_in_transit", [smallPng(64, 48)]),
		);
		expect(response.status).toBe(303);
		const location = response.headers.get("Location") ?? "";
		expect(location).toMatch(/^\/partner\/claims\/clm_[^?]+\?done=filed$/);
		const [claim] = await apiClaims(key);
		expect(claim).toMatchObject({
			order_id: order.id,
			status: "submitted",
			reason: "damaged_in_transit",
			items: [{ item_id: itemId, quantity: 1 }],
			description: "The glass arrived cracked across the top left corner.",
		});
		expect(claim?.photos).toHaveLength(1);
		expect(location).toContain(claim?.id ?? "none");
		expect(await eventTypes(order.id)).toContain("claim.created");
		const page = await (await user.get(location)).text();
		expect(page).toContain('role="status"');
		expect(page).toContain("Your claim is filed.");
		expect((await user.get(`/partner/claims/${claim?.id}/photos/0`)).headers.get("Content-Type")).toBe("image/png");
	});

	it("refuses a damage claim without photos with the API's rule in words (422), and files nothing", async () => {
		const { key, order, itemId, user } = await deliveredWithUser("owner");
		const response = await user.upload(
			`/partner/claims/new?order=${order.id}`,
			claimForm(itemId, "1", "damaged_in_transit", []),
		);
		expect(response.status).toBe(422);
		const html = await response.text();
		expect(html).toContain('role="alert"');
		expect(html).toContain("“Damaged in transit” needs 1 to 10 photos of what arrived");
		// What was typed is kept.
		expect(html).toContain("The glass arrived cracked across the top left corner.");
		expect(await apiClaims(key)).toEqual([]);
	});

	it("refuses a damage claim on a shipment not yet delivered (409) and more units than shipped (422), in words", async () => {
		const { key, order, itemId, partner } = await shippedOrder(2);
		const user = await signedInUser("developer", partner);
		const early = await user.upload(
			`/partner/claims/new?order=${order.id}`,
			claimForm(itemId, "1", "damaged_in_transit", [smallPng(32, 32)]),
		);
		expect(early.status).toBe(409);
		const earlyHtml = await early.text();
		expect(earlyHtml).toContain("not delivered yet");
		expect(earlyHtml).toContain("Item 1 of 1");
		expect(earlyHtml).not.toContain(`${itemId}:`);
		const many = await user.upload(
			`/partner/claims/new?order=${order.id}`,
			claimForm(itemId, "3", "lost_in_transit", []),
		);
		expect(many.status).toBe(422);
		expect(await many.text()).toContain("has 2 shipped units not already in an open or approved claim; 3 claimed");
		expect(await apiClaims(key)).toEqual([]);
	});

	it("refuses a TIFF photo as the API does (photos are JPEG or PNG), naming the photo by its place, not its id", async () => {
		const { key, order, itemId, user } = await deliveredWithUser("owner");
		const form = claimForm(itemId, "1", "damaged_in_transit", []);
		const tiff = buildTiff({ order: "II", ifdAt: "start", layout: "strips", width: 32, height: 32 });
		form.append("photos", new File([tiff], "scan.tif", { type: "image/tiff" }));
		const response = await user.upload(`/partner/claims/new?order=${order.id}`, form);
		expect(response.status).toBe(422);
		const html = await response.text();
		expect(html).toContain("Photo 1: this photo is a TIFF file; photos are JPEG or PNG");
		expect(html).not.toContain("pf_");
		expect(await apiClaims(key)).toEqual([]);
	});

	it("says what to fix for a form without units, a reason or words, or with a photo that is not an image", async () => {
		const { key, order, itemId, user } = await deliveredWithUser("owner");
		const path = `/partner/claims/new?order=${order.id}`;
		const none = await user.upload(path, claimForm(itemId, "0", "wrong_item", []));
		expect(none.status).toBe(422);
		expect(await none.text()).toContain("Say how many units of at least one item.");
		const noReason = await user.upload(path, claimForm(itemId, "1", "made_up", []));
		expect(await noReason.text()).toContain("Choose what happened.");
		const notNumber = await user.upload(path, claimForm(itemId, "1e9", "wrong_item", []));
		expect(await notNumber.text()).toContain("give a whole number of units");
		const long = claimForm(itemId, "1", "wrong_item", []);
		long.set("description", "x".repeat(2001));
		const tooLong = await user.upload(path, long);
		expect(tooLong.status).toBe(422);
		expect(await tooLong.text()).toContain("What you saw must be at most 2000 characters.");
		const text = claimForm(itemId, "1", "damaged_in_transit", []);
		text.append("photos", new File(["not an image"], "notes.txt", { type: "text/plain" }));
		const notImage = await user.upload(path, text);
		expect(notImage.status).toBe(422);
		expect(await notImage.text()).toContain("Photo 1: Print files are TIFF, PNG or JPEG images");
		expect(await apiClaims(key)).toEqual([]);
	});
});

describe("claims attacks", () => {
	it("another account's claim is a 404 on its page and its photos", async () => {
		const { key, order, itemId, photo } = await deliveredOrder(2);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const stranger = await signedInUser("owner");
		expect((await stranger.get(`/partner/claims/${claim.id}`)).status).toBe(404);
		expect((await stranger.get(`/partner/claims/${claim.id}/photos/0`)).status).toBe(404);
		expect(await (await stranger.get("/partner/claims")).text()).not.toContain(claim.id);
	});

	it("another account's order is a 404 on the claim form and its post, and nothing is filed", async () => {
		const { key, order, itemId } = await deliveredOrder(2);
		const stranger = await signedInUser("owner");
		expect((await stranger.get(`/partner/claims/new?order=${order.id}`)).status).toBe(404);
		const posted = await stranger.upload(
			`/partner/claims/new?order=${order.id}`,
			claimForm(itemId, "1", "wrong_item", []),
		);
		expect(posted.status).toBe(404);
		expect((await stranger.get("/partner/claims/new")).status).toBe(404);
		expect(await apiClaims(key)).toEqual([]);
	});

	it("the live data's claim and order are a 404 in the test data's pages and forms", async () => {
		const { key, order, itemId, photo, user } = await deliveredWithUser("owner");
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		expect((await user.get(`/partner/claims/${claim.id}?mode=test`)).status).toBe(404);
		expect((await user.get(`/partner/claims/${claim.id}/photos/0?mode=test`)).status).toBe(404);
		expect(await (await user.get("/partner/claims?mode=test")).text()).not.toContain(claim.id);
		expect((await user.get(`/partner/claims/new?order=${order.id}&mode=test`)).status).toBe(404);
		const posted = await user.upload(
			`/partner/claims/new?order=${order.id}&mode=test`,
			claimForm(itemId, "1", "wrong_item", []),
		);
		expect(posted.status).toBe(404);
		expect(await apiClaims(key)).toHaveLength(1);
	});

	it("refuses the claim form without its token or with a forged one (403), filing nothing", async () => {
		const { key, order, itemId, user } = await deliveredWithUser("owner");
		const path = `/partner/claims/new?order=${order.id}`;
		const missing = await postMultipart(path, claimForm(itemId, "1", "wrong_item", []), user.cookie);
		expect(missing.status).toBe(403);
		const forgedForm = claimForm(itemId, "1", "wrong_item", []);
		forgedForm.set("_csrf", "forged");
		expect((await postMultipart(path, forgedForm, user.cookie)).status).toBe(403);
		const otherToken = (await signedInUser("owner")).csrf;
		expect(
			(await post(path, { _csrf: otherToken, reason: "wrong_item", [`units-${itemId}`]: "1" }, user.cookie)).status,
		).toBe(403);
		expect(await apiClaims(key)).toEqual([]);
	});

	it("a viewer reads claims but cannot open or post the claim form (403)", async () => {
		const { key, order, itemId, user } = await deliveredWithUser("viewer");
		expect((await user.get("/partner/claims")).status).toBe(200);
		const form = await user.get(`/partner/claims/new?order=${order.id}`);
		expect(form.status).toBe(403);
		expect(await form.text()).toContain("Your role cannot do this.");
		const posted = await user.upload(`/partner/claims/new?order=${order.id}`, claimForm(itemId, "1", "wrong_item", []));
		expect(posted.status).toBe(403);
		expect(await apiClaims(key)).toEqual([]);
	});

	it("sends a signed-out visitor to sign in", async () => {
		const response = await post("/partner/claims/new?order=ord_x", { reason: "wrong_item" });
		expect(response.status).toBe(303);
		expect(response.headers.get("Location")).toBe("/partner/sign-in");
	});
});
