import type { Child } from "hono/jsx";
import { PageHead } from "../http/page-head.tsx";
import { type Currency, moneyText } from "../money/currencies.ts";
import type { OrderStatus } from "../orders/state-machine.ts";
import { statusLabel } from "../orders/words.ts";

/** The console's own name; it never shows the service's product name. */
export const CONSOLE_NAME = "Production floor";

/**
 * One stylesheet for every page, inlined (the CSP allows inline styles and nothing else). Large type
 * and strong status colours: it is read at arm's length on a shop floor, often on a tablet.
 */
const CONSOLE_CSS = `
:root {
  --ink: #16202a; --muted: #5a6672; --line: #d5dbe1; --paper: #ffffff; --page: #f3f5f7;
  --accent: #1d4ed8; --accent-ink: #ffffff; --danger: #b42318; --ok: #05603a;
  color-scheme: light;
}
* { box-sizing: border-box; }
html { background: var(--page); color: var(--ink); }
body { margin: 0; font: 18px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, textarea:focus-visible {
  outline: 3px solid #f59e0b; outline-offset: 2px;
}
.top { display: flex; align-items: center; gap: 1.5rem; padding: .75rem 1.5rem; background: var(--ink); color: #fff; }
.top .name { font-weight: 700; font-size: 1.25rem; letter-spacing: .01em; color: #fff; text-decoration: none; }
.top nav { flex: 1; display: flex; flex-wrap: wrap; gap: .25rem; }
.top nav a { color: #dbe4ee; font-weight: 600; text-decoration: none; padding: .35rem .6rem; border-radius: .4rem; white-space: nowrap; }
.top nav a:hover { background: rgba(255,255,255,.12); }
.top form { margin: 0; }
.top button { background: transparent; color: #fff; border: 2px solid #8da2b5; }
main { max-width: 78rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 2rem; line-height: 1.2; margin: .25rem 0 1rem; }
h2 { font-size: 1.25rem; margin: 0 0 .75rem; }
.panel { background: var(--paper); border: 1px solid var(--line); border-radius: .6rem; padding: 1.1rem 1.25rem; margin-bottom: 1.25rem; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(18rem, 100%), 1fr)); gap: 1.25rem; margin-bottom: 1.25rem; }
.grid .panel { margin-bottom: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
.spec { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: .5rem 1.5rem; }
.item-images .images { display: flex; flex-wrap: wrap; gap: .75rem 1.5rem; align-items: flex-start; margin-bottom: .5rem; }
.item-image { margin: 0; max-width: 100%; }
.item-image img { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); background: #fff; }
.item-image figcaption { font-size: .8rem; margin-top: .25rem; max-width: 200px; }
.item-images h3, .spec h3 { font-size: .85rem; margin: .25rem 0; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
address { font-style: normal; }
.muted { color: var(--muted); }
.url { overflow-wrap: anywhere; }
.nowrap { white-space: nowrap; }
.actions h3 { margin: 0 0 .25rem; font-size: 1.15rem; }
.actions p { margin: .25rem 0 0; }
code, .mono { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: .9em; }
table { width: 100%; border-collapse: collapse; background: var(--paper); }
.table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: .6rem; background: var(--paper); }
th, td { text-align: left; padding: .7rem .9rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .8rem; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); background: #f8fafc; }
tbody tr:last-child td { border-bottom: 0; }
tbody tr:hover td { background: #f8fafc; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td a.order-link { font-weight: 700; font-size: 1.05rem; white-space: nowrap; }
table.history td.note { min-width: 12rem; }
table.history td.note > div { overflow-wrap: anywhere; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem; margin: 0 0 1.25rem; padding: 0; list-style: none; }
.filters a { display: inline-block; padding: .45rem .9rem; border: 2px solid var(--line); border-radius: 999px;
  background: var(--paper); color: var(--ink); text-decoration: none; font-weight: 600; }
.filters a:hover { border-color: var(--accent); }
.filters a[aria-current="page"] { background: var(--ink); border-color: var(--ink); color: #fff; }
.status { display: inline-block; padding: .15rem .65rem; border-radius: 999px; font-weight: 700; font-size: .9rem;
  border: 2px solid transparent; white-space: nowrap; }
.status-received, .status-validating { background: #eef2f6; color: #364452; border-color: #c3ccd6; }
.status-in_production { background: #dbe7ff; color: #1e3a8a; border-color: #93b4f5; }
.status-on_hold { background: #fff1c2; color: #7a4b00; border-color: #f0b429; }
.status-shipped { background: #d5f5ee; color: #035e50; border-color: #5fcfb8; }
.status-delivered { background: #dcfce7; color: #14532d; border-color: #6fd49a; }
.status-canceled { background: #f4f4f5; color: #52525b; border-color: #c4c4c8; text-decoration: line-through; }
.pager { margin-top: 1rem; font-weight: 600; }
.empty { padding: 2rem; text-align: center; color: var(--muted); }
[role="alert"] { border: 2px solid var(--danger); background: #fef3f2; color: #7a271a; border-radius: .5rem;
  padding: .75rem 1rem; margin: 0 0 1.25rem; font-weight: 600; }
[role="status"] { border: 2px solid #32d583; background: #ecfdf3; color: var(--ok); border-radius: .5rem;
  padding: .75rem 1rem; margin: 0 0 1.25rem; font-weight: 600; }
.warning { color: #7a4b00; font-weight: 600; }
.amount { white-space: nowrap; font-variant-numeric: tabular-nums; }
.warn-banner { border: 3px solid #f0b429; background: #fff8e1; color: #5c3900; border-radius: .6rem;
  padding: 1rem 1.25rem; margin: 0 0 1.25rem; }
.warn-banner h2 { margin: 0 0 .5rem; color: #7a4b00; }
.warn-banner ul { margin: 0; padding-left: 1.2rem; }
.warn-banner li + li { margin-top: .4rem; }
.start-panel { border: 3px solid var(--accent); }
.start-panel h2 { margin-top: 0; }
.start-panel button { font-size: 1.15rem; padding: .8rem 1.8rem; }
.started { font-weight: 600; margin: 0 0 1.25rem; }
ul.row-warnings { list-style: none; margin: .4rem 0 0; padding: 0; }
ul.row-warnings li { display: inline-block; margin: .15rem .3rem 0 0; padding: .1rem .55rem; border-radius: .35rem;
  background: #fff1c2; border: 2px solid #f0b429; color: #7a4b00; font-weight: 700; font-size: .9rem; }
.needs-partner { border-left: 4px solid var(--danger); padding-left: .75rem; font-weight: 600; }
.item-name { white-space: nowrap; }
.file-facts { font-size: .9rem; }
[role="status"].summary-partial { border-color: #f0b429; background: #fffaeb; color: #7a4b00; }
[role="status"].summary-failed { border-color: var(--danger); background: #fef3f2; color: #7a271a; }
.summary p { margin: 0; } .summary ul { margin-top: .5rem; font-weight: 400; } .counts { font-weight: 700; }
form.confirm { margin-top: 1rem; display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1.25rem; }
.detail { min-width: 0; }
ul.plain { margin: 0; padding-left: 1.1rem; }
.actions { display: grid; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); gap: 1.25rem; }
.actions form { background: var(--paper); border: 1px solid var(--line); border-radius: .6rem; padding: 1.1rem 1.25rem; margin: 0; }
.actions form.danger { border-color: #f3b8b2; }
.confirm-cancel { border: 2px solid var(--danger); }
.confirm-actions { display: flex; flex-wrap: wrap; gap: .75rem 1.25rem; align-items: center; }
label { display: block; font-weight: 600; margin: .6rem 0 .25rem; }
input[type="text"], input[type="url"], input[type="password"], textarea {
  width: 100%; font: inherit; padding: .6rem .75rem; border: 2px solid #aab5c0; border-radius: .45rem; background: #fff; color: var(--ink);
}
input[aria-invalid="true"], textarea[aria-invalid="true"] { border-color: var(--danger); }
textarea { min-height: 6rem; resize: vertical; }
.field-error { color: var(--danger); font-weight: 600; margin: .25rem 0 0; }
button { font: inherit; font-weight: 700; padding: .6rem 1.2rem; border-radius: .45rem; border: 2px solid var(--accent);
  background: var(--accent); color: var(--accent-ink); cursor: pointer; min-height: 2.9rem; }
.actions button { margin-top: 1rem; }
button.danger { background: var(--danger); border-color: var(--danger); }
.sign-in { max-width: 26rem; margin: 4rem auto; }
.sign-in button { width: 100%; margin-top: 1.25rem; }
.heading { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1rem; margin-bottom: 1rem; }
.heading h1 { margin: 0; }
.heading .links { margin-left: auto; font-weight: 600; }
.search { display: flex; flex-wrap: wrap; gap: .5rem .75rem; align-items: end; margin: 0 0 1rem; }
.search label { margin: 0 0 .2rem; font-size: .85rem; }
.search > div { flex: 1 1 10rem; }
.search .q { flex: 3 1 16rem; }
select { width: 100%; font: inherit; padding: .55rem .6rem; border: 2px solid #aab5c0; border-radius: .45rem; background: #fff; color: var(--ink); }
.late { color: #b42318; font-weight: 700; }
.gift { white-space: pre-line; font-style: italic; margin: 0; }
.heading .links a { margin-left: 1rem; }
.shipment-buttons { display: flex; flex-wrap: wrap; gap: .5rem; }
.shipment-buttons form { margin: 0; }
.shipment-buttons button { padding: .35rem .8rem; min-height: 2.5rem; }
form.new-shipment { margin-top: 1.25rem; padding-top: 1rem; border-top: 1px solid var(--line); max-width: 40rem; }
form.new-shipment h3 { margin: 0 0 .25rem; font-size: 1.15rem; }
form.new-shipment fieldset { border: 0; margin: .75rem 0 0; padding: 0; }
form.new-shipment legend { font-weight: 700; padding: 0; }
.unit-choice { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem 1rem; }
.unit-choice label { flex: 1 1 14rem; margin: .4rem 0; }
.unit-choice input { width: 6rem; font: inherit; padding: .5rem .6rem; border: 2px solid #aab5c0; border-radius: .45rem; }
.unit-choice .field-error { flex-basis: 100%; }
form.new-shipment button { margin-top: 1rem; }
@media (max-width: 40rem) {
  body { font-size: 17px; } main { padding: 1rem; } .top { flex-wrap: wrap; gap: .5rem 1rem; padding: .75rem 1rem; }
  .top .name { flex: 1; } .top nav { order: 3; flex-basis: 100%; margin: 0 -.6rem; }
  table.cards thead { display: none; }
  table.cards tr { display: block; border-bottom: 1px solid var(--line); padding: .5rem 0; }
  table.cards td { display: flex; justify-content: space-between; gap: 1rem; border: 0; padding: .25rem .9rem; }
  table.cards td::before { content: attr(data-label); color: var(--muted); font-size: .8rem; text-transform: uppercase; flex-shrink: 0; }
  table.cards td.full { display: block; }
  table.cards td.full::before { content: none; }
  table.cards td > div { text-align: right; min-width: 0; overflow-wrap: anywhere; }
  table.cards td.full > div { text-align: left; }
  .spec dl.facts { grid-template-columns: 1fr; gap: 0; }
  .spec dl.facts dd { margin-bottom: .35rem; }
  .item-name { white-space: normal; }
}
`;

/** What a page needs of the operator: the form token of their session, or null when signed out. */
export type LayoutProps = { title: string; csrfToken: string | null; children?: Child };

/** The hidden field every console form but sign-in carries. */
export function CsrfField({ token }: { token: string }) {
	return <input type="hidden" name="_csrf" value={token} />;
}

/** What a cell or a fact shows when there is nothing to show. */
export function Dash() {
	return <span class="muted">—</span>;
}

/** An amount that never wraps mid-number (`$1,232.62`, `€45.00`, `¥9,800`), its digits lined up in columns. */
export function Amount({ cents, currency = "USD" }: { cents: number; currency?: Currency }) {
	return <span class="amount">{moneyText(cents, currency)}</span>;
}

/** Warnings in words as yellow tags, for a table row; nothing when there are none. */
export function WarningTags({ tags }: { tags: readonly string[] }) {
	if (tags.length === 0) return null;
	return (
		<ul class="row-warnings">
			{tags.map((tag) => (
				<li>{tag}</li>
			))}
		</ul>
	);
}

/** A status as a coloured badge, in words (`In production`). */
export function StatusBadge({ status, testId }: { status: OrderStatus; testId?: string }) {
	return (
		<span class={`status status-${status}`} data-testid={testId}>
			{statusLabel(status)}
		</span>
	);
}

/** The page frame: head, the console's header (with sign-out when signed in) and the content. */
export function Layout({ title, csrfToken, children }: LayoutProps) {
	return (
		<html lang="en">
			<PageHead title={`${title} · ${CONSOLE_NAME}`} css={CONSOLE_CSS} />
			<body>
				<header class="top">
					{csrfToken === null ? (
						<span class="name">{CONSOLE_NAME}</span>
					) : (
						<>
							<a class="name" href="/ops/orders">
								{CONSOLE_NAME}
							</a>
							<nav aria-label="Console">
								<a href="/ops/orders">Queue</a>
								<a href="/ops/shipments/import">Ship in bulk</a>
								<a href="/ops/claims">Claims</a>
								<a href="/ops/statements">Statements</a>
							</nav>
							<form method="post" action="/ops/sign-out">
								<CsrfField token={csrfToken} />
								<button type="submit">Sign out</button>
							</form>
						</>
					)}
				</header>
				<main>{children}</main>
			</body>
		</html>
	);
}
