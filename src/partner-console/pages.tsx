/**
 * The partner console's pages: sign-in, an invitation's password form, the home page of a signed-in
 * user, and errors. Server-rendered, one inline stylesheet, no script; every control labelled.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { page } from "../http/html-pages.ts";
import type { PartnerRole } from "../partner-users/users.ts";
import { type LayoutViewer, PartnerLayout } from "./layout.tsx";
import { ROLE_WORDS } from "./permissions.ts";
import type { ConsoleMode } from "./scope.ts";

/** The sign-in form; `error` is shown above it when the last attempt failed. The password is never echoed back. */
export function SignInPage({ error, email, notice }: { error: string | null; email: string; notice?: string }) {
	return (
		<PartnerLayout title="Sign in" viewer={null}>
			<section class="panel narrow">
				<h1>Sign in</h1>
				{notice === undefined ? null : <p role="status">{notice}</p>}
				{error === null ? null : <div role="alert">{error}</div>}
				<form method="post" action="/partner/sign-in">
					<label for="email">Email</label>
					<input id="email" name="email" type="email" autocomplete="username" value={email} required />
					<label for="password">Password</label>
					<input id="password" name="password" type="password" autocomplete="current-password" required />
					<button type="submit">Sign in</button>
				</form>
			</section>
		</PartnerLayout>
	);
}

/** The form an invitation link opens: the new password, twice. */
export function InvitationPage({ token, error }: { token: string; error: string | null }) {
	return (
		<PartnerLayout title="Set your password" viewer={null}>
			<section class="panel narrow">
				<h1>Set your password</h1>
				<p class="muted">Choose a password of 12 characters or more. You sign in with it and your email.</p>
				{error === null ? null : <div role="alert">{error}</div>}
				<form method="post" action={`/partner/invitations/${token}`}>
					<label for="password">New password</label>
					<input id="password" name="password" type="password" autocomplete="new-password" minlength={12} required />
					<label for="confirm">The same password again</label>
					<input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength={12} required />
					<button type="submit">Set password</button>
				</form>
			</section>
		</PartnerLayout>
	);
}

/** A signed-in user's home: who they are, which account, the data they are looking at, and signing out everywhere. */
export function HomePage(props: {
	name: string;
	email: string;
	role: PartnerRole;
	accountName: string;
	mode: ConsoleMode;
	csrfToken: string;
}) {
	return (
		<PartnerLayout
			title={props.accountName}
			viewer={{ csrfToken: props.csrfToken, role: props.role }}
			mode={props.mode}
			section="home"
		>
			<h1>{props.accountName}</h1>
			<section class="panel">
				<h2>You</h2>
				<dl>
					<dt>Name</dt>
					<dd>{props.name}</dd>
					<dt>Email</dt>
					<dd>{props.email}</dd>
					<dt>Role</dt>
					<dd>{ROLE_WORDS[props.role]}</dd>
				</dl>
				<form method="post" action="/partner/sign-out-everywhere">
					<input type="hidden" name="_csrf" value={props.csrfToken} />
					<button type="submit">Sign out on every device</button>
				</form>
			</section>
		</PartnerLayout>
	);
}

const ERROR_TITLES: Readonly<Record<number, string>> = {
	400: "Bad request",
	403: "Not allowed",
	404: "Not found",
	503: "Console not configured",
};

/** An error as a page, with the request id to quote; `viewer` is the signed-in user, or null. */
export function partnerErrorPage(
	c: Context,
	status: ContentfulStatusCode,
	message: string,
	viewer: LayoutViewer | null,
): Promise<Response> {
	const requestId: unknown = c.get("requestId");
	const title = ERROR_TITLES[status] ?? "Something went wrong";
	return page(
		c,
		<PartnerLayout title={title} viewer={viewer}>
			<section class="panel">
				<h1>{title}</h1>
				<p role="alert">{message}</p>
				<p class="muted">Request id: {typeof requestId === "string" ? requestId : "unknown"}</p>
			</section>
		</PartnerLayout>,
		status,
	);
}
