import { describe, expect, it } from "vitest";
import { signatureHeader, verifySignature } from "../../src/webhooks/signature.ts";
import { digestsOf } from "./webhook-helpers.ts";

const NOW = 1_800_000_000;
const SECRET = "whsec_test_current";
const OLD_SECRET = "whsec_test_previous";
const BODY = JSON.stringify({
	id: "evt_01",
	event: "order.shipped",
	created_at: "2027-01-15T08:00:00Z",
	order_id: "ord_01",
	external_id: "shop-42",
	status: "shipped",
	tracking: { carrier: "UPS", number: "1Z999", url: "https://ups.example/1Z999" },
	shipped_at: "2027-01-15T08:00:00Z",
});
const TOLERANCE = { toleranceSeconds: 300, nowSeconds: NOW };

describe("signatureHeader", () => {
	it("has the shape t=<seconds>,v1=<64 hex>", async () => {
		expect(await signatureHeader(BODY, [SECRET], NOW)).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
	});

	it("the digest is plain HMAC-SHA256 of the body (RFC 4231 test case 2)", async () => {
		const header = await signatureHeader("what do ya want for nothing?", ["Jefe"], NOW);
		expect(digestsOf(header)).toEqual(["5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"]);
	});

	it("the timestamp is not signed: the same body gives the same digest at any time", async () => {
		const early = await signatureHeader(BODY, [SECRET], NOW);
		const late = await signatureHeader(BODY, [SECRET], NOW + 3600);
		expect(digestsOf(early)).toEqual(digestsOf(late));
	});

	it("signs the body as UTF-8", async () => {
		const header = await signatureHeader('{"name":"Zoë 🖼"}', [SECRET], NOW);
		expect(await verifySignature('{"name":"Zoë 🖼"}', header, [SECRET], TOLERANCE)).toBe(true);
		expect(await verifySignature('{"name":"Zoe 🖼"}', header, [SECRET], TOLERANCE)).toBe(false);
	});

	it("during a rotation carries one v1 per secret, new first", async () => {
		const header = await signatureHeader(BODY, [SECRET, OLD_SECRET], NOW);
		const onlyNew = await signatureHeader(BODY, [SECRET], NOW);
		const onlyOld = await signatureHeader(BODY, [OLD_SECRET], NOW);
		expect(digestsOf(header)).toEqual([...digestsOf(onlyNew), ...digestsOf(onlyOld)]);
	});

	it("refuses to sign with no secret at all", async () => {
		await expect(signatureHeader(BODY, [], NOW)).rejects.toThrow(TypeError);
	});
});

describe("verifySignature", () => {
	it("accepts a header made by signatureHeader", async () => {
		const header = await signatureHeader(BODY, [SECRET], NOW);
		expect(await verifySignature(BODY, header, [SECRET], TOLERANCE)).toBe(true);
	});

	it("rejects the wrong secret", async () => {
		const header = await signatureHeader(BODY, [SECRET], NOW);
		expect(await verifySignature(BODY, header, ["whsec_someone_else"], TOLERANCE)).toBe(false);
	});

	it("rejects a body changed by one byte", async () => {
		const header = await signatureHeader(BODY, [SECRET], NOW);
		const tampered = BODY.replace("1Z999", "1Z998");
		expect(tampered).not.toBe(BODY);
		expect(await verifySignature(tampered, header, [SECRET], TOLERANCE)).toBe(false);
		expect(await verifySignature(`${BODY} `, header, [SECRET], TOLERANCE)).toBe(false);
	});

	it("rejects a digest changed by one hex digit", async () => {
		const header = await signatureHeader(BODY, [SECRET], NOW);
		const last = header.at(-1);
		const tampered = `${header.slice(0, -1)}${last === "0" ? "1" : "0"}`;
		expect(await verifySignature(BODY, tampered, [SECRET], TOLERANCE)).toBe(false);
	});

	it("rejects a header without t", async () => {
		const header = await signatureHeader(BODY, [SECRET], NOW);
		const withoutT = header.replace(/^t=\d+,/, "");
		expect(withoutT.startsWith("v1=")).toBe(true);
		expect(await verifySignature(BODY, withoutT, [SECRET], TOLERANCE)).toBe(false);
	});

	it("rejects t further than the tolerance in either direction, and accepts it at the edge", async () => {
		const header = await signatureHeader(BODY, [SECRET], NOW);
		expect(await verifySignature(BODY, header, [SECRET], { toleranceSeconds: 300, nowSeconds: NOW + 301 })).toBe(false);
		expect(await verifySignature(BODY, header, [SECRET], { toleranceSeconds: 300, nowSeconds: NOW - 301 })).toBe(false);
		expect(await verifySignature(BODY, header, [SECRET], { toleranceSeconds: 300, nowSeconds: NOW + 300 })).toBe(true);
		expect(await verifySignature(BODY, header, [SECRET], { toleranceSeconds: 300, nowSeconds: NOW - 300 })).toBe(true);
	});

	it("uses the real clock when no time is given", async () => {
		const header = await signatureHeader(BODY, [SECRET], Math.floor(Date.now() / 1000));
		expect(await verifySignature(BODY, header, [SECRET], { toleranceSeconds: 300 })).toBe(true);
		const stale = await signatureHeader(BODY, [SECRET], Math.floor(Date.now() / 1000) - 3600);
		expect(await verifySignature(BODY, stale, [SECRET], { toleranceSeconds: 300 })).toBe(false);
	});

	it("a NaN tolerance rejects rather than accepting everything", async () => {
		const header = await signatureHeader(BODY, [SECRET], NOW);
		expect(await verifySignature(BODY, header, [SECRET], { toleranceSeconds: Number.NaN, nowSeconds: NOW })).toBe(
			false,
		);
	});

	it.each([
		["an empty header", ""],
		["garbage", "garbage"],
		["a non-numeric t and a short digest", "t=abc,v1=zz"],
		["a fractional t", `t=${NOW}.5,v1=${"0".repeat(64)}`],
		["a negative t", `t=-${NOW},v1=${"0".repeat(64)}`],
		["no v1", `t=${NOW}`],
		["a digest that is not hex", `t=${NOW},v1=${"g".repeat(64)}`],
		["a digest one byte short", `t=${NOW},v1=${"0".repeat(62)}`],
		["only separators", ",,,=,=="],
	])("returns false without throwing for %s", async (_, header) => {
		expect(await verifySignature(BODY, header, [SECRET], TOLERANCE)).toBe(false);
	});

	it("returns false for two conflicting timestamps", async () => {
		const header = await signatureHeader(BODY, [SECRET], NOW);
		expect(await verifySignature(BODY, `t=${NOW - 9999},${header}`, [SECRET], TOLERANCE)).toBe(false);
	});

	it("returns false with no secrets to check against", async () => {
		const header = await signatureHeader(BODY, [SECRET], NOW);
		expect(await verifySignature(BODY, header, [], TOLERANCE)).toBe(false);
	});

	it("tolerates spaces, unknown keys and an upper-case digest", async () => {
		const header = await signatureHeader(BODY, [SECRET], NOW);
		const [digest = ""] = digestsOf(header);
		const loose = ` t = ${NOW} , v0=legacy, scheme=hmac ,v1= ${digest.toUpperCase()} `;
		expect(await verifySignature(BODY, loose, [SECRET], TOLERANCE)).toBe(true);
	});

	it("accepts a match in any v1 entry", async () => {
		const header = await signatureHeader(BODY, [SECRET], NOW);
		const [digest = ""] = digestsOf(header);
		const wrong = "0".repeat(64);
		expect(await verifySignature(BODY, `t=${NOW},v1=${wrong},v1=${digest}`, [SECRET], TOLERANCE)).toBe(true);
	});

	describe("secret rotation (two v1 entries, new first)", () => {
		it("a receiver holding only the new secret verifies", async () => {
			const header = await signatureHeader(BODY, [SECRET, OLD_SECRET], NOW);
			expect(await verifySignature(BODY, header, [SECRET], TOLERANCE)).toBe(true);
		});

		it("a receiver still holding only the old secret verifies", async () => {
			const header = await signatureHeader(BODY, [SECRET, OLD_SECRET], NOW);
			expect(await verifySignature(BODY, header, [OLD_SECRET], TOLERANCE)).toBe(true);
		});

		it("a receiver holding both verifies a header signed with either alone", async () => {
			const newOnly = await signatureHeader(BODY, [SECRET], NOW);
			const oldOnly = await signatureHeader(BODY, [OLD_SECRET], NOW);
			expect(await verifySignature(BODY, newOnly, [OLD_SECRET, SECRET], TOLERANCE)).toBe(true);
			expect(await verifySignature(BODY, oldOnly, [OLD_SECRET, SECRET], TOLERANCE)).toBe(true);
		});

		it("a receiver holding neither is rejected", async () => {
			const header = await signatureHeader(BODY, [SECRET, OLD_SECRET], NOW);
			expect(await verifySignature(BODY, header, ["whsec_unrelated"], TOLERANCE)).toBe(false);
		});
	});
});
