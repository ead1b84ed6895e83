/**
 * The brand section of the partner console: every role reads the profile of the page's mode, owners
 * and developers change it (the API's rules, the logo's too) and delete it, the sample slip prints it,
 * and a test change never touches live.
 */
import { describe, expect, it } from "vitest";
import { getBranding, putProfile, STORED_RETURN_ADDRESS } from "../branding/branding-helpers.ts";
import { encodePng } from "../imaging/fixtures/png.ts";
import { buildTiff } from "../imaging/fixtures/tiff.ts";
import { type ConsoleUser, post, signedInUser } from "./console-client.ts";

/** The brand form's fields: a whole profile. */
const FIELDS = {
	brand_name: "Harbour Museum Store",
	support_email: "help@harbour.example",
	support_url: "https://harbour.example/help",
	packing_slip_message: "Thank you for visiting the harbour.",
	return_name: "Lumen Prints Returns",
	return_address1: "400 Gallery Row",
	return_address2: "Unit 7",
	return_city: "Burlington",
	return_state: "vt",
	return_zip: "05401",
	return_country: "us",
};

/** The brand form posted as the browser sends it (multipart), with a logo when given. */
function saveBrand(user: ConsoleUser, fields: Record<string, string>, logo?: File, path = "/partner/brand") {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) form.set(name, value);
	if (logo !== undefined) form.set("logo", logo);
	return user.upload(path, form);
}

function pngFile(width = 120, height = 40): File {
	return new File([encodePng(width, height)], "logo.png", { type: "image/png" });
}

describe("partner console: the brand page", () => {
	it("an owner saves the live profile with a logo: the API reads the same profile, and the page says so", async () => {
		const owner = await signedInUser("owner");
		const saved = await saveBrand(owner, FIELDS, pngFile());
		expect(saved.status).toBe(303);
		expect(saved.headers.get("Location")).toBe("/partner/brand?done=saved");
		const profile = (await (await getBranding(owner.partner.keys.live.key)).json()) as Record<string, unknown>;
		expect(profile).toMatchObject({
			brand_name: "Harbour Museum Store",
			return_address: STORED_RETURN_ADDRESS,
			support_email: "help@harbour.example",
			packing_slip_message: "Thank you for visiting the harbour.",
		});
		expect(String(profile.logo_print_file_id)).toMatch(/^pf_/);
		const html = await (await owner.get("/partner/brand?done=saved")).text();
		expect(html).toContain('role="status"');
		expect(html).toContain("The brand profile is saved");
		expect(html).toContain("logo.png (PNG, 120 × 40 px");
	});

	it("keeps the logo when no file is chosen, and removes it when asked", async () => {
		const owner = await signedInUser("developer");
		await saveBrand(owner, FIELDS, pngFile());
		const key = owner.partner.keys.live.key;
		const first = (await (await getBranding(key)).json()) as { logo_print_file_id: string | null };
		await saveBrand(owner, { ...FIELDS, brand_name: "Renamed" });
		const kept = (await (await getBranding(key)).json()) as { brand_name: string; logo_print_file_id: string | null };
		expect(kept).toMatchObject({ brand_name: "Renamed", logo_print_file_id: first.logo_print_file_id });
		await saveBrand(owner, { ...FIELDS, remove_logo: "yes" });
		const removed = (await (await getBranding(key)).json()) as { logo_print_file_id: string | null };
		expect(removed.logo_print_file_id).toBeNull();
	});

	it("refuses what the API refuses, in words, with the typed values kept and nothing saved", async () => {
		const owner = await signedInUser("owner");
		const key = owner.partner.keys.live.key;
		const badUrl = await saveBrand(owner, { ...FIELDS, support_url: "ftp://nope" });
		expect(badUrl.status).toBe(422);
		const html = await badUrl.text();
		expect(html).toContain('role="alert"');
		expect(html).toContain("The support web address must be an absolute http or https URL");
		expect(html).toContain('value="Harbour Museum Store"');
		const noCity = await saveBrand(owner, { ...FIELDS, return_city: "" });
		expect(noCity.status).toBe(400);
		expect(await noCity.text()).toContain("The return address&#39;s city is required.");
		const noName = await saveBrand(owner, { ...FIELDS, brand_name: "   " });
		expect(noName.status).toBe(422);
		expect((await getBranding(key)).status).toBe(404);
	});

	it("holds the logo to the API's logo rules: a TIFF or a logo over 2000 px is refused, nothing saved", async () => {
		const owner = await signedInUser("owner");
		const tiff = new File(
			[buildTiff({ order: "II", ifdAt: "start", layout: "strips", width: 64, height: 64 })],
			"logo.tif",
			{ type: "image/tiff" },
		);
		const asTiff = await saveBrand(owner, FIELDS, tiff);
		expect(asTiff.status).toBe(422);
		expect(await asTiff.text()).toContain("The logo must be a PNG or JPEG");
		const wide = await saveBrand(owner, FIELDS, pngFile(2400, 100));
		expect(wide.status).toBe(422);
		expect(await wide.text()).toContain("must be at most 2000 px on its long side");
		const text = new File(["hello"], "logo.txt", { type: "text/plain" });
		expect((await saveBrand(owner, FIELDS, text)).status).toBe(422);
		expect((await getBranding(owner.partner.keys.live.key)).status).toBe(404);
	});

	it("a test-mode edit and delete leave the live profile untouched", async () => {
		const owner = await signedInUser("owner");
		const { live, test } = { live: owner.partner.keys.live.key, test: owner.partner.keys.test.key };
		await putProfile(live, { brand_name: "Live Brand" });
		const saved = await saveBrand(
			owner,
			{ ...FIELDS, brand_name: "Test Brand" },
			pngFile(),
			"/partner/brand?mode=test",
		);
		expect(saved.headers.get("Location")).toBe("/partner/brand?done=saved&mode=test");
		expect(await (await getBranding(test)).json()).toMatchObject({ brand_name: "Test Brand" });
		expect(await (await getBranding(live)).json()).toMatchObject({
			brand_name: "Live Brand",
			logo_print_file_id: null,
		});
		const liveHtml = await (await owner.get("/partner/brand")).text();
		expect(liveHtml).toContain("Live Brand");
		expect(liveHtml).not.toContain("Test Brand");
		const deleted = await owner.post("/partner/brand/delete?mode=test", { confirm: "yes" });
		expect(deleted.headers.get("Location")).toBe("/partner/brand?done=deleted&mode=test");
		expect((await getBranding(test)).status).toBe(404);
		expect(await (await getBranding(live)).json()).toMatchObject({ brand_name: "Live Brand" });
	});

	it("deletes only with the confirmation ticked; a delete with no profile is a 404", async () => {
		const owner = await signedInUser("owner");
		const live = owner.partner.keys.live.key;
		await putProfile(live, { brand_name: "Live Brand" });
		const unconfirmed = await owner.post("/partner/brand/delete", {});
		expect(unconfirmed.status).toBe(422);
		expect(await unconfirmed.text()).toContain("Tick the box to confirm the deletion");
		expect((await getBranding(live)).status).toBe(200);
		expect((await owner.post("/partner/brand/delete", { confirm: "yes" })).status).toBe(303);
		expect((await getBranding(live)).status).toBe(404);
		expect((await owner.post("/partner/brand/delete", { confirm: "yes" })).status).toBe(404);
	});

	it("the sample slip prints the mode's brand, with its logo inline, and is neutral without a profile", async () => {
		const owner = await signedInUser("owner");
		const neutral = await owner.get("/partner/brand/slip-preview?mode=test");
		expect(neutral.status).toBe(200);
		const neutralHtml = await neutral.text();
		expect(neutralHtml).toContain("SAMPLE-1001");
		expect(neutralHtml).toContain("no test brand profile yet");
		await saveBrand(owner, FIELDS, pngFile(), "/partner/brand?mode=test");
		const slip = await owner.get("/partner/brand/slip-preview?mode=test");
		expect(slip.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
		const html = await slip.text();
		expect(html).toContain("<h1>Harbour Museum Store</h1>");
		expect(html).toContain('src="data:image/png;base64,');
		expect(html).toContain("Thank you for visiting the harbour.");
		expect(html).toContain("400 Gallery Row");
		const liveSlip = await (await owner.get("/partner/brand/slip-preview")).text();
		expect(liveSlip).not.toContain("Harbour Museum Store");
	});
});

describe("partner console: who may change the brand", () => {
	it("a viewer and a support user read the profile and the slip, but get 403 on every brand form", async () => {
		for (const role of ["viewer", "support"] as const) {
			const user = await signedInUser(role);
			await putProfile(user.partner.keys.live.key, { brand_name: "Live Brand" });
			const html = await (await user.get("/partner/brand")).text();
			expect(html).toContain("Live Brand");
			expect(html).not.toContain('action="/partner/brand"');
			expect((await user.get("/partner/brand/slip-preview")).status).toBe(200);
			expect((await saveBrand(user, FIELDS)).status).toBe(403);
			expect((await user.post("/partner/brand/delete", { confirm: "yes" })).status).toBe(403);
			expect(await (await getBranding(user.partner.keys.live.key)).json()).toMatchObject({ brand_name: "Live Brand" });
		}
	});

	it("every brand form refuses a missing or a forged _csrf (403) and changes nothing", async () => {
		const owner = await signedInUser("owner");
		const live = owner.partner.keys.live.key;
		await putProfile(live, { brand_name: "Live Brand" });
		for (const token of [undefined, "forged-token"]) {
			const fields: Record<string, string> = token === undefined ? { ...FIELDS } : { ...FIELDS, _csrf: token };
			expect((await post("/partner/brand", fields, owner.cookie)).status).toBe(403);
			const deleteFields: Record<string, string> =
				token === undefined ? { confirm: "yes" } : { confirm: "yes", _csrf: token };
			expect((await post("/partner/brand/delete", deleteFields, owner.cookie)).status).toBe(403);
		}
		expect(await (await getBranding(live)).json()).toMatchObject({ brand_name: "Live Brand" });
	});

	it("the brand page shows and changes only the signed-in account's profile", async () => {
		const other = await signedInUser("owner");
		await putProfile(other.partner.keys.live.key, { brand_name: "Other Account Brand" });
		const owner = await signedInUser("owner");
		expect(await (await owner.get("/partner/brand")).text()).not.toContain("Other Account Brand");
		expect(await (await owner.get("/partner/brand/slip-preview")).text()).not.toContain("Other Account Brand");
		await saveBrand(owner, FIELDS);
		expect(await (await getBranding(other.partner.keys.live.key)).json()).toMatchObject({
			brand_name: "Other Account Brand",
		});
	});

	it("signed out, the brand pages go to the sign-in page", async () => {
		const response = await post("/partner/brand/delete", { confirm: "yes" });
		expect(response.status).toBe(303);
		expect(response.headers.get("Location")).toBe("/partner/sign-in");
	});
});
