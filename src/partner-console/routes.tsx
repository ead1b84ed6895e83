/**
 * The partner console, under /partner: a partner's people sign in with their email and password (set
 * from an invitation link), see their account, switch between its live and test data, and sign out
 * here or on every device. Every request gets the page headers, has a form posted from another site
 * refused, and is told who is signed in; every form of a signed-in user carries its session's token.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { findAccount } from "../accounts/store.ts";
import { directoryDatabase } from "../databases.ts";
import { isCrossSitePost } from "../http/cross-site.ts";
import { ApiError } from "../http/errors.ts";
import { page, readForm } from "../http/html-pages.ts";
import { toApiError } from "../http/on-error.ts";
import { consoleSessionSecret } from "../http/session-forms.ts";
import { log } from "../log.ts";
import { EVENT_TYPES } from "../openapi/event-catalog.ts";
import { hashPassword, passwordProblem } from "../partner-users/password.ts";
import { signIn } from "../partner-users/sign-in.ts";
import { acceptInvitation, endSessionsBefore } from "../partner-users/store.ts";
import { MAX_FORM_UPLOAD_BYTES } from "../print-files/form-upload.ts";
import { OWN_IMAGES_POLICY, PAGE_SECURITY_HEADERS } from "../production/slip-page.ts";
import { partnerBrandRoutes } from "./brand-routes.tsx";
import { partnerClaimRoutes } from "./claim-routes.tsx";
import { partnerDeveloperRoutes } from "./developer-routes.tsx";
import { partnerMoneyRoutes } from "./money-routes.tsx";
import { partnerOrderRoutes } from "./order-routes.tsx";
import { HomePage, InvitationPage, partnerErrorPage, SignInPage } from "./pages.tsx";
import type { PartnerConsoleEnv } from "./partner-env.ts";
import { partnerPeopleRoutes } from "./people-routes.tsx";
import { placeOrderRoutes } from "./place-order-routes.tsx";
import { readOwnWrites } from "./read-own-writes.ts";
import { modeOf } from "./scope.ts";
import {
	endPartnerSession,
	findPartnerSession,
	layoutViewerOf,
	PARTNER_SIGN_IN_PATH,
	requirePartner,
	requirePartnerCsrf,
	startPartnerSession,
} from "./session-gate.ts";

const NOT_CONFIGURED =
	"The console is not configured: the worker has no CONSOLE_SESSION_SECRET, so no one can sign in. Ask the service team.";
const WRONG = "That email and password do not match an account user.";
const LOCKED =
	"Too many wrong passwords: this user is locked for 15 minutes. Try again later, or ask your account's owner.";

/** The text of a posted field, or "" when it is absent or a file. */
function field(form: Record<string, unknown>, name: string): string {
	const value = form[name];
	return typeof value === "string" ? value : "";
}

export const partnerConsoleRoutes = new Hono<PartnerConsoleEnv>();

partnerConsoleRoutes.onError((error, c) => {
	const apiError = toApiError(error);
	if (apiError.type === "server_error") {
		log.error("partner_console.unexpected_error", {
			request_id: c.get("requestId") ?? "unknown",
			error: error.name,
			message: error.message,
		});
	}
	return partnerErrorPage(c, apiError.status, apiError.message, layoutViewerOf(c));
});

partnerConsoleRoutes.use("*", async (c, next) => {
	for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) c.header(name, value);
	// The console's pages show images it serves itself (items' previews, claims' photos): its own origin's.
	c.header("Content-Security-Policy", OWN_IMAGES_POLICY);
	const postedFrom = { origin: c.req.header("Origin"), secFetchSite: c.req.header("Sec-Fetch-Site") };
	if (c.req.method === "POST" && isCrossSitePost(postedFrom, new URL(c.req.url).origin)) {
		return partnerErrorPage(c, 403, "This form was sent from another site; it was refused and nothing changed.", null);
	}
	await next();
});
// A form carries at most one upload's worth: the largest file a form takes, and room for its fields.
partnerConsoleRoutes.use(
	"*",
	bodyLimit({
		maxSize: MAX_FORM_UPLOAD_BYTES + 1024 * 1024,
		onError: () => {
			throw new ApiError("body_too_large", "The form is larger than the console takes: files of up to 64 MiB in all.");
		},
	}),
);
partnerConsoleRoutes.use("*", readOwnWrites, findPartnerSession);

partnerConsoleRoutes.get("/sign-in", (c) => {
	if (consoleSessionSecret(c.env) === null) return page(c, <SignInPage error={NOT_CONFIGURED} email="" />, 503);
	if (c.get("viewer") !== null) return c.redirect("/partner", 303);
	const notice = c.req.query("password") === "set" ? "Your password is set: sign in with it." : undefined;
	return page(c, <SignInPage error={null} email="" notice={notice} />);
});

partnerConsoleRoutes.post("/sign-in", async (c) => {
	const secret = consoleSessionSecret(c.env);
	if (secret === null) return page(c, <SignInPage error={NOT_CONFIGURED} email="" />, 503);
	const form = await readForm(c);
	const email = field(form, "email").slice(0, 254);
	const signedIn = await signIn(directoryDatabase(c.env), email, field(form, "password").slice(0, 1000), new Date());
	if (!signedIn.ok) {
		const status = signedIn.reason === "locked" ? 429 : 401;
		return page(c, <SignInPage error={signedIn.reason === "locked" ? LOCKED : WRONG} email={email} />, status);
	}
	await startPartnerSession(c, secret, signedIn.user.id);
	return c.redirect("/partner", 303);
});

partnerConsoleRoutes.get("/invitations/:token", (c) =>
	page(c, <InvitationPage token={c.req.param("token")} error={null} />),
);

partnerConsoleRoutes.post("/invitations/:token", async (c) => {
	const token = c.req.param("token");
	const form = await readForm(c);
	const password = field(form, "password");
	const problem =
		password !== field(form, "confirm") ? "The two passwords are not the same." : passwordProblem(password);
	if (problem !== null) return page(c, <InvitationPage token={token} error={problem} />, 422);
	const accepted = await acceptInvitation(directoryDatabase(c.env), token, await hashPassword(password), new Date());
	if (!accepted.ok) return partnerErrorPage(c, 404, accepted.message, null);
	return c.redirect(`${PARTNER_SIGN_IN_PATH}?password=set`, 303);
});

partnerConsoleRoutes.get("/", requirePartner, async (c) => {
	const { user, csrfToken } = c.var.signedIn;
	const account = await findAccount(directoryDatabase(c.env), user.account_id);
	const props = { name: user.name, email: user.email, role: user.role, mode: modeOf(c), csrfToken };
	return page(c, <HomePage {...props} accountName={account?.name ?? user.account_id} />);
});

partnerConsoleRoutes.post("/sign-out", requirePartner, requirePartnerCsrf, async (c) => {
	await endPartnerSession(c);
	return c.redirect(PARTNER_SIGN_IN_PATH, 303);
});

partnerConsoleRoutes.post("/sign-out-everywhere", requirePartner, requirePartnerCsrf, async (c) => {
	await endSessionsBefore(directoryDatabase(c.env), c.var.signedIn.user.id, new Date());
	await endPartnerSession(c);
	return c.redirect(PARTNER_SIGN_IN_PATH, 303);
});

partnerConsoleRoutes.route("/brand", partnerBrandRoutes);
partnerConsoleRoutes.route("/people", partnerPeopleRoutes);
partnerConsoleRoutes.route("/claims", partnerClaimRoutes);
partnerConsoleRoutes.route("/money", partnerMoneyRoutes);
partnerConsoleRoutes.route("/place", placeOrderRoutes);
partnerConsoleRoutes.route("/orders", partnerOrderRoutes);
partnerConsoleRoutes.route("/developers", partnerDeveloperRoutes(EVENT_TYPES));

// Last: every other path under /partner is a console 404 page.
partnerConsoleRoutes.all("*", (c) => partnerErrorPage(c, 404, `There is no page at ${c.req.path}.`, layoutViewerOf(c)));
