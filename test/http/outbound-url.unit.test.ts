import { describe, expect, it } from "vitest";
import { normalisedUrl, outboundUrlProblem } from "../../src/http/outbound-url.ts";

const strict = { allowLocal: false };
const local = { allowLocal: true };

describe("outboundUrlProblem", () => {
	it("accepts a public https URL, with a port, path, query and an IP literal in a public range", () => {
		for (const url of [
			"https://example.com/hooks/orders",
			"https://hooks.example.co.uk:8443/a?b=c#d",
			"https://8.8.8.8/hook",
			"https://[2606:4700:4700::1111]/hook",
			"https://[::ffff:8.8.8.8]/hook",
			"https://172.32.0.1/",
			"https://100.128.0.1/",
		]) {
			expect(outboundUrlProblem(url, strict), url).toBeNull();
			expect(outboundUrlProblem(url, local), url).toBeNull();
		}
	});

	it("refuses a relative or unparseable URL", () => {
		for (const url of ["/hooks", "example.com/hooks", "", "https://", "https://exa mple.com/"]) {
			expect(outboundUrlProblem(url, strict), url).toMatch(/absolute/);
			expect(outboundUrlProblem(url, local), url).toMatch(/absolute/);
		}
	});

	it("refuses http unless local calls are allowed, and other schemes always", () => {
		expect(outboundUrlProblem("http://example.com/hook", strict)).toBe("The URL must use https.");
		expect(outboundUrlProblem("http://example.com/hook", local)).toBeNull();
		for (const url of ["ftp://example.com/a.tif", "file:///etc/passwd", "data:text/plain,hi", "javascript:alert(1)"]) {
			expect(outboundUrlProblem(url, strict), url).toBe("The URL must use https.");
			expect(outboundUrlProblem(url, local), url).toBe("The URL must use https or http.");
		}
	});

	it("refuses credentials in the URL, with either setting", () => {
		for (const url of [
			"https://user:secret@example.com/",
			"https://user@example.com/",
			"https://:secret@example.com/",
		]) {
			expect(outboundUrlProblem(url, strict), url).toMatch(/username or password/);
			expect(outboundUrlProblem(url, local), url).toMatch(/username or password/);
		}
	});

	it("refuses localhost and *.localhost, in any case and with a trailing dot, unless local calls are allowed", () => {
		for (const url of [
			"https://localhost/hook",
			"https://LOCALHOST:8443/hook",
			"https://localhost./hook",
			"https://api.localhost/hook",
			"http://dev.app.localhost:8787/hook",
		]) {
			if (url.startsWith("https:")) expect(outboundUrlProblem(url, strict), url).toMatch(/is local/);
			expect(outboundUrlProblem(url, local), url).toBeNull();
		}
		// A name that merely contains the word is an ordinary host.
		expect(outboundUrlProblem("https://localhost.example.com/", strict)).toBeNull();
		expect(outboundUrlProblem("https://mylocalhost/", strict)).toBeNull();
	});

	it("refuses IPv4 loopback in every spelling the URL parser accepts, unless local calls are allowed", () => {
		for (const url of [
			"https://127.0.0.1/",
			"https://127.1/",
			"https://2130706433/",
			"https://0x7f.0.0.1/",
			"https://0177.0.0.1/",
			"https://127.255.255.254./",
		]) {
			expect(outboundUrlProblem(url, strict), url).toMatch(/loopback address \(127\.0\.0\.0\/8\)/);
			expect(outboundUrlProblem(url, local), url).toBeNull();
		}
	});

	it("refuses private, CGNAT, link-local, unspecified, multicast and reserved IPv4 ranges, with either setting", () => {
		const cases: [string, RegExp][] = [
			["https://0.0.0.0/", /unspecified/],
			["https://0/", /unspecified/],
			["https://10.1.2.3/", /private address \(10\.0\.0\.0\/8\)/],
			["https://172.16.0.1/", /private address \(172\.16\.0\.0\/12\)/],
			["https://172.31.255.255/", /private/],
			["https://192.168.1.10/", /private address \(192\.168\.0\.0\/16\)/],
			["https://0xc0.0xa8.1.1/", /private/],
			["https://100.64.0.1/", /carrier-grade NAT/],
			["https://100.127.255.255/", /carrier-grade NAT/],
			["https://169.254.169.254/latest/meta-data/", /link-local/],
			["https://224.0.0.1/", /multicast/],
			["https://239.255.255.250/", /multicast/],
			["https://240.0.0.1/", /reserved/],
			["https://255.255.255.255/", /reserved/],
			["https://192.0.2.7/", /documentation/],
			["https://198.18.0.1/", /benchmarking/],
		];
		for (const [url, reason] of cases) {
			expect(outboundUrlProblem(url, strict), url).toMatch(reason);
			expect(outboundUrlProblem(url, local), url).toMatch(reason);
		}
	});

	it("refuses IPv6 loopback, also as IPv4-mapped, unless local calls are allowed", () => {
		for (const url of [
			"https://[::1]/",
			"https://[0:0:0:0:0:0:0:1]/",
			"https://[::ffff:127.0.0.1]/",
			"https://[::ffff:7f00:1]/",
		]) {
			expect(outboundUrlProblem(url, strict), url).toMatch(/loopback/);
			expect(outboundUrlProblem(url, local), url).toBeNull();
		}
	});

	it("refuses unspecified, unique-local, link-local, multicast, mapped-private and reserved IPv6, with either setting", () => {
		const cases: [string, RegExp][] = [
			["https://[::]/", /unspecified/],
			["https://[fc00::1]/", /unique local/],
			["https://[fd12:3456:789a::1]/", /unique local/],
			["https://[fe80::1]/", /link-local/],
			["https://[febf:ffff::1]/", /link-local/],
			["https://[ff02::1]/", /multicast/],
			["https://[::ffff:10.0.0.1]/", /private address \(10\.0\.0\.0\/8\)/],
			["https://[::ffff:a9fe:a9fe]/", /link-local/],
			["https://[::ffff:0.0.0.0]/", /unspecified/],
			["https://[2001:db8::1]/", /documentation/],
			["https://[2002:7f00:1::]/", /6to4/],
			["https://[::127.0.0.1]/", /reserved/],
			["https://[64:ff9b::7f00:1]/", /reserved/],
			["https://[fec0::1]/", /reserved/],
		];
		for (const [url, reason] of cases) {
			expect(outboundUrlProblem(url, strict), url).toMatch(reason);
			expect(outboundUrlProblem(url, local), url).toMatch(reason);
		}
	});

	it("says why in a sentence that names the host", () => {
		expect(outboundUrlProblem("https://10.0.0.1/hook", strict)).toBe(
			"The URL's host 10.0.0.1 is a private address (10.0.0.0/8); the service only calls public hosts.",
		);
	});
});

describe("normalisedUrl", () => {
	it("writes every spelling of one URL the same: case, dot segments, IPv4 forms, default port, empty query, fragment", () => {
		const one = "http://127.0.0.1:8787/hook";
		for (const spelling of [
			one,
			`${one}?`,
			`${one}#x`,
			`${one}?#x`,
			"HTTP://127.0.0.1:8787/hook",
			"http://2130706433:8787/hook",
			"http://0x7f.1:8787/hook",
			"http://127.0.0.1.:8787/hook",
			"http://127.0.0.1:8787/./hook",
			"http://127.0.0.1:8787/a/../hook",
			"http:\\\\127.0.0.1:8787\\hook",
		]) {
			expect(normalisedUrl(spelling), spelling).toBe(one);
		}
		expect(normalisedUrl("https://Hooks.Example:443")).toBe("https://hooks.example/");
		expect(normalisedUrl("https:hooks.example/a")).toBe("https://hooks.example/a");
		expect(normalisedUrl("https://bücher.example/a")).toBe("https://xn--bcher-kva.example/a");
		expect(normalisedUrl("https://[::FFFF:7F00:1]/")).toBe("https://[::ffff:7f00:1]/");
	});

	it("keeps what does tell URLs apart: the path's case, a query that is not empty, another port", () => {
		expect(normalisedUrl("https://hooks.example/Hook")).toBe("https://hooks.example/Hook");
		expect(normalisedUrl("https://hooks.example/hook?a=1#x")).toBe("https://hooks.example/hook?a=1");
		expect(normalisedUrl("https://hooks.example/hook??")).toBe("https://hooks.example/hook??");
		expect(normalisedUrl("https://hooks.example:8443/hook")).toBe("https://hooks.example:8443/hook");
		expect(normalisedUrl("/hook")).toBeNull();
	});

	it("is judged by the outbound rules as the URL it normalises: the rules read the parsed host, not the text", () => {
		for (const raw of [
			"https://%31%32%37.0.0.1/",
			"https://local%68ost/",
			"https:\\\\10.0.0.1\\x",
			"https:2130706433/x",
			"HTTPS://[::FFFF:7F00:1]/#x",
			"https://hooks.example/?",
			"http://0x7f.1:8787/./hook",
		]) {
			const normal = normalisedUrl(raw) ?? "";
			for (const options of [strict, local]) {
				expect(outboundUrlProblem(normal, options), raw).toBe(outboundUrlProblem(raw, options));
			}
		}
		expect(outboundUrlProblem("https://%31%32%37.0.0.1/", strict)).toMatch(/loopback/);
		expect(outboundUrlProblem("https://local%68ost/", strict)).toMatch(/is local/);
	});
});
