import { describe, expect, it } from "vitest";
import type { Claim } from "../../src/claims/schema.ts";
import { damagedBody, deliveredOrder, postClaimOk } from "../claims/claim-helpers.ts";
import { api, send } from "../helpers.ts";
import {
	alertOf,
	consoleRequest,
	csrfOf,
	htmlOf,
	postForm,
	signedInOperator,
	statusMessageOf,
} from "./console-helpers.ts";

/** A delivered order with a submitted damage claim carrying one photo, and a signed-in operator. */
async function claimToDecide() {
	const made = await deliveredOrder(2);
	const claim = await postClaimOk(made.key, made.order.id, damagedBody(made.itemId, 1, [made.photo]));
	return { ...made, claim, operator: await signedInOperator() };
}

describe("the console's claims", () => {
	it("the claims list shows a submitted claim linked to its page", async () => {
		const { claim, order, operator } = await claimToDecide();
		const html = await htmlOf(await consoleRequest("/ops/claims", { cookie: operator.cookie }), 200);
		expect(html).toContain(`href="/ops/claims/${claim.id}"`);
		expect(html).toContain(`href="/ops/orders/${order.id}"`);
		expect(html).toContain("Damaged in transit");
	});

	it("the claim page shows the description, the order, the shipment, when it was made and the photo inline, which is served as a PNG", async () => {
		const { claim, order, shipment, operator } = await claimToDecide();
		const response = await consoleRequest(`/ops/claims/${claim.id}`, { cookie: operator.cookie });
		expect(response.headers.get("Content-Security-Policy")).toContain("img-src 'self'");
		const html = await htmlOf(response, 200);
		expect(html).toContain(claim.description);
		expect(html).toContain(order.external_id);
		expect(html).toContain(shipment.tracking.number);
		// When it was made, on the console's clock, never a bare ISO timestamp.
		expect(html).toMatch(/<dd>\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC<\/dd>/);
		expect(html).not.toContain(claim.created_at);
		expect(html).toContain(`<img src="/ops/claims/${claim.id}/photos/0"`);
		const photo = await consoleRequest(`/ops/claims/${claim.id}/photos/0`, { cookie: operator.cookie });
		expect(photo.status).toBe(200);
		expect(photo.headers.get("Content-Type")).toBe("image/png");
		expect(photo.headers.get("Content-Disposition")).toMatch(/^inline/);
		const bytes = new Uint8Array(await photo.arrayBuffer());
		expect([...bytes.slice(1, 4)].map((byte) => String.fromCharCode(byte)).join("")).toBe("PNG");
		expect((await consoleRequest(`/ops/claims/${claim.id}/photos/1`, { cookie: operator.cookie })).status).toBe(404);
	});

	it("signed out, the claim page and its photo lead to sign-in, never the bytes", async () => {
		const { claim } = await claimToDecide();
		expect((await consoleRequest(`/ops/claims/${claim.id}`)).status).toBe(303);
		expect((await consoleRequest(`/ops/claims/${claim.id}/photos/0`)).status).toBe(303);
	});

	it("approving with a reprint from the form approves the claim once; a second decision shows why not", async () => {
		const { key, claim, operator } = await claimToDecide();
		const pageHtml = await htmlOf(await consoleRequest(`/ops/claims/${claim.id}`, { cookie: operator.cookie }), 200);
		const csrf = csrfOf(pageHtml);
		const approved = await htmlOf(
			await postForm(
				`/ops/claims/${claim.id}/approve`,
				{ _csrf: csrf, remedy: "reprint" },
				{ cookie: operator.cookie },
			),
			200,
		);
		expect(statusMessageOf(approved)).toContain("Claim approved");
		const read = (await (await api(`/v1/claims/${claim.id}`, { key })).json()) as Claim;
		expect(read.resolution).toMatchObject({ remedy: "reprint", reprint_order_id: expect.stringMatching(/^ord_/) });
		expect(approved).toContain(`href="/ops/orders/${read.resolution?.reprint_order_id ?? ""}"`);
		const again = await htmlOf(
			await postForm(`/ops/claims/${claim.id}/reject`, { _csrf: csrf, message: "No." }, { cookie: operator.cookie }),
			409,
		);
		expect(alertOf(again)).toContain("approved already");
	});

	it("the original's order page says Reprinted as with a link to its reprint, and the reprint's page says Reprint of with a link back", async () => {
		const { order, opsKey, claim, operator } = await claimToDecide();
		const approved = await send("POST", `/v1/ops/claims/${claim.id}/approve`, opsKey, { remedy: "reprint" });
		const reprintId = ((await approved.json()) as Claim).resolution?.reprint_order_id ?? "";
		const original = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		expect(original).toContain("Reprinted as");
		expect(original).toContain(`<a href="/ops/orders/${reprintId}">${reprintId}</a>`);
		expect(original).not.toContain("Reprint of");
		const reprint = await htmlOf(await consoleRequest(`/ops/orders/${reprintId}`, { cookie: operator.cookie }), 200);
		expect(reprint).toContain("Reprint of");
		expect(reprint).toContain(`<a href="/ops/orders/${order.id}">${order.id}</a>`);
		expect(reprint).not.toContain("Reprinted as");
	});

	it("a claim decision's message with a control character (NUL, ESC, BEL) is refused on the page as the API refuses it, and nothing is stored", async () => {
		const { key, claim, operator, opsKey } = await claimToDecide();
		for (const [action, fields] of [
			["reject", { message: "Scratch\u0000 on the film" }],
			["reject", { message: "\u001b[31mRejected" }],
			["approve", { remedy: "refund", message: "Sorry\u0007" }],
		] as const) {
			const refused = await htmlOf(
				await postForm(
					`/ops/claims/${claim.id}/${action}`,
					{ _csrf: operator.csrf, ...fields },
					{ cookie: operator.cookie },
				),
				422,
			);
			expect(alertOf(refused)).toContain("must not contain control characters");
			const api422 = await send("POST", `/v1/ops/claims/${claim.id}/${action}`, opsKey, fields);
			expect(api422.status).toBe(422);
		}
		expect(((await (await api(`/v1/claims/${claim.id}`, { key })).json()) as Claim).status).toBe("submitted");
	});

	it("a claim decision's message is counted in characters as the API counts it: 1,000 emoji go through, 1,001 do not", async () => {
		const { key, claim, operator } = await claimToDecide();
		const tooLong = await htmlOf(
			await postForm(
				`/ops/claims/${claim.id}/reject`,
				{ _csrf: operator.csrf, message: "🖼".repeat(1001) },
				{ cookie: operator.cookie },
			),
			422,
		);
		expect(alertOf(tooLong)).toMatch(/at most 1,?000 characters/);
		const message = `${"🖼".repeat(998)}\r\n!`;
		const rejected = await htmlOf(
			await postForm(`/ops/claims/${claim.id}/reject`, { _csrf: operator.csrf, message }, { cookie: operator.cookie }),
			200,
		);
		expect(statusMessageOf(rejected)).toContain("Claim rejected");
		const read = (await (await api(`/v1/claims/${claim.id}`, { key })).json()) as Claim;
		// Stored as the API stores it: Windows line ends become \n.
		expect(read.resolution?.message).toBe(`${"🖼".repeat(998)}\n!`);
	});

	it("a rejection without a message is refused on the page, and nothing changes", async () => {
		const { key, claim, operator } = await claimToDecide();
		const refused = await htmlOf(
			await postForm(
				`/ops/claims/${claim.id}/reject`,
				{ _csrf: operator.csrf, message: "  " },
				{ cookie: operator.cookie },
			),
			422,
		);
		expect(alertOf(refused)).toContain("Say why");
		expect(((await (await api(`/v1/claims/${claim.id}`, { key })).json()) as Claim).status).toBe("submitted");
	});
});
