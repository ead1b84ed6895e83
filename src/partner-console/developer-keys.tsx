/**
 * The developers' corner's API keys: the account's keys of the page's mode (prefix, scopes, created,
 * expiry, last use, revoked), and for owners a new key (shown once, on the page that made it) and a
 * revocation after a confirmation that warns when the key is the mode's last working one. Keys are made
 * by the accounts' planKey and revoked by access's revokeApiKey, as the admin API does.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { revokeApiKey } from "../access/key-revocation.ts";
import { KEY_USE_RECORD_MINUTES, keyHasExpired } from "../accounts/key-life.ts";
import { planKey } from "../accounts/provisioning.ts";
import { PARTNER_SCOPES, type Scope } from "../accounts/scopes.ts";
import { findOwnedKey, type KeySummary, listKeys, runBatch } from "../accounts/store.ts";
import { directoryDatabase } from "../databases.ts";
import { formatTime } from "../http/format.ts";
import { page } from "../http/html-pages.ts";
import {
	DeveloperFrame,
	developerPath,
	doneSentence,
	formText,
	formTexts,
	readRepeatedForm,
} from "./developer-frame.tsx";
import { partnerErrorPage } from "./pages.tsx";
import type { SignedInPartnerEnv } from "./partner-env.ts";
import { roleCan } from "./permissions.ts";
import { ownerOf } from "./scope.ts";
import { requireAbility, requirePartnerCsrf } from "./session-gate.ts";

/** What each partner scope lets a key do, as the create form says it. */
const SCOPE_WORDS: Readonly<Record<string, string>> = {
	"orders:read": "Read orders",
	"orders:write": "Place, change and cancel orders; manage webhook endpoints",
	"files:write": "Upload print files",
	"events:read": "Read the event log and resend events",
};

/** The expiries the create form offers, in days (0: never). */
const EXPIRY_DAYS = [0, 7, 30, 90, 365] as const;

/** A key's state in words: working, revoked (when), or expired (when). */
function keyState(key: KeySummary, now: Date): { words: string; working: boolean } {
	if (key.revoked_at !== null) return { words: `Revoked ${formatTime(key.revoked_at)}`, working: false };
	if (key.expires_at !== null && keyHasExpired(key.expires_at, now)) {
		return { words: `Expired ${formatTime(key.expires_at)}`, working: false };
	}
	return { words: "Working", working: true };
}

/** The keys page; `issued` is a key just made, shown this once. */
function KeysPage(props: {
	c: Context<SignedInPartnerEnv>;
	keys: KeySummary[];
	issued?: { key: string; prefix: string } | null;
	alert?: string | null;
}) {
	const { c, keys } = props;
	const { csrfToken, user } = c.var.signedIn;
	const mode = ownerOf(c).mode;
	const canManage = roleCan(user.role, "manage_keys_and_secrets");
	const now = new Date();
	return (
		<DeveloperFrame c={c} title="API keys" current="keys" notice={doneSentence(c)} alert={props.alert}>
			{props.issued === undefined || props.issued === null ? null : (
				<section class="panel" aria-labelledby="new-key">
					<h2 id="new-key">Your new {mode} key</h2>
					<p role="status">
						Copy this key now and keep it somewhere safe: it is shown only this once, and no one can show it again.
					</p>
					<code class="secret" id="issued-key">
						{props.issued.key}
					</code>
				</section>
			)}
			<section class="panel" aria-labelledby="keys">
				<h2 id="keys">The account's {mode} keys</h2>
				<p class="muted">
					A key's last use is noted at most once every {KEY_USE_RECORD_MINUTES} minutes. The keys themselves are never
					stored: only their first characters are shown.
				</p>
				{keys.length === 0 ? (
					<p>This account has no {mode} keys.</p>
				) : (
					<section class="table-wrap" tabindex={0} aria-label="API keys">
						<table>
							<thead>
								<tr>
									<th scope="col">Key</th>
									<th scope="col">Scopes</th>
									<th scope="col">Created</th>
									<th scope="col">Expires</th>
									<th scope="col">Last used</th>
									<th scope="col">State</th>
									{canManage ? <th scope="col">Action</th> : null}
								</tr>
							</thead>
							<tbody>
								{keys.map((key) => {
									const state = keyState(key, now);
									return (
										<tr>
											<td class="mono">{key.display_prefix}…</td>
											<td>{key.scopes.join(", ")}</td>
											<td>{formatTime(key.created_at)}</td>
											<td>{key.expires_at === null ? "Never" : formatTime(key.expires_at)}</td>
											<td>{key.last_used_at === null ? "Never" : formatTime(key.last_used_at)}</td>
											<td>
												<span class={state.working ? "badge done" : "badge failed"}>{state.words}</span>
											</td>
											{canManage ? (
												<td>
													{state.working && key.revoked_at === null ? (
														<a href={developerPath(c, `/keys/${key.id}/revoke`)}>
															Revoke <span class="mono">{key.display_prefix}…</span>
														</a>
													) : null}
												</td>
											) : null}
										</tr>
									);
								})}
							</tbody>
						</table>
					</section>
				)}
			</section>
			{canManage ? (
				<section class="panel" aria-labelledby="create">
					<h2 id="create">Create a {mode} key</h2>
					<form method="post" action={developerPath(c, "/keys")}>
						<input type="hidden" name="_csrf" value={csrfToken} />
						<fieldset class="checks">
							<legend>Scopes</legend>
							{PARTNER_SCOPES.map((scope) => (
								<label for={`scope-${scope}`}>
									<input id={`scope-${scope}`} type="checkbox" name="scopes" value={scope} checked />
									{scope}: {SCOPE_WORDS[scope] ?? scope}
								</label>
							))}
						</fieldset>
						<label for="expires">Expires</label>
						<select id="expires" name="expires_in_days">
							{EXPIRY_DAYS.map((days) => (
								<option value={String(days)}>{days === 0 ? "Never" : `In ${days} days`}</option>
							))}
						</select>
						<button type="submit">Create key</button>
					</form>
				</section>
			) : (
				<p class="muted">Only the account's owner can create or revoke keys.</p>
			)}
		</DeveloperFrame>
	);
}

/** The confirmation before a revocation, warning when no other key of the mode would still work. */
function RevokePage(props: { c: Context<SignedInPartnerEnv>; revoking: KeySummary; lastWorking: boolean }) {
	const { c, revoking: key, lastWorking } = props;
	const mode = key.mode;
	return (
		<DeveloperFrame c={c} title="Revoke a key?" current="keys">
			<section class="panel">
				<dl>
					<dt>Key</dt>
					<dd class="mono">{key.display_prefix}…</dd>
					<dt>Scopes</dt>
					<dd>{key.scopes.join(", ")}</dd>
					<dt>Created</dt>
					<dd>{formatTime(key.created_at)}</dd>
					<dt>Last used</dt>
					<dd>{key.last_used_at === null ? "Never" : formatTime(key.last_used_at)}</dd>
				</dl>
				<p>The API refuses this key from its very next request. A revoked key never works again.</p>
				{lastWorking ? (
					<div role="alert">
						This is the account's last working {mode} key: once it is revoked, no program can call the API in {mode}{" "}
						mode until an owner creates a new key on this page. The console itself stays open to you.
					</div>
				) : null}
				<form method="post" action={developerPath(c, `/keys/${key.id}/revoke`)} class="actions">
					<input type="hidden" name="_csrf" value={c.var.signedIn.csrfToken} />
					<button type="submit" class="danger">
						Revoke {key.display_prefix}…
					</button>
					<a class="button secondary" href={developerPath(c, "")}>
						Keep the key
					</a>
				</form>
			</section>
		</DeveloperFrame>
	);
}

/** A page that shows a secret must not be kept by the browser or anything in between. */
function noStore(c: Context): void {
	c.header("Cache-Control", "no-store");
}

function notFound(c: Context<SignedInPartnerEnv>, id: string) {
	const { csrfToken, user } = c.var.signedIn;
	return partnerErrorPage(c, 404, `There is no key ${id} among this account's keys of this mode.`, {
		csrfToken,
		role: user.role,
	});
}

/** The keys' pages and forms, under /partner/developers (behind the corner's gate). */
export const developerKeyRoutes = new Hono<SignedInPartnerEnv>();

developerKeyRoutes.get("/", async (c) => {
	const keys = await listKeys(directoryDatabase(c.env), ownerOf(c));
	return page(c, <KeysPage c={c} keys={keys} />);
});

developerKeyRoutes.post("/keys", requireAbility("manage_keys_and_secrets"), requirePartnerCsrf, async (c) => {
	const owner = ownerOf(c);
	const db = directoryDatabase(c.env);
	const form = await readRepeatedForm(c);
	const chosen = formTexts(form, "scopes");
	const scopes: Scope[] = PARTNER_SCOPES.filter((scope) => chosen.includes(scope));
	const days = Number(formText(form, "expires_in_days", 10) || "0");
	const refusal =
		scopes.length === 0
			? "Choose at least one scope for the key."
			: !EXPIRY_DAYS.some((offered) => offered === days)
				? "Choose one of the expiries the form offers."
				: null;
	if (refusal !== null) return page(c, <KeysPage c={c} keys={await listKeys(db, owner)} alert={refusal} />, 422);
	const now = new Date();
	const expiresAt = days === 0 ? null : new Date(now.getTime() + days * 86_400_000);
	const { issued, statement } = await planKey(owner.accountId, owner.mode, scopes, now, expiresAt);
	await runBatch(db, [statement]);
	noStore(c);
	const keys = await listKeys(db, owner);
	return page(c, <KeysPage c={c} keys={keys} issued={{ key: issued.key, prefix: issued.display_prefix }} />, 201);
});

developerKeyRoutes.get("/keys/:id/revoke", requireAbility("manage_keys_and_secrets"), async (c) => {
	const owner = ownerOf(c);
	const db = directoryDatabase(c.env);
	const key = await findOwnedKey(db, owner, c.req.param("id"));
	if (key === null || key.revoked_at !== null) return notFound(c, c.req.param("id"));
	const now = new Date();
	const others = (await listKeys(db, owner)).filter((other) => other.id !== key.id && keyState(other, now).working);
	return page(c, <RevokePage c={c} revoking={key} lastWorking={others.length === 0} />);
});

developerKeyRoutes.post(
	"/keys/:id/revoke",
	requireAbility("manage_keys_and_secrets"),
	requirePartnerCsrf,
	async (c) => {
		const key = await findOwnedKey(directoryDatabase(c.env), ownerOf(c), c.req.param("id"));
		if (key === null) return notFound(c, c.req.param("id"));
		await revokeApiKey(c.env, key.id, new Date());
		return c.redirect(developerPath(c, "?done=revoked"), 303);
	},
);
