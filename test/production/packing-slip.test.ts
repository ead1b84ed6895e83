import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fullProfile, putProfile, RETURN_ADDRESS, readCatalog } from "../branding/branding-helpers.ts";
import { api, createKeyWithScopes, expectError } from "../helpers.ts";
import { encodeJpeg } from "../imaging/fixtures/jpeg.ts";
import { encodePng } from "../imaging/fixtures/png.ts";
import { buildTiff } from "../imaging/fixtures/tiff.ts";
import { createOrder, externalId, partnerWithFile, readyFile, SHIP_TO } from "../orders/order-helpers.ts";
import { uploadImage } from "../print-files/upload-helpers.ts";

/** Every spelling of the service's own name that must never reach a partner's customer. */
const SERVICE_NAME = /framed[-\s]?print|fulfil+ment api/i;

const SECURITY_HEADERS = {
	"Content-Security-Policy":
		"default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
	"X-Frame-Options": "DENY",
	"X-Content-Type-Options": "nosniff",
	"Referrer-Policy": "no-referrer",
	"Cache-Control": "no-store",
};

/** Text as the slip's HTML writes it. */
function escapeHtml(text: string): string {
	return text
		.replaceAll("&", "&amp;")
		.replaceAll("<", "&lt;")
		.replaceAll(">", "&gt;")
		.replaceAll('"', "&quot;")
		.replaceAll("'", "&#39;");
}

function base64(bytes: Uint8Array): string {
	let binary = "";
	for (const byte of bytes) binary += String.fromCharCode(byte);
	return btoa(binary);
}

/** The part of the slip between the first `start` and the next `end`, or "" when there is none. */
function section(html: string, start: string, end: string): string {
	const from = html.indexOf(start);
	if (from < 0) return "";
	const to = html.indexOf(end, from + start.length);
	return to < 0 ? "" : html.slice(from, to + end.length);
}

/** GET /v1/ops/orders/{id}/packing-slip with `query`. */
function slipResponse(key: string, orderId: string, query = ""): Promise<Response> {
	return api(`/v1/ops/orders/${orderId}/packing-slip${query}`, { key });
}

/** The slip's HTML, checked to be a 200 HTML page. */
async function slipHtml(key: string, orderId: string, query = ""): Promise<string> {
	const response = await slipResponse(key, orderId, query);
	expect(response.status).toBe(200);
	expect(response.headers.get("Content-Type")).toMatch(/^text\/html; ?charset=utf-8/i);
	return response.text();
}

/** partnerWithFile here: a partner ("Lumen Prints Inc."), its ready 4800 × 6000 px file (300 DPI at 16 × 20 in) and an ops key. */
const LUMEN = { name: "Lumen Prints Inc.", widthPx: 4800, heightPx: 6000, opsKey: true } as const;

/** A two-item order: 16 × 20 in framed and matted (two of them), and 8 × 10 in with neither. */
function twoItemOrder(file: string, frame: string, mat: string, extra: Record<string, unknown> = {}) {
	return {
		external_id: externalId("SLIP"),
		ship_to: SHIP_TO,
		items: [
			{ print_file_id: file, width_in: 16, height_in: 20, frame, mat, quantity: 2 },
			{ print_file_id: file, width_in: 8, height_in: 10 },
		],
		...extra,
	};
}

/** A partner with a full brand profile (a real 400 × 200 PNG logo) and an order of theirs with a gift message. */
async function brandedOrder() {
	const { partner, key, file, opsKey } = await partnerWithFile(LUMEN);
	const logoBytes = encodePng(400, 200);
	const logo = await uploadImage(key, logoBytes, "image/png");
	await putProfile(key, fullProfile(logo));
	const catalog = await readCatalog(key);
	const frame = catalog.frames[3];
	const mat = catalog.mats[5];
	if (frame === undefined || mat === undefined) throw new Error("the catalog is too small");
	const order = await createOrder(
		key,
		twoItemOrder(file, frame.slug, mat.slug, { gift_message: "Happy birthday, Grace!\r\nLove, Gran" }),
	);
	return { partner, key, opsKey, order, frame, mat, logo, logoBytes };
}

describe("GET /v1/ops/orders/{id}/packing-slip: with a brand profile", () => {
	it("is a complete HTML page with the partner's logo inline, brand name and return address in the header", async () => {
		const { opsKey, order, logoBytes } = await brandedOrder();
		const html = await slipHtml(opsKey, order.id);
		expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
		expect(html.endsWith("</html>")).toBe(true);
		const header = section(html, "<header>", "</header>");
		expect(header).toContain(`<img src="data:image/png;base64,${base64(logoBytes)}" alt="Lumen Prints"/>`);
		expect(header).toContain("<h1>Lumen Prints</h1>");
		const sender = section(header, '<div class="sender">', "</div>");
		for (const line of ["Lumen Prints Returns", "400 Gallery Row", "Unit 7", "Burlington, VT 05401", "United States"]) {
			expect(sender).toContain(line);
		}
		expect(header).toContain(order.external_id);
		expect(html).toContain(`<title>Lumen Prints · Packing slip ${order.external_id}</title>`);
	});

	it("ships to the order's address", async () => {
		const { opsKey, order } = await brandedOrder();
		const shipTo = section(await slipHtml(opsKey, order.id), '<section class="ship-to"', "</section>");
		for (const line of ["Ada Lovelace", "12 Harbour Street", "Portland, ME 04101", "United States"]) {
			expect(shipTo).toContain(line);
		}
		expect(shipTo).not.toContain("Gallery Row");
	});

	it("lists each item in order: print size, the catalog's frame and mat names, quantity", async () => {
		const { opsKey, order, frame, mat } = await brandedOrder();
		const rows = section(await slipHtml(opsKey, order.id), "<tbody>", "</tbody>").split("</tr>");
		expect(rows[0]).toContain("<td>1</td>");
		expect(rows[0]).toContain("<td>16 × 20 in</td>");
		expect(rows[0]).toContain(`<td>${escapeHtml(frame.name)}</td>`);
		expect(rows[0]).toContain(`<td>${escapeHtml(mat.name)}</td>`);
		expect(rows[0]).toContain('<td class="qty">2</td>');
		expect(rows[0]).not.toContain(frame.slug);
		expect(rows[1]).toContain("<td>2</td>");
		expect(rows[1]).toContain("<td>8 × 10 in</td>");
		expect(rows[1]).toContain("<td>Unframed</td>");
		expect(rows[1]).toContain("<td>No mat</td>");
		expect(rows[1]).toContain('<td class="qty">1</td>');
	});

	it("prints the gift message with its line break, the partner's message and the support contacts", async () => {
		const { opsKey, order } = await brandedOrder();
		const html = await slipHtml(opsKey, order.id);
		expect(section(html, '<section class="note gift"', "</section>")).toContain(
			"<p>Happy birthday, Grace!\nLove, Gran</p>",
		);
		expect(html).toContain("<p>Thank you for supporting independent artists.\nEnjoy your print!</p>");
		const footer = section(html, "<footer>", "</footer>");
		expect(footer).toContain('<a href="mailto:help@lumen.example">help@lumen.example</a>');
		expect(footer).toContain('<a href="https://lumen.example/help">https://lumen.example/help</a>');
	});

	it("names the service nowhere, in the page or its headers", async () => {
		const { opsKey, order } = await brandedOrder();
		const response = await slipResponse(opsKey, order.id);
		expect(await response.text()).not.toMatch(SERVICE_NAME);
		for (const [name, value] of response.headers) expect(`${name}: ${value}`).not.toMatch(SERVICE_NAME);
	});

	it("shows only the partner's support contact it has: an email alone, no separator", async () => {
		const { key, file, opsKey } = await partnerWithFile(LUMEN);
		await putProfile(key, { brand_name: "Lumen Prints", support_email: "help@lumen.example" });
		const order = await createOrder(key, twoItemOrder(file, "walnut-flat-075", "bright-white"));
		const footer = section(await slipHtml(opsKey, order.id), "<footer>", "</footer>");
		expect(footer).toContain("mailto:help@lumen.example");
		expect(footer).not.toContain(" · ");
		expect(footer).not.toContain("https://");
	});

	it("has no gift section when the order has no gift message", async () => {
		const { key, file, opsKey } = await partnerWithFile(LUMEN);
		await putProfile(key, { brand_name: "Lumen Prints" });
		const order = await createOrder(key, twoItemOrder(file, "walnut-flat-075", "bright-white"));
		const html = await slipHtml(opsKey, order.id);
		expect(html).not.toContain('class="note gift"');
		expect(html).not.toContain("A message for you");
	});

	it("a test-mode order's slip carries the test key's profile, never the live one; a live order's never the test one", async () => {
		const { partner, opsKey, order: liveOrder } = await brandedOrder();
		const testKey = partner.keys.test.key;
		const testFile = await readyFile(testKey, 4800, 6000);
		const order = await createOrder(testKey, twoItemOrder(testFile, "walnut-flat-075", "bright-white"));
		expect(order.mode).toBe("test");
		const unbranded = await slipHtml(opsKey, order.id);
		expect(unbranded).not.toContain("Lumen Prints</h1>");
		expect(unbranded).not.toContain("data:image/png;base64,");
		await putProfile(testKey, { brand_name: "Lumen Sandbox" });
		expect(await slipHtml(opsKey, order.id)).toContain("<h1>Lumen Sandbox</h1>");
		const live = await slipHtml(opsKey, liveOrder.id);
		expect(live).toContain("<h1>Lumen Prints</h1>");
		expect(live).not.toContain("Lumen Sandbox");
	});

	it("prints the profile as it is now: a change after the order was placed shows on the next print", async () => {
		const { key, opsKey, order } = await brandedOrder();
		await putProfile(key, { brand_name: "Lumen Editions" });
		const html = await slipHtml(opsKey, order.id);
		expect(html).toContain("<h1>Lumen Editions</h1>");
		expect(html).not.toContain("Lumen Prints<");
		expect(html).not.toContain("<img");
		expect(html).not.toContain('class="sender"');
		expect(html).not.toContain("<footer>");
	});
});

describe("GET /v1/ops/orders/{id}/packing-slip: without a brand profile", () => {
	it("is neutral: no logo, no brand name, no return address, no support footer, and never the service's", async () => {
		const { partner, key, file, opsKey } = await partnerWithFile({ ...LUMEN, name: "Quiet Gallery LLC" });
		const order = await createOrder(key, twoItemOrder(file, "walnut-flat-075", "bright-white"));
		const response = await slipResponse(opsKey, order.id);
		expect(response.status).toBe(200);
		const html = await response.text();
		expect(html).not.toContain("<img");
		expect(html).not.toContain("<h1");
		expect(html).not.toContain('class="sender"');
		expect(html).not.toContain("<footer");
		expect(html).not.toMatch(SERVICE_NAME);
		// Not the account's own name either: that is the partner's business name, not a brand it chose to print.
		expect(html).not.toContain(partner.account.name);
		expect(html).toContain(`<title>Packing slip ${order.external_id}</title>`);
		expect(section(html, '<section class="ship-to"', "</section>")).toContain("Ada Lovelace");
		expect(html).toContain("<td>16 × 20 in</td>");
		expect(html).toContain("<td>Walnut Flat 3/4 in</td>");
	});

	it("still prints the gift message", async () => {
		const { key, file, opsKey } = await partnerWithFile(LUMEN);
		const order = await createOrder(
			key,
			twoItemOrder(file, "walnut-flat-075", "bright-white", { gift_message: "With love" }),
		);
		expect(await slipHtml(opsKey, order.id)).toContain("<p>With love</p>");
	});

	it("becomes neutral once the partner deletes its profile", async () => {
		const { key, opsKey, order } = await brandedOrder();
		expect((await api("/v1/branding", { method: "DELETE", key })).status).toBe(204);
		const html = await slipHtml(opsKey, order.id);
		expect(html).not.toContain("Lumen");
		expect(html).not.toContain("<img");
		expect(html).not.toContain("<footer");
		expect(html).not.toMatch(SERVICE_NAME);
	});
});

describe("GET /v1/ops/orders/{id}/packing-slip: accounts", () => {
	it("each of two branded partners' slips shows only its own brand, logo and addresses", async () => {
		const first = await partnerWithFile({ ...LUMEN, name: "First Gallery" });
		const second = await partnerWithFile({ ...LUMEN, name: "Second Gallery" });
		const firstLogo = encodePng(400, 200);
		const secondLogo = encodeJpeg(300, 120);
		await putProfile(first.key, {
			brand_name: "Aurora Frames",
			return_address: RETURN_ADDRESS,
			support_email: "aurora@first.example",
			packing_slip_message: "Aurora says thanks",
			logo_print_file_id: await uploadImage(first.key, firstLogo, "image/png"),
		});
		await putProfile(second.key, {
			brand_name: "Borealis Art",
			return_address: {
				name: "Borealis Returns",
				address1: "9 Northern Way",
				city: "Leeds",
				zip: "LS1 4AP",
				country: "GB",
			},
			support_url: "https://second.example/support",
			packing_slip_message: "Borealis says thanks",
			logo_print_file_id: await uploadImage(second.key, secondLogo, "image/jpeg"),
		});
		const firstOrder = await createOrder(first.key, twoItemOrder(first.file, "walnut-flat-075", "bright-white"));
		const secondOrder = await createOrder(second.key, twoItemOrder(second.file, "walnut-flat-075", "bright-white"));

		const firstHtml = await slipHtml(first.opsKey, firstOrder.id);
		expect(firstHtml).toContain("<h1>Aurora Frames</h1>");
		expect(firstHtml).toContain(`data:image/png;base64,${base64(firstLogo)}`);
		expect(firstHtml).toContain("400 Gallery Row");
		expect(firstHtml).toContain("aurora@first.example");
		for (const foreign of ["Borealis", "Northern Way", "second.example", base64(secondLogo), "image/jpeg"]) {
			expect(firstHtml).not.toContain(foreign);
		}

		const secondHtml = await slipHtml(first.opsKey, secondOrder.id);
		expect(secondHtml).toContain("<h1>Borealis Art</h1>");
		expect(secondHtml).toContain(`data:image/jpeg;base64,${base64(secondLogo)}`);
		expect(secondHtml).toContain("9 Northern Way");
		expect(secondHtml).toContain("Leeds<br/>LS1 4AP");
		expect(secondHtml).toContain("United Kingdom");
		expect(secondHtml).toContain("https://second.example/support");
		for (const foreign of ["Aurora", "Gallery Row", "first.example", base64(firstLogo), "image/png"]) {
			expect(secondHtml).not.toContain(foreign);
		}
	});

	it("a partner without a profile never gets another partner's brand", async () => {
		await brandedOrder();
		const { key, file, opsKey } = await partnerWithFile({ ...LUMEN, name: "Plain Gallery" });
		const order = await createOrder(key, twoItemOrder(file, "walnut-flat-075", "bright-white"));
		const html = await slipHtml(opsKey, order.id);
		expect(html).not.toContain("Lumen");
		expect(html).not.toContain("<img");
	});
});

describe("GET /v1/ops/orders/{id}/packing-slip: the logo", () => {
	/** Points the account's stored profile at `fileId` directly, past the PUT's checks. */
	async function setLogoPastTheApi(accountId: string, fileId: string): Promise<void> {
		await env.DB.prepare("UPDATE brand_profiles SET logo_print_file_id = ?2 WHERE account_id = ?1")
			.bind(accountId, fileId)
			.run();
		// Read back rather than counted: the retention trigger that restarts the old logo's clock changes a row too.
		const row = await env.DB.prepare("SELECT logo_print_file_id FROM brand_profiles WHERE account_id = ?1")
			.bind(accountId)
			.first<{ logo_print_file_id: string }>();
		expect(row?.logo_print_file_id).toBe(fileId);
	}

	it("is never another account's file, even when a profile row names one", async () => {
		const owner = await brandedOrder();
		const { partner, key, file, opsKey } = await partnerWithFile({ ...LUMEN, name: "Other Gallery" });
		await putProfile(key, { brand_name: "Other Brand" });
		await setLogoPastTheApi(partner.account.id, owner.logo);
		const order = await createOrder(key, twoItemOrder(file, "walnut-flat-075", "bright-white"));
		const html = await slipHtml(opsKey, order.id);
		expect(html).toContain("<h1>Other Brand</h1>");
		expect(html).not.toContain("<img");
		expect(html).not.toContain(base64(owner.logoBytes));
	});

	it("is left out, and the slip still prints, when the file is no longer a PNG or JPEG", async () => {
		const { partner, key, opsKey, order } = await brandedOrder();
		const tiff = buildTiff({ order: "MM", ifdAt: "start", layout: "strips", width: 64, height: 32 });
		await setLogoPastTheApi(partner.account.id, await uploadImage(key, tiff, "image/tiff"));
		const html = await slipHtml(opsKey, order.id);
		expect(html).toContain("<h1>Lumen Prints</h1>");
		expect(html).not.toContain("<img");
	});

	it("is left out, and the slip still prints, when its bytes are gone from storage", async () => {
		const { partner, opsKey, order } = await brandedOrder();
		const profile = await env.DB.prepare(
			"SELECT p.r2_key FROM brand_profiles b JOIN print_files p ON p.id = b.logo_print_file_id WHERE b.account_id = ?1",
		)
			.bind(partner.account.id)
			.first<{ r2_key: string }>();
		if (profile === null) throw new Error("the profile has no logo");
		await env.PRINT_FILES.delete(profile.r2_key);
		const html = await slipHtml(opsKey, order.id);
		expect(html).toContain("<h1>Lumen Prints</h1>");
		expect(html).not.toContain("<img");
	});
});

describe("GET /v1/ops/orders/{id}/packing-slip: escaping", () => {
	it("escapes HTML in the brand, the addresses, the messages, the support URL and the external_id", async () => {
		const { key, file, opsKey } = await partnerWithFile(LUMEN);
		const brandName = "<script>alert(1)</script>";
		const supportUrl = 'https://lumen.example/"><script>alert(4)</script>';
		await putProfile(key, {
			brand_name: brandName,
			return_address: { ...RETURN_ADDRESS, name: "<b>Returns</b> & Co" },
			support_url: supportUrl,
			packing_slip_message: "<img src=x onerror=alert(3)>",
		});
		const externalIdValue = `PO-<i>${crypto.randomUUID()}</i>`;
		const order = await createOrder(key, {
			...twoItemOrder(file, "walnut-flat-075", "bright-white", { gift_message: "</p><script>alert(2)</script>" }),
			external_id: externalIdValue,
			ship_to: { ...SHIP_TO, name: 'Ada "<em>" Lovelace' },
		});
		const html = await slipHtml(opsKey, order.id);
		expect(html).not.toMatch(/<script/i);
		expect(html).not.toMatch(/<img/i);
		expect(html).not.toContain("<b>");
		expect(html).not.toContain("<em>");
		expect(html).not.toContain("<i>");
		expect(html).toContain(`<h1>${escapeHtml(brandName)}</h1>`);
		expect(html).toContain(escapeHtml("<b>Returns</b> & Co"));
		expect(html).toContain(escapeHtml("</p><script>alert(2)</script>"));
		expect(html).toContain(escapeHtml("<img src=x onerror=alert(3)>"));
		expect(html).toContain(escapeHtml('Ada "<em>" Lovelace'));
		expect(html).toContain(escapeHtml(externalIdValue));
		expect(html).toContain(`<a href="${escapeHtml(supportUrl)}">`);
	});
});

describe("GET /v1/ops/orders/{id}/packing-slip: paper", () => {
	it("without ?paper uses the printer's paper (@page size auto)", async () => {
		const { opsKey, order } = await brandedOrder();
		expect(await slipHtml(opsKey, order.id)).toContain("@page { size: auto; margin: 14mm; }");
	});

	it("?paper=letter and ?paper=a4 force the page size", async () => {
		const { opsKey, order } = await brandedOrder();
		expect(await slipHtml(opsKey, order.id, "?paper=letter")).toContain("@page { size: letter portrait;");
		expect(await slipHtml(opsKey, order.id, "?paper=a4")).toContain("@page { size: A4 portrait;");
	});

	it("any other paper is a 422 on paper", async () => {
		const { opsKey, order } = await brandedOrder();
		await expectError(await slipResponse(opsKey, order.id, "?paper=legal"), "validation_error", "paper");
		await expectError(await slipResponse(opsKey, order.id, "?paper=A4"), "validation_error", "paper");
	});
});

describe("GET /v1/ops/orders/{id}/packing-slip: headers", () => {
	it("carries the page security headers: nothing runs, nothing loads, nothing frames it, nothing caches it", async () => {
		const { opsKey, order } = await brandedOrder();
		const response = await slipResponse(opsKey, order.id);
		for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers.get(name), name).toBe(value);
		expect(response.headers.get("X-Request-Id")).toBeTruthy();
		const html = await response.text();
		// Everything on the page is inline, as the policy demands: no URL to fetch but the logo's data: URL.
		expect(html).not.toMatch(/\ssrc="(?!data:)/);
		expect(html).not.toMatch(/<link|@import|url\(/i);
	});

	it("neutral slips carry them too", async () => {
		const { key, file, opsKey } = await partnerWithFile(LUMEN);
		const order = await createOrder(key, twoItemOrder(file, "walnut-flat-075", "bright-white"));
		const response = await slipResponse(opsKey, order.id);
		for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers.get(name), name).toBe(value);
	});
});

describe("GET /v1/ops/orders/{id}/packing-slip: authorization and unknown orders", () => {
	it("without a key is a 401", async () => {
		const { order } = await brandedOrder();
		await expectError(await api(`/v1/ops/orders/${order.id}/packing-slip`), "unauthorized");
	});

	it("a partner key is a 403, even for the partner's own order", async () => {
		const { partner, key, order } = await brandedOrder();
		await expectError(await slipResponse(key, order.id), "forbidden");
		await expectError(await slipResponse(partner.keys.test.key, order.id), "forbidden");
		await expectError(await slipResponse(await createKeyWithScopes(["admin"]), order.id), "forbidden");
	});

	it("an unknown order is a 404 envelope on id", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const error = await expectError(await slipResponse(opsKey, "ord_doesnotexist"), "not_found", "id");
		expect(error.message).toContain("ord_doesnotexist");
	});
});
