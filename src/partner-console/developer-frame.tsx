/**
 * What the developers' corner's pages share: the frame (the corner's three pages linked under the
 * title), the fixed sentences a finished action shows, and reading a form whose checkboxes repeat a name.
 */
import type { Context } from "hono";
import type { Child } from "hono/jsx";
import { ApiError } from "../http/errors.ts";
import { PartnerLayout } from "./layout.tsx";
import type { SignedInPartnerEnv } from "./partner-env.ts";
import { type ConsoleMode, modeOf, withMode } from "./scope.ts";

/** The corner's pages, in the order its links list them. */
const DEVELOPER_PAGES = {
	keys: { label: "API keys", path: "/partner/developers" },
	webhooks: { label: "Webhook endpoints", path: "/partner/developers/webhooks" },
	events: { label: "Event log", path: "/partner/developers/events" },
} as const;
/** One of the corner's pages. */
export type DeveloperPage = keyof typeof DEVELOPER_PAGES;

/** `path` under the corner, in the request's mode. */
export function developerPath(c: Context, path: string): string {
	return withMode(`/partner/developers${path}`, modeOf(c));
}

/** The fixed sentence for each `?done=` word: free text from the address is never echoed. */
const DONE_SENTENCES: Readonly<Record<string, string>> = {
	revoked: "The key is revoked: the API refuses it from now on.",
	added: "The endpoint is added: it receives the events it subscribes to from now on.",
	paused: "The endpoint is paused: events from now on are not sent to it.",
	resumed: "The endpoint is resumed: events from now on are sent to it again.",
	deleted: "The endpoint is deleted: nothing more is sent to it.",
	resent: "The event is being sent again to each of its receivers; reload to see the attempts.",
};

/** The sentence for the request's `?done=` word, or null. */
export function doneSentence(c: Context): string | null {
	return DONE_SENTENCES[c.req.query("done") ?? ""] ?? null;
}

/** A page of the corner: the console's frame, the corner's links, and the page. */
export function DeveloperFrame(props: {
	c: Context<SignedInPartnerEnv>;
	title: string;
	current: DeveloperPage;
	notice?: string | null;
	alert?: string | null;
	css?: string;
	children: Child;
}) {
	const { c, title, current, notice, alert } = props;
	const { csrfToken, user } = c.var.signedIn;
	const mode: ConsoleMode = modeOf(c);
	const entries = Object.entries(DEVELOPER_PAGES) as [DeveloperPage, { label: string; path: string }][];
	return (
		<PartnerLayout
			title={title}
			viewer={{ csrfToken, role: user.role }}
			mode={mode}
			section="developers"
			css={DEVELOPER_CSS + (props.css ?? "")}
		>
			<h1>{title}</h1>
			<nav class="subpages" aria-label="Developers">
				{entries.map(([name, entry]) => (
					<a href={withMode(entry.path, mode)} aria-current={name === current ? "page" : undefined}>
						{entry.label}
					</a>
				))}
			</nav>
			{notice === undefined || notice === null ? null : <p role="status">{notice}</p>}
			{alert === undefined || alert === null ? null : <div role="alert">{alert}</div>}
			{props.children}
		</PartnerLayout>
	);
}

const DEVELOPER_CSS = `
.subpages { display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; margin: 0 0 1rem; }
.subpages a[aria-current="page"] { font-weight: 700; color: var(--ink); text-decoration: none; border-bottom: 3px solid #f59e0b; }
.secret { display: block; padding: .6rem .8rem; background: #f8fafc; border: 2px dashed var(--accent); border-radius: .4rem; font-size: 1rem; user-select: all; }
.inline { display: inline; }
.table-wrap > table { min-width: 44rem; }
.inline button { margin-top: .25rem; }
.checks label { display: inline-flex; align-items: center; font-weight: 500; margin: .25rem 1rem .25rem 0; }
`;

/** The posted form with repeated names kept (checkboxes); a body that is not a form is a 400 page. */
export async function readRepeatedForm(c: Context): Promise<Record<string, unknown>> {
	try {
		return await c.req.parseBody({ all: true });
	} catch {
		throw new ApiError(
			"bad_request",
			"The form could not be read: send it as application/x-www-form-urlencoded or multipart/form-data.",
		);
	}
}

/** A posted field's text ("" when absent, a file, or repeated), capped at `max` characters. */
export function formText(form: Record<string, unknown>, name: string, max = 2000): string {
	const value = form[name];
	return typeof value === "string" ? value.slice(0, max) : "";
}

/** Every text a repeated field (checkboxes) posted, each capped, at most `maxCount`. */
export function formTexts(form: Record<string, unknown>, name: string, maxCount = 50): string[] {
	const value = form[name];
	const values = Array.isArray(value) ? value : [value];
	return values
		.filter((entry): entry is string => typeof entry === "string")
		.slice(0, maxCount)
		.map((entry) => entry.slice(0, 200));
}
