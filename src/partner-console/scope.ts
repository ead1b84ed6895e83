/**
 * Which data a console page shows: the signed-in user's account, in the mode the address names
 * (`?mode=test`; live without it). Every lookup is by both, so a page of one mode never shows the
 * other's data and another account's id is simply not found.
 */
import type { Context } from "hono";
import type { Owner } from "../accounts/owner.ts";
import type { SignedInPartnerEnv } from "./partner-env.ts";

/** Which of the account's two sets of data a page shows. */
export type ConsoleMode = "live" | "test";

/** The mode a request names: `?mode=test` on the address (forms post to addresses that keep it), else live. */
export function modeOf(c: Context): ConsoleMode {
	return c.req.query("mode") === "test" ? "test" : "live";
}

/** `path` in `mode`: test data carries `mode=test`, live is the bare address. */
export function withMode(path: string, mode: ConsoleMode | undefined): string {
	if (mode !== "test") return path;
	return `${path}${path.includes("?") ? "&" : "?"}mode=test`;
}

/** The owner of the data a signed-in request may touch: the user's account, in the request's mode. */
export function ownerOf(c: Context<SignedInPartnerEnv>): Owner {
	return { accountId: c.var.signedIn.user.account_id, mode: modeOf(c) };
}
