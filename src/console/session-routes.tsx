/** Signing in to the console with an ops key and out again, and the console's front door. */
import { Hono } from "hono";
import { directoryDatabase } from "../databases.ts";
import { refusalStatus } from "../http/errors.ts";
import { page, readForm } from "../http/html-pages.ts";
import { consoleSessionSecret } from "../http/session-forms.ts";
import type { ConsoleEnv } from "./console-env.ts";
import { endSession, requireCsrf, requireSession, SIGN_IN_PATH, startSession } from "./session-gate.ts";
import { checkSignInKey } from "./sign-in.ts";
import { SignInPage } from "./sign-in-page.tsx";

export const sessionRoutes = new Hono<ConsoleEnv>();

const NOT_CONFIGURED =
	"The console is not configured: the worker has no CONSOLE_SESSION_SECRET, so no one can sign in. Ask whoever deploys it to set one.";

sessionRoutes.get("/", (c) => c.redirect(c.get("session") === null ? SIGN_IN_PATH : "/ops/orders", 303));

sessionRoutes.get("/sign-in", (c) => {
	if (consoleSessionSecret(c.env) === null) return page(c, <SignInPage error={NOT_CONFIGURED} />, 503);
	return page(c, <SignInPage error={null} />);
});

sessionRoutes.post("/sign-in", async (c) => {
	const secret = consoleSessionSecret(c.env);
	if (secret === null) return page(c, <SignInPage error={NOT_CONFIGURED} />, 503);
	const { key } = await readForm(c);
	const checked = await checkSignInKey(directoryDatabase(c.env), typeof key === "string" ? key.trim() : "");
	if (!checked.ok) return page(c, <SignInPage error={checked.message} />, refusalStatus(checked));
	await startSession(c, secret, checked.keyId);
	return c.redirect("/ops/orders", 303);
});

sessionRoutes.post("/sign-out", requireSession, requireCsrf, async (c) => {
	await endSession(c);
	return c.redirect(SIGN_IN_PATH, 303);
});
