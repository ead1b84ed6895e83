/**
 * Whether a form post comes from another site, judged from what the browser says of it: `Origin` and
 * `Sec-Fetch-Site` (both set by the browser, never by a page's script). Console pages are served with
 * `Referrer-Policy: no-referrer`, under which browsers send `Origin: null` even for a same-origin
 * post; `Sec-Fetch-Site: same-origin` then tells it apart from an opaque origin (a sandboxed frame, a
 * data: page), which is refused. A request with neither header is not a browser's form post: the
 * form token still guards those.
 */
export function isCrossSitePost(
	headers: { origin: string | undefined; secFetchSite: string | undefined },
	ownOrigin: string,
): boolean {
	const { origin, secFetchSite } = headers;
	if (secFetchSite !== undefined && secFetchSite !== "same-origin") return true;
	if (origin === undefined) return false;
	if (origin === "null") return secFetchSite !== "same-origin";
	return origin !== ownOrigin;
}
