import { describe, expect, it } from "vitest";
import { isCrossSitePost } from "../../src/http/cross-site.ts";

const OWN = "https://floor.example";

describe("isCrossSitePost", () => {
	it("a post naming the console's own origin is same-site", () => {
		expect(isCrossSitePost({ origin: OWN, secFetchSite: "same-origin" }, OWN)).toBe(false);
		expect(isCrossSitePost({ origin: OWN, secFetchSite: undefined }, OWN)).toBe(false);
	});

	it("Origin null is same-site only when the browser says same-origin (a no-referrer page's own form)", () => {
		expect(isCrossSitePost({ origin: "null", secFetchSite: "same-origin" }, OWN)).toBe(false);
		expect(isCrossSitePost({ origin: "null", secFetchSite: undefined }, OWN)).toBe(true);
		expect(isCrossSitePost({ origin: "null", secFetchSite: "cross-site" }, OWN)).toBe(true);
	});

	it("another origin, or any Sec-Fetch-Site other than same-origin, is cross-site", () => {
		expect(isCrossSitePost({ origin: "https://evil.example", secFetchSite: undefined }, OWN)).toBe(true);
		expect(isCrossSitePost({ origin: "https://evil.example", secFetchSite: "same-origin" }, OWN)).toBe(true);
		expect(isCrossSitePost({ origin: undefined, secFetchSite: "cross-site" }, OWN)).toBe(true);
		expect(isCrossSitePost({ origin: OWN, secFetchSite: "same-site" }, OWN)).toBe(true);
		expect(isCrossSitePost({ origin: undefined, secFetchSite: "none" }, OWN)).toBe(true);
	});

	it("a post with neither header (not a browser's form) is left to the form token", () => {
		expect(isCrossSitePost({ origin: undefined, secFetchSite: undefined }, OWN)).toBe(false);
	});
});
