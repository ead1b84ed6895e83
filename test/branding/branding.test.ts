import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LOGO_MAX_BYTES, LOGO_MAX_SIDE_PX } from "../../src/branding/schema.ts";
import { api, createKeyWithScopes, createPartner, expectError, ISO_UTC, send } from "../helpers.ts";
import { encodeJpeg } from "../imaging/fixtures/jpeg.ts";
import { encodePng, largePng } from "../imaging/fixtures/png.ts";
import { materialize } from "../imaging/fixtures/sparse-file.ts";
import { buildTiff } from "../imaging/fixtures/tiff.ts";
import { requestUpload, uploadImage } from "../print-files/upload-helpers.ts";
import {
	fullProfile,
	getBranding,
	putBranding,
	putProfile,
	RETURN_ADDRESS,
	STORED_RETURN_ADDRESS,
} from "./branding-helpers.ts";

/** A fresh partner and its two keys. */
async function partnerKeys() {
	const partner = await createPartner("Lumen Prints");
	return { partner, live: partner.keys.live.key, test: partner.keys.test.key };
}

/** The 422 a PUT gets for `logo_print_file_id`, with its message. */
async function logoRefusal(key: string, logoId: string): Promise<string> {
	const error = await expectError(
		await putBranding(key, { brand_name: "Lumen Prints", logo_print_file_id: logoId }),
		"validation_error",
		"logo_print_file_id",
	);
	return error.message;
}

describe("GET /v1/branding", () => {
	it("is a 404 not_found while the account has no profile", async () => {
		const { live } = await partnerKeys();
		const error = await expectError(await getBranding(live), "not_found");
		expect(error.message).toContain("PUT /v1/branding");
	});

	it("returns the stored profile, equal to the PUT's answer", async () => {
		const { live } = await partnerKeys();
		const logo = await uploadImage(live, encodePng(400, 200), "image/png");
		const stored = await putProfile(live, fullProfile(logo));
		const response = await getBranding(live);
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual(stored);
	});

	it("never shows another account's profile", async () => {
		const first = await partnerKeys();
		const second = await partnerKeys();
		await putProfile(first.live, { brand_name: "First Brand" });
		await expectError(await getBranding(second.live), "not_found");
		await expectError(await getBranding(second.test), "not_found");
	});
});

describe("PUT /v1/branding: what is stored", () => {
	it("stores every field and answers 200 with the profile and its timestamps", async () => {
		const { live } = await partnerKeys();
		const logo = await uploadImage(live, encodePng(400, 200), "image/png");
		const response = await putBranding(live, fullProfile(logo));
		expect(response.status).toBe(200);
		const profile = await response.json();
		expect(profile).toEqual({
			brand_name: "Lumen Prints",
			return_address: STORED_RETURN_ADDRESS,
			support_email: "help@lumen.example",
			support_url: "https://lumen.example/help",
			packing_slip_message: "Thank you for supporting independent artists.\nEnjoy your print!",
			logo_print_file_id: logo,
			created_at: expect.stringMatching(ISO_UTC),
			updated_at: expect.stringMatching(ISO_UTC),
		});
	});

	it("needs only brand_name: every optional field comes back null", async () => {
		const { live } = await partnerKeys();
		const profile = await putProfile(live, { brand_name: "Lumen Prints" });
		expect(profile).toMatchObject({
			brand_name: "Lumen Prints",
			return_address: null,
			support_email: null,
			support_url: null,
			packing_slip_message: null,
			logo_print_file_id: null,
		});
		expect(profile.created_at).toBe(profile.updated_at);
	});

	it("accepts explicit nulls for the optional fields", async () => {
		const { live } = await partnerKeys();
		const profile = await putProfile(live, {
			brand_name: "Lumen Prints",
			return_address: null,
			support_email: null,
			support_url: null,
			packing_slip_message: null,
			logo_print_file_id: null,
		});
		expect(profile.return_address).toBeNull();
		expect(profile.logo_print_file_id).toBeNull();
	});

	it("trims brand_name and support_email, and keeps the message's line breaks with CRLF made LF", async () => {
		const { live } = await partnerKeys();
		const profile = await putProfile(live, {
			brand_name: "  Lumen Prints  ",
			support_email: " help@lumen.example ",
			packing_slip_message: "  Thank you!\r\n\r\nSee you soon.  ",
		});
		expect(profile.brand_name).toBe("Lumen Prints");
		expect(profile.support_email).toBe("help@lumen.example");
		expect(profile.packing_slip_message).toBe("Thank you!\n\nSee you soon.");
	});

	it("accepts brand_name of 100 characters and a message of 1000", async () => {
		const { live } = await partnerKeys();
		const profile = await putProfile(live, { brand_name: "B".repeat(100), packing_slip_message: "m".repeat(1000) });
		expect(profile.brand_name).toHaveLength(100);
		expect(profile.packing_slip_message).toHaveLength(1000);
	});

	it("counts brand_name and the message in characters as a reader counts them: 100 emoji are 100 characters", async () => {
		const { live } = await partnerKeys();
		const profile = await putProfile(live, { brand_name: "🖼".repeat(100), packing_slip_message: "🎁".repeat(1000) });
		expect([...profile.brand_name]).toHaveLength(100);
		expect([...(profile.packing_slip_message ?? "")]).toHaveLength(1000);
		const tooLong = await send("PUT", "/v1/branding", live, { brand_name: "🖼".repeat(101) });
		await expectError(tooLong, "validation_error", "brand_name");
	});

	it("accepts an http support_url as well as https", async () => {
		const { live } = await partnerKeys();
		const profile = await putProfile(live, { brand_name: "Lumen", support_url: "http://lumen.example/help" });
		expect(profile.support_url).toBe("http://lumen.example/help");
	});

	it("a second PUT replaces the whole profile: fields left out are cleared, created_at is kept", async () => {
		const { partner, live } = await partnerKeys();
		const logo = await uploadImage(live, encodePng(400, 200), "image/png");
		const first = await putProfile(live, fullProfile(logo));
		const second = await putProfile(live, { brand_name: "Lumen Editions", support_email: "care@lumen.example" });
		expect(second).toEqual({
			brand_name: "Lumen Editions",
			return_address: null,
			support_email: "care@lumen.example",
			support_url: null,
			packing_slip_message: null,
			logo_print_file_id: null,
			created_at: first.created_at,
			updated_at: expect.stringMatching(ISO_UTC),
		});
		expect(second.updated_at >= first.updated_at).toBe(true);
		expect(await (await getBranding(live)).json()).toEqual(second);
		const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM brand_profiles WHERE account_id = ?1")
			.bind(partner.account.id)
			.first<{ n: number }>();
		expect(rows?.n).toBe(1);
	});

	it("a refused PUT leaves the stored profile as it was", async () => {
		const { live } = await partnerKeys();
		const stored = await putProfile(live, { brand_name: "Lumen Prints", support_email: "help@lumen.example" });
		await expectError(
			await putBranding(live, { brand_name: "Lumen Prints", support_email: "not an email" }),
			"validation_error",
			"support_email",
		);
		await logoRefusal(live, "pf_missing");
		expect(await (await getBranding(live)).json()).toEqual(stored);
	});
});

describe("PUT /v1/branding: request rules", () => {
	it("a missing brand_name is a 400 naming it", async () => {
		const { live } = await partnerKeys();
		await expectError(await putBranding(live, { support_email: "help@lumen.example" }), "bad_request", "brand_name");
	});

	it("malformed JSON, and a body that is not an object, are a 400", async () => {
		const { live } = await partnerKeys();
		await expectError(await api("/v1/branding", { method: "PUT", key: live, body: "{" }), "bad_request");
		await expectError(await putBranding(live, ["Lumen"]), "bad_request");
	});

	const refused: Array<{ name: string; body: Record<string, unknown>; field: string }> = [
		{ name: "a blank brand_name", body: { brand_name: "   " }, field: "brand_name" },
		{ name: "a brand_name of 101 characters", body: { brand_name: "B".repeat(101) }, field: "brand_name" },
		{ name: "a brand_name with a control character", body: { brand_name: "Lumen\u0007Prints" }, field: "brand_name" },
		{ name: "a brand_name with a line break", body: { brand_name: "Lumen\nPrints" }, field: "brand_name" },
		{ name: "a brand_name that is not a string", body: { brand_name: 42 }, field: "brand_name" },
		{ name: "a brand_name with half an emoji", body: { brand_name: "Lumen \ud83c" }, field: "brand_name" },
		{
			name: "a US return_address with a malformed ZIP",
			body: { brand_name: "Lumen", return_address: { ...RETURN_ADDRESS, zip: "ABCDE" } },
			field: "return_address.zip",
		},
		{
			name: "a US return_address with a state that is not one",
			body: { brand_name: "Lumen", return_address: { ...RETURN_ADDRESS, state: "XX" } },
			field: "return_address.state",
		},
		{
			name: "a return_address with an unknown country",
			body: { brand_name: "Lumen", return_address: { ...RETURN_ADDRESS, country: "ZZ" } },
			field: "return_address.country",
		},
		{
			name: "a return_address with an unknown field",
			body: { brand_name: "Lumen", return_address: { ...RETURN_ADDRESS, company: "Lumen LLC" } },
			field: "return_address.company",
		},
		{
			name: "a support_email that is not one",
			body: { brand_name: "Lumen", support_email: "help" },
			field: "support_email",
		},
		{
			name: "a javascript: support_url",
			body: { brand_name: "Lumen", support_url: "javascript:alert(1)" },
			field: "support_url",
		},
		{ name: "a relative support_url", body: { brand_name: "Lumen", support_url: "/help" }, field: "support_url" },
		{
			name: "an ftp support_url",
			body: { brand_name: "Lumen", support_url: "ftp://lumen.example/" },
			field: "support_url",
		},
		{
			name: "a support_url with a space in it",
			body: { brand_name: "Lumen", support_url: "https://lumen.example/a b" },
			field: "support_url",
		},
		{
			name: "a support_url with a control character in it",
			body: { brand_name: "Lumen", support_url: "https://lumen.example/help\u0007" },
			field: "support_url",
		},
		{
			name: "a support_url led by a control character (which the URL parser would drop)",
			body: { brand_name: "Lumen", support_url: "\u0001https://lumen.example/help" },
			field: "support_url",
		},
		{
			name: "a brand_name with a bidirectional override (U+202E)",
			body: { brand_name: "Lumen \u202eStnirp" },
			field: "brand_name",
		},
		{
			name: "a brand_name with a bidirectional isolate (U+2067)",
			body: { brand_name: "\u2067Lumen Prints" },
			field: "brand_name",
		},
		{
			name: "a packing_slip_message of 1001 characters",
			body: { brand_name: "Lumen", packing_slip_message: "m".repeat(1001) },
			field: "packing_slip_message",
		},
		{
			name: "a packing_slip_message with a control character",
			body: { brand_name: "Lumen", packing_slip_message: "Thanks\u0000" },
			field: "packing_slip_message",
		},
		{
			name: "a packing_slip_message with half an emoji",
			body: { brand_name: "Lumen", packing_slip_message: "Thanks \ud83d" },
			field: "packing_slip_message",
		},
		{
			name: "a packing_slip_message with a tab",
			body: { brand_name: "Lumen", packing_slip_message: "Thanks\tagain" },
			field: "packing_slip_message",
		},
		{
			name: "an empty logo_print_file_id",
			body: { brand_name: "Lumen", logo_print_file_id: "" },
			field: "logo_print_file_id",
		},
		{ name: "an unknown field", body: { brand_name: "Lumen", brand_colour: "#123456" }, field: "brand_colour" },
		{
			name: "account_id (no mass assignment)",
			body: { brand_name: "Lumen", account_id: "acct_x" },
			field: "account_id",
		},
		{
			name: "created_at (no mass assignment)",
			body: { brand_name: "Lumen", created_at: "2020-01-01T00:00:00.000Z" },
			field: "created_at",
		},
	];
	for (const { name, body, field } of refused) {
		it(`${name} is a 422 on ${field}, and stores nothing`, async () => {
			const { live } = await partnerKeys();
			await expectError(await putBranding(live, body), "validation_error", field);
			await expectError(await getBranding(live), "not_found");
		});
	}

	it("a US return_address without state is a 400 on return_address.state, as for ship_to", async () => {
		const { live } = await partnerKeys();
		const { state: _state, ...withoutState } = RETURN_ADDRESS;
		await expectError(
			await putBranding(live, { brand_name: "Lumen", return_address: withoutState }),
			"bad_request",
			"return_address.state",
		);
	});

	it("a return_address without its required city is a 400 on return_address.city", async () => {
		const { live } = await partnerKeys();
		const { city: _city, ...withoutCity } = RETURN_ADDRESS;
		await expectError(
			await putBranding(live, { brand_name: "Lumen", return_address: withoutCity }),
			"bad_request",
			"return_address.city",
		);
	});

	it("accepts a GB return address with a postcode and no state", async () => {
		const { live } = await partnerKeys();
		const address = { name: "Lumen UK", address1: "1 Print Lane", city: "London", zip: "SW1A 1AA", country: "GB" };
		const profile = await putProfile(live, { brand_name: "Lumen", return_address: address });
		expect(profile.return_address).toEqual(address);
	});
});

describe("PUT /v1/branding: logo_print_file_id", () => {
	it("accepts a real 400 × 200 PNG, inspected at the PUT even if nobody read the file before", async () => {
		const { live } = await partnerKeys();
		const logo = await uploadImage(live, encodePng(400, 200), "image/png");
		const profile = await putProfile(live, { brand_name: "Lumen", logo_print_file_id: logo });
		expect(profile.logo_print_file_id).toBe(logo);
	});

	it("accepts a real 400 × 200 JPEG", async () => {
		const { live } = await partnerKeys();
		const logo = await uploadImage(live, encodeJpeg(400, 200), "image/jpeg");
		expect((await putProfile(live, { brand_name: "Lumen", logo_print_file_id: logo })).logo_print_file_id).toBe(logo);
	});

	it("accepts a file uploaded with the account's test key in a PUT with its live key (either mode)", async () => {
		const { live, test } = await partnerKeys();
		const logo = await uploadImage(test, encodePng(400, 200), "image/png");
		expect((await putProfile(live, { brand_name: "Lumen", logo_print_file_id: logo })).logo_print_file_id).toBe(logo);
	});

	it(`accepts exactly ${LOGO_MAX_SIDE_PX} px on the long side`, async () => {
		const { live } = await partnerKeys();
		const logo = await uploadImage(live, encodePng(LOGO_MAX_SIDE_PX, 40), "image/png");
		expect((await putProfile(live, { brand_name: "Lumen", logo_print_file_id: logo })).logo_print_file_id).toBe(logo);
	});

	it("refuses a 2400 × 100 PNG (too wide) with a 422 that gives the limit and the size", async () => {
		const { live } = await partnerKeys();
		const logo = await uploadImage(live, encodePng(2400, 100), "image/png");
		const message = await logoRefusal(live, logo);
		expect(message).toContain(String(LOGO_MAX_SIDE_PX));
		expect(message).toContain("2400 × 100");
	});

	it(`refuses a portrait PNG ${LOGO_MAX_SIDE_PX + 1} px tall`, async () => {
		const { live } = await partnerKeys();
		const logo = await uploadImage(live, encodePng(40, LOGO_MAX_SIDE_PX + 1), "image/png");
		expect(await logoRefusal(live, logo)).toContain("long side");
	});

	it("accepts a PNG of exactly 4 MiB and refuses one a byte larger", async () => {
		const { live } = await partnerKeys();
		const atLimit = await uploadImage(live, materialize(largePng(LOGO_MAX_BYTES, 400, 200)), "image/png");
		expect((await putProfile(live, { brand_name: "Lumen", logo_print_file_id: atLimit })).logo_print_file_id).toBe(
			atLimit,
		);
		const over = await uploadImage(live, materialize(largePng(LOGO_MAX_BYTES + 1, 400, 200)), "image/png");
		expect(await logoRefusal(live, over)).toContain(String(LOGO_MAX_BYTES));
	});

	it("refuses a TIFF, readable as it is, with a 422 that asks for PNG or JPEG", async () => {
		const { live } = await partnerKeys();
		const tiff = buildTiff({ order: "II", ifdAt: "start", layout: "strips", width: 64, height: 32 });
		const logo = await uploadImage(live, tiff, "image/tiff");
		const file = await api(`/v1/print-files/${logo}`, { key: live });
		expect(await file.json()).toMatchObject({ status: "ready", format: "tiff" });
		expect(await logoRefusal(live, logo)).toContain("PNG or JPEG");
	});

	it("refuses a file not uploaded yet", async () => {
		const { live } = await partnerKeys();
		const ticket = await requestUpload(live, { content_type: "image/png" });
		expect(await logoRefusal(live, ticket.id)).toContain("uploaded");
	});

	it("refuses an unreadable file (text uploaded as a PNG)", async () => {
		const { live } = await partnerKeys();
		const logo = await uploadImage(live, new TextEncoder().encode("not an image at all, just text"), "image/png");
		expect(await logoRefusal(live, logo)).toContain("readable");
	});

	it("refuses a truncated PNG", async () => {
		const { live } = await partnerKeys();
		const png = encodePng(400, 200);
		const logo = await uploadImage(live, png.subarray(0, png.length - 20), "image/png");
		await logoRefusal(live, logo);
	});

	it("refuses an id the account does not have", async () => {
		const { live } = await partnerKeys();
		await logoRefusal(live, "pf_doesnotexist");
	});

	it("refuses another account's file, ready as it is", async () => {
		const owner = await partnerKeys();
		const other = await partnerKeys();
		const logo = await uploadImage(owner.live, encodePng(400, 200), "image/png");
		await logoRefusal(other.live, logo);
		await expectError(await getBranding(other.live), "not_found");
	});
});

describe("/v1/branding: a profile per mode, so a test key never changes the live brand", () => {
	it("a PUT with the live key is not the test key's: the test key reads a 404 until it sets its own", async () => {
		const { live, test } = await partnerKeys();
		const stored = await putProfile(live, { brand_name: "Lumen Prints", return_address: RETURN_ADDRESS });
		const error = await expectError(await getBranding(test), "not_found");
		expect(error.code).toBe("brand_profile_not_found");
		expect(error.message).toContain("test");
		expect(await (await getBranding(live)).json()).toEqual(stored);
	});

	it("a PUT with the test key sets the test profile and leaves the live one as it was", async () => {
		const { live, test } = await partnerKeys();
		const liveProfile = await putProfile(live, { brand_name: "Live Name" });
		const testProfile = await putProfile(test, { brand_name: "Test Name" });
		expect(await (await getBranding(live)).json()).toEqual(liveProfile);
		expect(await (await getBranding(test)).json()).toEqual(testProfile);
	});

	it("a DELETE with the test key removes the test profile only: the live one stays", async () => {
		const { live, test } = await partnerKeys();
		const liveProfile = await putProfile(live, { brand_name: "Lumen Prints" });
		await putProfile(test, { brand_name: "Lumen Sandbox" });
		expect((await api("/v1/branding", { method: "DELETE", key: test })).status).toBe(204);
		expect(await (await getBranding(live)).json()).toEqual(liveProfile);
		await expectError(await getBranding(test), "not_found");
		// And with no test profile at all, the test key's DELETE is a 404, the live one untouched.
		await expectError(await api("/v1/branding", { method: "DELETE", key: test }), "not_found");
		expect(await (await getBranding(live)).json()).toEqual(liveProfile);
	});
});

describe("DELETE /v1/branding", () => {
	it("is a 204 with no body, after which GET is a 404", async () => {
		const { live } = await partnerKeys();
		await putProfile(live, { brand_name: "Lumen Prints" });
		const response = await api("/v1/branding", { method: "DELETE", key: live });
		expect(response.status).toBe(204);
		expect(await response.text()).toBe("");
		await expectError(await getBranding(live), "not_found");
	});

	it("is a 404 when there is no profile (also the second time)", async () => {
		const { live } = await partnerKeys();
		await expectError(await api("/v1/branding", { method: "DELETE", key: live }), "not_found");
		await putProfile(live, { brand_name: "Lumen Prints" });
		expect((await api("/v1/branding", { method: "DELETE", key: live })).status).toBe(204);
		await expectError(await api("/v1/branding", { method: "DELETE", key: live }), "not_found");
	});

	it("removes only this account's profile", async () => {
		const first = await partnerKeys();
		const second = await partnerKeys();
		await putProfile(first.live, { brand_name: "First Brand" });
		const kept = await putProfile(second.live, { brand_name: "Second Brand" });
		expect((await api("/v1/branding", { method: "DELETE", key: first.live })).status).toBe(204);
		expect(await (await getBranding(second.live)).json()).toEqual(kept);
	});

	it("a PUT after a DELETE starts a new profile", async () => {
		const { live } = await partnerKeys();
		await putProfile(live, { brand_name: "Old Name", support_email: "old@lumen.example" });
		expect((await api("/v1/branding", { method: "DELETE", key: live })).status).toBe(204);
		const fresh = await putProfile(live, { brand_name: "New Name" });
		expect(fresh).toMatchObject({ brand_name: "New Name", support_email: null });
	});
});

describe("/v1/branding: authorization", () => {
	it("each method without a key is a 401", async () => {
		await expectError(await api("/v1/branding"), "unauthorized");
		await expectError(
			await api("/v1/branding", { method: "PUT", body: JSON.stringify({ brand_name: "X" }) }),
			"unauthorized",
		);
		await expectError(await api("/v1/branding", { method: "DELETE" }), "unauthorized");
	});

	it("a wrong method (POST, PATCH) is a 404 not_found, as on every known path", async () => {
		const { live } = await partnerKeys();
		await expectError(await send("POST", "/v1/branding", live, { brand_name: "Lumen" }), "not_found");
		await expectError(await send("PATCH", "/v1/branding", live, { brand_name: "Lumen" }), "not_found");
	});

	it("an unknown key is a 401", async () => {
		await expectError(await getBranding("fps_live_00000000000000000000000000000000"), "unauthorized");
	});

	it("a key with orders:read only reads, but cannot PUT or DELETE (403)", async () => {
		const readOnly = await createKeyWithScopes(["orders:read"]);
		await expectError(await getBranding(readOnly), "not_found");
		await expectError(await putBranding(readOnly, { brand_name: "Lumen" }), "forbidden");
		await expectError(await api("/v1/branding", { method: "DELETE", key: readOnly }), "forbidden");
		await expectError(await getBranding(readOnly), "not_found");
	});

	it("a key with orders:write but not orders:read can PUT and DELETE, not GET (403)", async () => {
		const writeOnly = await createKeyWithScopes(["orders:write"]);
		await putProfile(writeOnly, { brand_name: "Lumen" });
		await expectError(await getBranding(writeOnly), "forbidden");
		expect((await api("/v1/branding", { method: "DELETE", key: writeOnly })).status).toBe(204);
	});

	it("ops and admin keys are a 403 on every method", async () => {
		for (const key of [await createKeyWithScopes(["ops"]), await createKeyWithScopes(["admin"])]) {
			await expectError(await getBranding(key), "forbidden");
			await expectError(await putBranding(key, { brand_name: "Lumen" }), "forbidden");
			await expectError(await api("/v1/branding", { method: "DELETE", key }), "forbidden");
		}
	});
});
