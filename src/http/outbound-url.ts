/**
 * Whether the service may call a partner-supplied URL (a `callback_url`, a `print_file_url`), judged
 * from the URL alone. Names are not resolved: this refuses what the URL says outright (a private or
 * loopback IP literal, localhost), not a public name that points somewhere private.
 */

type Range = { readonly label: string; readonly cidr: string; readonly loopback?: true };

/** An IPv4 range as [first address, prefix length] plus how to name it in a message. */
type Ipv4Range = Range & { readonly base: number; readonly prefix: number };

function ipv4Range(cidr: string, label: string, loopback?: true): Ipv4Range {
	const [address = "", prefix = ""] = cidr.split("/");
	const base = parseIpv4(address);
	if (base === null) throw new Error(`Bad IPv4 range ${cidr}`);
	return { cidr, label, base, prefix: Number(prefix), ...(loopback ? { loopback } : {}) };
}

/** IPv4 ranges the service never calls (RFC 6890 special-purpose registry, minus the globally reachable). */
const FORBIDDEN_IPV4: readonly Ipv4Range[] = [
	ipv4Range("0.0.0.0/8", "an unspecified (this-network)"),
	ipv4Range("10.0.0.0/8", "a private"),
	ipv4Range("100.64.0.0/10", "a carrier-grade NAT (shared)"),
	ipv4Range("127.0.0.0/8", "a loopback", true),
	ipv4Range("169.254.0.0/16", "a link-local"),
	ipv4Range("172.16.0.0/12", "a private"),
	ipv4Range("192.0.0.0/24", "a reserved (IETF protocol assignments)"),
	ipv4Range("192.0.2.0/24", "a reserved (documentation)"),
	ipv4Range("192.88.99.0/24", "a reserved (6to4 relay)"),
	ipv4Range("192.168.0.0/16", "a private"),
	ipv4Range("198.18.0.0/15", "a reserved (benchmarking)"),
	ipv4Range("198.51.100.0/24", "a reserved (documentation)"),
	ipv4Range("203.0.113.0/24", "a reserved (documentation)"),
	ipv4Range("224.0.0.0/4", "a multicast"),
	ipv4Range("240.0.0.0/4", "a reserved"),
];

/** An IPv6 range as its eight 16-bit groups and prefix length. */
type Ipv6Range = Range & { readonly groups: readonly number[]; readonly prefix: number };

function ipv6Range(cidr: string, label: string, loopback?: true): Ipv6Range {
	const [address = "", prefix = ""] = cidr.split("/");
	const groups = parseIpv6(address);
	if (groups === null) throw new Error(`Bad IPv6 range ${cidr}`);
	return { cidr, label, groups, prefix: Number(prefix), ...(loopback ? { loopback } : {}) };
}

/**
 * IPv6 ranges the service never calls, checked in order. IPv4-mapped addresses (::ffff:0:0/96) are
 * judged by the IPv4 rules before these. Anything outside global unicast (2000::/3) is refused
 * last, which covers the IPv4-compatible, NAT64, discard and site-local blocks.
 */
const FORBIDDEN_IPV6: readonly Ipv6Range[] = [
	ipv6Range("::/128", "an unspecified"),
	ipv6Range("::1/128", "a loopback", true),
	ipv6Range("fc00::/7", "a private (unique local)"),
	ipv6Range("fe80::/10", "a link-local"),
	ipv6Range("ff00::/8", "a multicast"),
	ipv6Range("2001:db8::/32", "a reserved (documentation)"),
	ipv6Range("3fff::/20", "a reserved (documentation)"),
	ipv6Range("2001::/23", "a reserved (IETF protocol assignments)"),
	ipv6Range("2002::/16", "a reserved (6to4)"),
];
const GLOBAL_UNICAST = ipv6Range("2000::/3", "a global unicast");
const IPV4_MAPPED = ipv6Range("::ffff:0:0/96", "an IPv4-mapped");

/** A dotted-quad IPv4 address as an unsigned 32-bit number, or null. */
function parseIpv4(text: string): number | null {
	const parts = text.split(".");
	if (parts.length !== 4) return null;
	let value = 0;
	for (const part of parts) {
		if (!/^\d{1,3}$/.test(part)) return null;
		const octet = Number(part);
		if (octet > 255) return null;
		value = value * 256 + octet;
	}
	return value;
}

/** An IPv6 address (no brackets) as eight 16-bit groups, or null. Accepts `::` and a dotted IPv4 tail. */
function parseIpv6(text: string): number[] | null {
	const halves = text.split("::");
	if (halves.length > 2) return null;
	const groupsOf = (part: string): number[] | null => {
		if (part === "") return [];
		const groups: number[] = [];
		const pieces = part.split(":");
		for (const [index, piece] of pieces.entries()) {
			if (index === pieces.length - 1 && piece.includes(".")) {
				const ipv4 = parseIpv4(piece);
				if (ipv4 === null) return null;
				groups.push(Math.floor(ipv4 / 0x10000), ipv4 % 0x10000);
			} else if (/^[0-9a-f]{1,4}$/i.test(piece)) {
				groups.push(Number.parseInt(piece, 16));
			} else {
				return null;
			}
		}
		return groups;
	};
	const head = groupsOf(halves[0] ?? "");
	const tail = groupsOf(halves[1] ?? "");
	if (head === null || tail === null) return null;
	if (halves.length === 1) return head.length === 8 ? head : null;
	const missing = 8 - head.length - tail.length;
	if (missing < 1) return null;
	return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function inIpv4Range(address: number, range: Ipv4Range): boolean {
	const size = 2 ** (32 - range.prefix);
	return Math.floor(address / size) === Math.floor(range.base / size);
}

function inIpv6Range(groups: readonly number[], range: Ipv6Range): boolean {
	let bitsLeft = range.prefix;
	for (let index = 0; index < 8 && bitsLeft > 0; index++) {
		const bits = Math.min(16, bitsLeft);
		const shift = 16 - bits;
		if ((groups[index] ?? 0) >> shift !== (range.groups[index] ?? 0) >> shift) return false;
		bitsLeft -= bits;
	}
	return true;
}

function rangeProblem(host: string, range: Range, allowLocal: boolean): string | null {
	if (range.loopback && allowLocal) return null;
	return `The URL's host ${host} is ${range.label} address (${range.cidr}); the service only calls public hosts.`;
}

function ipv4Problem(host: string, address: number, allowLocal: boolean): string | null {
	const range = FORBIDDEN_IPV4.find((candidate) => inIpv4Range(address, candidate));
	return range === undefined ? null : rangeProblem(host, range, allowLocal);
}

function ipv6Problem(host: string, groups: readonly number[], allowLocal: boolean): string | null {
	// ::ffff:7f00:1 reaches 127.0.0.1, so a mapped address is whatever its IPv4 address is.
	if (inIpv6Range(groups, IPV4_MAPPED)) {
		return ipv4Problem(host, (groups[6] ?? 0) * 0x10000 + (groups[7] ?? 0), allowLocal);
	}
	const range = FORBIDDEN_IPV6.find((candidate) => inIpv6Range(groups, candidate));
	if (range !== undefined) return rangeProblem(host, range, allowLocal);
	if (!inIpv6Range(groups, GLOBAL_UNICAST)) {
		return `The URL's host ${host} is a reserved address (outside 2000::/3); the service only calls public hosts.`;
	}
	return null;
}

/**
 * `raw` in the one form the service stores and compares an outbound URL in: as the URL parser writes
 * it (scheme and host in lower case, dot segments resolved, a numeric or short IPv4 host as a dotted
 * quad, a non-ASCII host in punycode, the scheme's default port left out), without an empty query
 * (`?`) or a fragment, since neither reaches the receiver. So every spelling of one receiver's URL
 * comes out the same. Null when `raw` is not an absolute URL.
 */
export function normalisedUrl(raw: string): string | null {
	const url = URL.parse(raw);
	if (url === null) return null;
	url.hash = "";
	// Setting the empty query drops the "?" that the parser keeps for a query that was only "?".
	if (url.search === "") url.search = "";
	return url.href;
}

/**
 * Null when the service may call `raw`, else a sentence saying why not. `allowLocal` (development only)
 * also admits `http`, `localhost` and loopback addresses, for a receiver on the developer's machine;
 * private, link-local and other ranges stay refused even then, since a local test never needs them.
 */
export function outboundUrlProblem(raw: string, options: { allowLocal: boolean }): string | null {
	const { allowLocal } = options;
	if (!URL.canParse(raw)) return "The URL must be absolute, such as https://example.com/path.";
	const url = new URL(raw);
	if (url.protocol !== "https:" && !(allowLocal && url.protocol === "http:")) {
		return allowLocal ? "The URL must use https or http." : "The URL must use https.";
	}
	if (url.username !== "" || url.password !== "") return "The URL must not contain a username or password.";
	// The URL parser has already lowercased the host and rewritten IPv4 forms such as 127.1, 2130706433
	// or 0x7f.0.0.1 as dotted quads, and IPv6 in its compressed form.
	const host = url.hostname;
	const name = host.replace(/\.+$/, "");
	if (name === "localhost" || name.endsWith(".localhost")) {
		return allowLocal ? null : `The URL's host ${host} is local; the service only calls public hosts.`;
	}
	if (host.startsWith("[") && host.endsWith("]")) {
		const groups = parseIpv6(host.slice(1, -1));
		return groups === null
			? `The URL's host ${host} is not a valid IPv6 address.`
			: ipv6Problem(host, groups, allowLocal);
	}
	const ipv4 = parseIpv4(host);
	return ipv4 === null ? null : ipv4Problem(host, ipv4, allowLocal);
}
