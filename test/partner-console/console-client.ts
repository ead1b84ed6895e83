/**
 * The partner console as a browser drives it, inside the Workers runtime: requests with the session
 * cookie, forms posted with their token, and a user of any role invited to an account, with a password
 * set from the invitation link and signed in.
 */
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { inviteUser } from "../../src/partner-users/store.ts";
import type { PartnerRole } from "../../src/partner-users/users.ts";
import { createPartner } from "../helpers.ts";

export const ORIGIN = "https://api.test";
export const COOKIE = "__Host-partner_session";
export const PASSWORD = "a harbour at dusk";

/** A request to the worker as a browser on the console's origin sends it; `cookie` is the session's value. */
export function request(path: string, init: RequestInit & { cookie?: string } = {}): Promise<Response> {
	const { cookie, ...rest } = init;
	const headers = new Headers(rest.headers);
	if (cookie !== undefined) headers.set("Cookie", `${COOKIE}=${cookie}`);
	return exports.default.fetch(new Request(`${ORIGIN}${path}`, { ...rest, headers, redirect: "manual" }));
}

/** A form posted as `application/x-www-form-urlencoded`. */
export function post(
	path: string,
	fields: Record<string, string>,
	cookie?: string,
	headers: Record<string, string> = {},
) {
	return request(path, {
		method: "POST",
		body: new URLSearchParams(fields).toString(),
		headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
		...(cookie === undefined ? {} : { cookie }),
	});
}

/** A form posted as `multipart/form-data` (file uploads). */
export function postMultipart(path: string, form: FormData, cookie: string): Promise<Response> {
	return request(path, { method: "POST", body: form, cookie });
}

/** The session cookie's value a response sets, or null. */
export function cookieOf(response: Response): string | null {
	for (const header of response.headers.getSetCookie()) {
		const [pair] = header.split(";");
		if (pair?.startsWith(`${COOKIE}=`)) return pair.slice(COOKIE.length + 1);
	}
	return null;
}

/** The form token on a page. */
export function csrfOf(html: string): string {
	return /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
}

/** A partner account (written straight to D1, with live and test keys), as `createPartner` makes it. */
export type Partner = Awaited<ReturnType<typeof createPartner>>;

/** A signed-in console user: their account, cookie, form token, and the requests they make. */
export type ConsoleUser = {
	partner: Partner;
	email: string;
	userId: string;
	cookie: string;
	csrf: string;
	/** The invitation's token (already used). */
	token: string;
	get(path: string): Promise<Response>;
	/** Posts the form with this user's token added. */
	post(path: string, fields?: Record<string, string>): Promise<Response>;
	/** Posts the multipart form with this user's token added. */
	upload(path: string, form: FormData): Promise<Response>;
};

/** A user of `role` invited to `partner` (a fresh account when omitted), their password set from the link, signed in. */
export async function signedInUser(role: PartnerRole = "support", partner?: Partner): Promise<ConsoleUser> {
	const account = partner ?? (await createPartner("Harbour Museum Store"));
	const email = `${role}.${crypto.randomUUID().slice(0, 8)}@harbour.example`;
	const invited = await inviteUser(env.DB, { accountId: account.account.id, email, name: "Maya", role }, new Date());
	if (!invited.ok) throw new Error(invited.message);
	const set = await post(`/partner/invitations/${invited.token}`, { password: PASSWORD, confirm: PASSWORD });
	expect(set.status).toBe(303);
	expect(set.headers.get("Location")).toBe("/partner/sign-in?password=set");
	const signedIn = await post("/partner/sign-in", { email, password: PASSWORD });
	expect(signedIn.status).toBe(303);
	const cookie = cookieOf(signedIn);
	if (cookie === null) throw new Error("no session cookie");
	const csrf = csrfOf(await (await request("/partner", { cookie })).text());
	return {
		partner: account,
		email,
		userId: invited.user.id,
		cookie,
		csrf,
		token: invited.token,
		get: (path) => request(path, { cookie }),
		post: (path, fields = {}) => post(path, { _csrf: csrf, ...fields }, cookie),
		upload: (path, form) => {
			form.set("_csrf", csrf);
			return postMultipart(path, form, cookie);
		},
	};
}
