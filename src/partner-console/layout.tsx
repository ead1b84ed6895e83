/**
 * The frame of every partner console page: one inline stylesheet (a page may add its own rules), the
 * top bar with the sections the user's role may open, the live/test switch and the banner that marks
 * test data. Server-rendered, no script; every link keeps the page's mode.
 */
import type { Child } from "hono/jsx";
import { PageHead } from "../http/page-head.tsx";
import type { PartnerRole } from "../partner-users/users.ts";
import { type PartnerAbility, roleCan } from "./permissions.ts";
import { type ConsoleMode, withMode } from "./scope.ts";

const CSS = `
:root { --ink: #16202a; --muted: #556270; --line: #d5dbe1; --paper: #fff; --page: #f4f6f8; --accent: #1d4ed8; --test: #92400e; --ok: #166534; --bad: #b42318; color-scheme: light; }
* { box-sizing: border-box; }
html { background: var(--page); color: var(--ink); }
body { margin: 0; font: 17px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, summary:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.25rem; padding: .6rem 1.5rem; background: var(--ink); color: #fff; }
.top .name { font-weight: 700; font-size: 1.15rem; color: #fff; text-decoration: none; margin-right: auto; }
.top form { margin: 0; }
.top button { background: transparent; color: #fff; border: 2px solid #8da2b5; margin: 0; padding: .3rem .8rem; }
.sections { background: #223140; padding: 0 1.5rem; }
.sections ul { display: flex; flex-wrap: wrap; gap: 0 1.1rem; list-style: none; margin: 0 auto; padding: 0; max-width: 72rem; }
.sections a { display: block; color: #e6edf3; text-decoration: none; padding: .5rem 0; border-bottom: 3px solid transparent; }
.sections a[aria-current="page"] { border-bottom-color: #f59e0b; color: #fff; font-weight: 700; }
.test-banner { background: #fef3c7; color: var(--test); border-bottom: 2px solid #f59e0b; padding: .5rem 1.5rem; font-weight: 700; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.75rem; line-height: 1.2; margin: .25rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 0 0 .75rem; }
h3 { font-size: 1.05rem; margin: 1rem 0 .5rem; }
.panel { background: var(--paper); border: 1px solid var(--line); border-radius: .6rem; padding: 1.1rem 1.25rem; margin-bottom: 1.25rem; }
.narrow { max-width: 28rem; margin: 2rem auto; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input, select, textarea { width: 100%; font: inherit; padding: .55rem .7rem; border: 1px solid #8a97a5; border-radius: .4rem; background: #fff; color: var(--ink); }
input[type="checkbox"], input[type="radio"] { width: auto; margin-right: .4rem; }
fieldset { border: 1px solid var(--line); border-radius: .45rem; margin: .75rem 0; padding: .5rem .9rem .9rem; }
legend { font-weight: 700; padding: 0 .3rem; }
button, .button { display: inline-block; font: inherit; font-weight: 700; padding: .55rem 1.1rem; border-radius: .45rem; border: 0; background: var(--accent); color: #fff; cursor: pointer; margin-top: 1rem; text-decoration: none; }
button.secondary, .button.secondary { background: #fff; color: var(--accent); border: 2px solid var(--accent); }
button.danger { background: var(--bad); }
.actions { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 0 1rem; }
.muted { color: var(--muted); }
.ok { color: var(--ok); font-weight: 700; }
.bad { color: var(--bad); font-weight: 700; }
[role="alert"] { border: 2px solid var(--bad); background: #fef3f2; color: #7a271a; border-radius: .45rem; padding: .6rem .8rem; margin: .5rem 0; }
[role="status"] { border: 2px solid #15803d; background: #f0fdf4; color: #14532d; border-radius: .45rem; padding: .6rem .8rem; margin: .5rem 0; }
.modes { display: flex; gap: .5rem; flex-wrap: wrap; margin: 0 0 1rem; }
.modes a { padding: .3rem .8rem; border: 2px solid var(--line); border-radius: 999px; text-decoration: none; font-weight: 700; background: #fff; }
.modes a[aria-current="page"] { border-color: var(--ink); background: var(--ink); color: #fff; }
.table-wrap { overflow-x: auto; }
table { width: 100%; border-collapse: collapse; background: var(--paper); }
th, td { text-align: left; padding: .5rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .9rem; color: var(--muted); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: .05rem .55rem; border-radius: 999px; font-size: .9rem; font-weight: 700; background: #e5e7eb; color: var(--ink); white-space: nowrap; }
.badge.held, .badge.failed { background: #fee4e2; color: #7a271a; }
.badge.done { background: #dcfce7; color: #14532d; }
.pager { display: flex; gap: 1rem; margin-top: 1rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .92em; overflow-wrap: anywhere; }
@media (max-width: 40rem) { main { padding: 1rem .75rem; } .top, .sections, .test-banner { padding-left: .75rem; padding-right: .75rem; } dl { grid-template-columns: 1fr; } dd { margin-bottom: .4rem; } }
`;

/** A section of the console: its place in the top bar, its first page and the ability that opens it. */
type Section = { label: string; path: string; ability: PartnerAbility };

/** The sections in the order the top bar lists them. */
export const PARTNER_SECTIONS = {
	home: { label: "Home", path: "/partner", ability: "read" },
	orders: { label: "Orders", path: "/partner/orders", ability: "read" },
	"place-order": { label: "Place orders", path: "/partner/place", ability: "act_on_orders" },
	claims: { label: "Claims", path: "/partner/claims", ability: "read" },
	money: { label: "Money", path: "/partner/money", ability: "see_money" },
	developers: { label: "Developers", path: "/partner/developers", ability: "use_developer_tools" },
	brand: { label: "Brand", path: "/partner/brand", ability: "read" },
	people: { label: "People", path: "/partner/people", ability: "manage_people" },
} as const satisfies Record<string, Section>;
/** One of the console's sections. */
export type PartnerSection = keyof typeof PARTNER_SECTIONS;

/** Who is looking: what their forms carry and what their role lets the top bar offer. */
export type LayoutViewer = { csrfToken: string; role: PartnerRole };

type LayoutProps = {
	title: string;
	children: Child;
	/** The signed-in user; null on the signed-out pages. */
	viewer: LayoutViewer | null;
	/** The data the page shows; a page of one mode's data has the switch and, in test, the banner. */
	mode?: ConsoleMode;
	/** The section the page belongs to: marked in the top bar, and where the mode switch leads. */
	section?: PartnerSection;
	/** The page's own style rules, after the console's. */
	css?: string;
};

/** Every console page: the head, the top bar and sections, the mode switch and banner, then the page. */
export function PartnerLayout({ title, children, viewer, mode, section, css }: LayoutProps) {
	const here = section === undefined ? undefined : PARTNER_SECTIONS[section];
	return (
		<html lang="en">
			<PageHead title={`${title} · Partner console`} css={css === undefined ? CSS : CSS + css} />
			<body>
				<header class="top">
					<a class="name" href={withMode("/partner", mode)}>
						Partner console
					</a>
					{viewer === null ? null : (
						<form method="post" action="/partner/sign-out">
							<input type="hidden" name="_csrf" value={viewer.csrfToken} />
							<button type="submit">Sign out</button>
						</form>
					)}
				</header>
				{viewer === null ? null : <SectionLinks role={viewer.role} mode={mode} current={section} />}
				{mode === "test" ? (
					<div class="test-banner" role="note">
						Test data: nothing on these pages is a real order or charge.
					</div>
				) : null}
				<main>
					{mode === undefined || here === undefined ? null : <ModeSwitch mode={mode} path={here.path} />}
					{children}
				</main>
			</body>
		</html>
	);
}

function SectionLinks({ role, mode, current }: { role: PartnerRole; mode?: ConsoleMode; current?: PartnerSection }) {
	const entries = Object.entries(PARTNER_SECTIONS) as [PartnerSection, Section][];
	return (
		<nav class="sections" aria-label="Sections">
			<ul>
				{entries
					.filter(([, section]) => roleCan(role, section.ability))
					.map(([name, section]) => (
						<li>
							<a href={withMode(section.path, mode)} aria-current={name === current ? "page" : undefined}>
								{section.label}
							</a>
						</li>
					))}
			</ul>
		</nav>
	);
}

/** Live or test data: each link opens the section's first page in that mode. */
function ModeSwitch({ mode, path }: { mode: ConsoleMode; path: string }) {
	return (
		<nav class="modes" aria-label="Which data">
			<a href={withMode(path, "live")} aria-current={mode === "live" ? "page" : undefined}>
				Live data
			</a>
			<a href={withMode(path, "test")} aria-current={mode === "test" ? "page" : undefined}>
				Test data
			</a>
		</nav>
	);
}
