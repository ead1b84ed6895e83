/**
 * Rules that hold on every page and form of the partner console, checked over its routes as the
 * router lists them (so a page added later is covered without being named here): a form without its
 * token or with a forged one changes nothing, a viewer can change nothing, a revoked user's next
 * request finds them signed out, and the pages a user opens without an id are small, marked as test
 * data in test mode, and never show a bare ISO timestamp.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { partnerConsoleRoutes } from "../../src/partner-console/routes.tsx";
import { revokeUser } from "../../src/partner-users/store.ts";
import { post, signedInUser } from "./console-client.ts";

/** The forms anyone may post, signed in or not: the door itself. */
const DOOR = new Set(["/sign-in", "/invitations/:token", "/sign-out", "/sign-out-everywhere"]);

/** The router's paths for `method`, once each, without the catch-all. */
function pathsOf(method: string): string[] {
	const paths = partnerConsoleRoutes.routes
		.filter((route) => route.method === method && !route.path.includes("*"))
		.map((route) => route.path);
	return [...new Set(paths)];
}

/**
 * A path with each `:param` filled by a made-up id (the checks under test come before any lookup);
 * a param whose pattern names its prefix (`:id{ord_[0-9A-Za-z]{1,64}}`) gets an id of that kind.
 */
function filled(path: string): string {
	const made = path.replace(/:[a-z_]+(\{(?:[^{}]|\{[^{}]*\})*\})?/gi, (_param, pattern: string | undefined) => {
		const prefix = pattern === undefined ? undefined : /^\{([a-z]+_)/.exec(pattern)?.[1];
		return `${prefix ?? "id_"}madeUp0001`;
	});
	return `/partner${made}`.replace(/\/$/, "");
}

const FORMS = pathsOf("POST").filter((path) => !DOOR.has(path));
const GETS = pathsOf("GET").filter((path) => !path.includes(":") && !DOOR.has(path));
/**
 * What is fetched but not a page of its own: downloads (a statement's CSV, the order sheet's template,
 * a preview image: each checked in its part's tests) and a form that opens on an order (`?order=`).
 */
const NOT_PAGES = new Set(["/money/csv", "/claims/new"]);
const PAGES = GETS.filter((path) => !NOT_PAGES.has(path) && !/\.[a-z]+$/.test(path));

/** Pages that are not in the console's frame: the sample packing slip is the buyer's page, its on-screen line names the mode. */
const UNFRAMED = new Set(["/brand/slip-preview"]);

/** An ISO 8601 timestamp in the page's text (not inside an attribute such as `datetime`). */
const BARE_ISO = />[^<]*\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe("every partner console form and page", () => {
	it("has forms to check beyond the door", () => {
		expect(FORMS.length + PAGES.length).toBeGreaterThan(0);
	});

	it.each(FORMS)("POST %s without the form token, or with a forged one, is refused (403)", async (path) => {
		const owner = await signedInUser("owner");
		expect((await post(filled(path), {}, owner.cookie)).status).toBe(403);
		expect((await post(filled(path), { _csrf: `${owner.csrf.slice(0, -2)}xx` }, owner.cookie)).status).toBe(403);
	});

	it.each(FORMS)("POST %s by a viewer, with a good token, is refused (403): a viewer changes nothing", async (path) => {
		const viewer = await signedInUser("viewer");
		const response = await viewer.post(filled(path));
		expect(response.status).toBe(403);
		expect(await response.text()).toContain("Your role cannot do this");
	});

	it.each(GETS)("GET %s after the user is revoked finds them signed out at once", async (path) => {
		const owner = await signedInUser("owner");
		expect((await owner.get(filled(path))).status).not.toBe(303);
		await revokeUser(env.DB, owner.partner.account.id, owner.userId, new Date());
		const after = await owner.get(filled(path));
		expect(after.status).toBe(303);
		expect(after.headers.get("Location")).toBe("/partner/sign-in");
	});

	it.each(PAGES)(
		"GET %s is under 100 kB, marks test data in test mode, and shows no bare ISO timestamp",
		async (path) => {
			const owner = await signedInUser("owner");
			for (const mode of ["live", "test"] as const) {
				const response = await owner.get(`${filled(path)}${mode === "test" ? "?mode=test" : ""}`);
				expect(response.status).toBe(200);
				const html = await response.text();
				expect(new TextEncoder().encode(html).length).toBeLessThan(100_000);
				const marked = UNFRAMED.has(path)
					? html.includes(`the ${mode} brand profile`) || html.includes(`no ${mode} brand profile`)
					: html.includes("Test data: nothing on these pages is a real order or charge.") === (mode === "test");
				expect(marked).toBe(true);
				expect(html).not.toMatch(BARE_ISO);
				// The console's own images (previews, photos) may load; nothing else does.
				expect(response.headers.get("Content-Security-Policy")).toContain("img-src 'self' data:");
			}
		},
	);

	it("a form larger than the console takes (64 MiB of files and 1 MiB of fields) is a page saying so, before it is read", async () => {
		const owner = await signedInUser("owner");
		const big = new Uint8Array(65 * 1024 * 1024 + 1);
		const response = await owner.upload(
			"/partner/claims/new",
			(() => {
				const form = new FormData();
				form.set("photos", new File([big], "photo.png", { type: "image/png" }));
				return form;
			})(),
		);
		expect(response.status).toBeGreaterThanOrEqual(400);
		expect(response.status).toBeLessThan(500);
		expect(response.headers.get("Content-Type")).toContain("text/html");
		expect(await response.text()).toContain("files of up to 64 MiB in all");
	});
});
