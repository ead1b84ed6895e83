/**
 * The partner console's pages: sign-in, an invitation's password form, the home page of a signed-in
 * user, and errors. Server-rendered, one inline stylesheet, no script; every control labelled.
 */
import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { page } from "../http/html-pages.ts";
import { PageHead } from "../http/page-head.tsx";
import type { PartnerRole } from "../partner-users/users.ts";

const CSS = `
:root { --ink: #16202a; --muted: #556270; --line: #d5dbe1; --paper: #fff; --page: #f4f6f8; --accent: #1d4ed8; --test: #92400e; color-scheme: light; }
* { box-sizing: border-box; }
html { background: var(--page); color: var(--ink); }
body { margin: 0; font: 17px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1.5rem; padding: .75rem 1.5rem; background: var(--ink); color: #fff; }
.top .name { font-weight: 700; font-size: 1.15rem; color: #fff; text-decoration: none; flex: 1; }
.top form { margin: 0; }
.top button { background: transparent; color: #fff; border: 2px solid #8da2b5; }
.test-banner { background: #fef3c7; color: var(--test); border-bottom: 2px solid #f59e0b; padding: .5rem 1.5rem; font-weight: 700; }
main { max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.75rem; line-height: 1.2; margin: .25rem 0 1rem; }
h2 { font-size: 1.25rem; margin: 0 0 .75rem; }
.panel { background: var(--paper); border: 1px solid var(--line); border-radius: .6rem; padding: 1.1rem 1.25rem; margin-bottom: 1.25rem; }
.narrow { max-width: 28rem; margin: 2rem auto; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input { width: 100%; font: inherit; padding: .55rem .7rem; border: 1px solid #8a97a5; border-radius: .4rem; }
button { font: inherit; font-weight: 700; padding: .55rem 1.1rem; border-radius: .45rem; border: 0; background: var(--accent); color: #fff; cursor: pointer; margin-top: 1rem; }
.muted { color: var(--muted); }
[role="alert"] { border: 2px solid #b42318; background: #fef3f2; color: #7a271a; border-radius: .45rem; padding: .6rem .8rem; margin: .5rem 0; }
.modes { display: flex; gap: .5rem; flex-wrap: wrap; }
.modes a { padding: .35rem .8rem; border: 2px solid var(--line); border-radius: 999px; text-decoration: none; font-weight: 700; }
.modes a[aria-current="page"] { border-color: var(--ink); background: var(--ink); color: #fff; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
`;

/** Which of the account's two sets of data a page shows. */
export type ConsoleMode = "live" | "test";

/** The words for each role, as the pages say it. */
export const ROLE_WORDS: Readonly<Record<PartnerRole, string>> = {
	owner: "Owner: everything, including people, API keys and webhook secrets",
	developer: "Developer: orders, API keys and webhooks",
	support: "Support: orders and claims",
	viewer: "Viewer: reads only",
};

type LayoutProps = {
	title: string;
	children: Child;
	/** The signed-in user's form token, for the header's sign-out; null on the signed-out pages. */
	signedIn: { csrfToken: string } | null;
	mode?: ConsoleMode;
};

function PartnerLayout({ title, children, signedIn, mode }: LayoutProps) {
	return (
		<html lang="en">
			<PageHead title={`${title} · Partner console`} css={CSS} />
			<body>
				<header class="top">
					<a class="name" href="/partner">
						Partner console
					</a>
					{signedIn === null ? null : (
						<form method="post" action="/partner/sign-out">
							<input type="hidden" name="_csrf" value={signedIn.csrfToken} />
							<button type="submit">Sign out</button>
						</form>
					)}
				</header>
				{mode === "test" ? (
					<div class="test-banner" role="note">
						Test data: nothing on these pages is a real order or charge.
					</div>
				) : null}
				<main>{children}</main>
			</body>
		</html>
	);
}

/** The sign-in form; `error` is shown above it when the last attempt failed. The password is never echoed back. */
export function SignInPage({ error, email, notice }: { error: string | null; email: string; notice?: string }) {
	return (
		<PartnerLayout title="Sign in" signedIn={null}>
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
		<PartnerLayout title="Set your password" signedIn={null}>
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
		<PartnerLayout title={props.accountName} signedIn={{ csrfToken: props.csrfToken }} mode={props.mode}>
			<h1>{props.accountName}</h1>
			<nav class="modes" aria-label="Which data">
				<a href="/partner?mode=live" aria-current={props.mode === "live" ? "page" : undefined}>
					Live data
				</a>
				<a href="/partner?mode=test" aria-current={props.mode === "test" ? "page" : undefined}>
					Test data
				</a>
			</nav>
			<section class="panel" style="margin-top:1.25rem">
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

/** An error as a page, with the request id to quote; `csrfToken` is the signed-in user's, or null. */
export function partnerErrorPage(
	c: Context,
	status: ContentfulStatusCode,
	message: string,
	csrfToken: string | null,
): Promise<Response> {
	const requestId: unknown = c.get("requestId");
	const title = ERROR_TITLES[status] ?? "Something went wrong";
	return page(
		c,
		<PartnerLayout title={title} signedIn={csrfToken === null ? null : { csrfToken }}>
			<section class="panel">
				<h1>{title}</h1>
				<p role="alert">{message}</p>
				<p class="muted">Request id: {typeof requestId === "string" ? requestId : "unknown"}</p>
			</section>
		</PartnerLayout>,
		status,
	);
}
