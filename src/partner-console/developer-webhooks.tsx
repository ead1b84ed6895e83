/**
 * The developers' corner's webhook endpoints: the page's mode's endpoints, adding one (URL and event
 * filter), pausing and resuming, deleting, a signed test event (the API's ping), and for owners the
 * rotation of the mode's signing secret, the new one shown once. Every action is the API's function:
 * registerEndpoint, setEndpointPaused, deleteEndpoint, sendPing, rotateToNewSecret.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { databaseOf, directoryDatabase } from "../databases.ts";
import { refusalStatus } from "../http/errors.ts";
import { formatTime } from "../http/format.ts";
import { page } from "../http/html-pages.ts";
import { type PingOutcome, sendPing } from "../webhooks/deliver.ts";
import {
	deleteEndpoint,
	type EndpointRow,
	findEndpoint,
	listEndpoints,
	MAX_ENDPOINTS_PER_MODE,
	setEndpointPaused,
	subscribedTypes,
} from "../webhooks/endpoints.ts";
import type { EventTypes } from "../webhooks/event-types.ts";
import { registerEndpoint } from "../webhooks/register-endpoint.ts";
import { ROTATION_OVERLAP_MS, rotateToNewSecret } from "../webhooks/store.ts";
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

/** What the page shows besides the list: a test's answer, a new secret, a refusal with the form as posted. */
type WebhooksPageExtras = {
	tested?: { url: string; outcome: PingOutcome } | null;
	rotated?: { secret: string; previousExpiresAt: string } | null;
	alert?: string | null;
	posted?: { url: string; description: string; events: string[] } | null;
};

function WebhooksPage(
	props: { c: Context<SignedInPartnerEnv>; endpoints: EndpointRow[]; sent: readonly string[] } & WebhooksPageExtras,
) {
	const { c, endpoints, sent, tested, rotated, posted } = props;
	const { csrfToken, user } = c.var.signedIn;
	const mode = ownerOf(c).mode;
	const canRotate = roleCan(user.role, "manage_keys_and_secrets");
	const overlapHours = ROTATION_OVERLAP_MS / 3_600_000;
	const chosen = posted?.events ?? sent;
	return (
		<DeveloperFrame c={c} title="Webhook endpoints" current="webhooks" notice={doneSentence(c)} alert={props.alert}>
			{tested === undefined || tested === null ? null : tested.outcome.delivered ? (
				<p role="status">
					The test event reached {tested.url}: it answered {tested.outcome.status_code ?? "without a status"}.
				</p>
			) : (
				<div role="alert">
					The test event did not reach {tested.url}
					{tested.outcome.status_code === null ? "" : ` (it answered ${tested.outcome.status_code})`}:{" "}
					{tested.outcome.error ?? "no answer"}
				</div>
			)}
			{rotated === undefined || rotated === null ? null : (
				<section class="panel" aria-labelledby="new-secret">
					<h2 id="new-secret">Your new {mode} signing secret</h2>
					<p role="status">
						Copy this secret now: it is shown only this once. The previous secret keeps signing beside it until{" "}
						{formatTime(rotated.previousExpiresAt)}, so switch your receiver before then.
					</p>
					<code class="secret" id="rotated-secret">
						{rotated.secret}
					</code>
				</section>
			)}
			<section class="panel" aria-labelledby="endpoints">
				<h2 id="endpoints">The account's {mode} endpoints</h2>
				{endpoints.length === 0 ? (
					<p>No {mode} endpoint yet: events go only to each order's callback URL.</p>
				) : (
					<section class="table-wrap" tabindex={0} aria-label="Webhook endpoints">
						<table>
							<thead>
								<tr>
									<th scope="col">URL</th>
									<th scope="col">Events</th>
									<th scope="col">State</th>
									<th scope="col">Actions</th>
								</tr>
							</thead>
							<tbody>
								{endpoints.map((endpoint) => (
									<tr>
										<td class="mono">
											{endpoint.url}
											{endpoint.description === null ? null : <div class="muted">{endpoint.description}</div>}
										</td>
										<td>{subscribedTypes(endpoint, sent).join(", ")}</td>
										<td>
											{endpoint.paused_at === null ? (
												<span class="badge done">Receiving</span>
											) : (
												<span class="badge failed">Paused {formatTime(endpoint.paused_at)}</span>
											)}
										</td>
										<td>
											<EndpointAction
												c={c}
												endpoint={endpoint}
												action={endpoint.paused_at === null ? "pause" : "resume"}
											/>
											<EndpointAction c={c} endpoint={endpoint} action="test" />
											<EndpointAction c={c} endpoint={endpoint} action="delete" />
										</td>
									</tr>
								))}
							</tbody>
						</table>
					</section>
				)}
			</section>
			<section class="panel" aria-labelledby="add">
				<h2 id="add">Add a {mode} endpoint</h2>
				<p class="muted">At most {MAX_ENDPOINTS_PER_MODE} per mode. The URL must be https on a public host.</p>
				<form method="post" action={developerPath(c, "/webhooks")}>
					<input type="hidden" name="_csrf" value={csrfToken} />
					<label for="url">URL</label>
					<input id="url" name="url" type="url" required maxlength={2048} value={posted?.url ?? ""} />
					<label for="description">Note (optional)</label>
					<input id="description" name="description" maxlength={200} value={posted?.description ?? ""} />
					<fieldset class="checks">
						<legend>Events it receives</legend>
						{sent.map((type) => (
							<label for={`event-${type}`}>
								<input
									id={`event-${type}`}
									type="checkbox"
									name="events"
									value={type}
									checked={chosen.includes(type)}
								/>
								{type}
							</label>
						))}
					</fieldset>
					<button type="submit">Add endpoint</button>
				</form>
			</section>
			<section class="panel" aria-labelledby="secret">
				<h2 id="secret">Signing secret</h2>
				<p>
					Every {mode} webhook is signed with the {mode} secret. A rotation makes a new secret; the previous one keeps
					signing beside it for {overlapHours} hours.
				</p>
				{canRotate ? (
					<form method="post" action={developerPath(c, "/webhook-secret/rotate")}>
						<input type="hidden" name="_csrf" value={csrfToken} />
						<button type="submit" class="secondary">
							Rotate the {mode} secret
						</button>
					</form>
				) : (
					<p class="muted">Only the account's owner can rotate or see the secret.</p>
				)}
			</section>
		</DeveloperFrame>
	);
}

const ACTION_WORDS = { pause: "Pause", resume: "Resume", test: "Send test event", delete: "Delete" } as const;

function EndpointAction(props: {
	c: Context<SignedInPartnerEnv>;
	endpoint: EndpointRow;
	action: keyof typeof ACTION_WORDS;
}) {
	const { c, endpoint, action } = props;
	return (
		<form method="post" action={developerPath(c, `/webhooks/${endpoint.id}/${action}`)} class="inline">
			<input type="hidden" name="_csrf" value={c.var.signedIn.csrfToken} />
			<button
				type="submit"
				class={action === "delete" ? "danger" : "secondary"}
				aria-label={`${ACTION_WORDS[action]}: ${endpoint.url}`}
			>
				{ACTION_WORDS[action]}
			</button>{" "}
		</form>
	);
}

function notFound(c: Context<SignedInPartnerEnv>, id: string) {
	const { csrfToken, user } = c.var.signedIn;
	return partnerErrorPage(c, 404, `There is no webhook endpoint ${id} among this account's endpoints of this mode.`, {
		csrfToken,
		role: user.role,
	});
}

/** The endpoints' pages and forms, under /partner/developers; `types` names the events an endpoint may receive. */
export function developerWebhookRoutes(types: EventTypes) {
	const routes = new Hono<SignedInPartnerEnv>();
	const render = async (
		c: Context<SignedInPartnerEnv>,
		extras: WebhooksPageExtras,
		status: ContentfulStatusCode = 200,
	) => {
		const owner = ownerOf(c);
		const endpoints = await listEndpoints(databaseOf(c.env, owner.accountId), owner);
		return page(c, <WebhooksPage c={c} endpoints={endpoints} sent={types.sent} {...extras} />, status);
	};

	routes.get("/webhooks", (c) => render(c, {}));

	routes.post("/webhooks", requirePartnerCsrf, async (c) => {
		const form = await readRepeatedForm(c);
		const chosen = formTexts(form, "events");
		const posted = {
			url: formText(form, "url", 2048).trim(),
			description: formText(form, "description", 200).trim(),
			events: types.sent.filter((type) => chosen.includes(type)),
		};
		if (posted.events.length === 0) {
			return render(c, { alert: "Choose at least one event for the endpoint to receive.", posted }, 422);
		}
		const added = await registerEndpoint(
			c.env,
			ownerOf(c),
			{ url: posted.url, events: posted.events, description: posted.description === "" ? null : posted.description },
			types.sent,
			new Date(),
		);
		if (!added.ok) return render(c, { alert: added.message, posted }, refusalStatus(added));
		return c.redirect(developerPath(c, "/webhooks?done=added"), 303);
	});

	for (const action of ["pause", "resume"] as const) {
		routes.post(`/webhooks/:id/${action}`, requirePartnerCsrf, async (c) => {
			const owner = ownerOf(c);
			const id = c.req.param("id");
			const row = await setEndpointPaused(
				databaseOf(c.env, owner.accountId),
				owner,
				id,
				action === "pause",
				new Date(),
			);
			if (row === null) return notFound(c, id);
			return c.redirect(developerPath(c, `/webhooks?done=${action === "pause" ? "paused" : "resumed"}`), 303);
		});
	}

	routes.post("/webhooks/:id/delete", requirePartnerCsrf, async (c) => {
		const owner = ownerOf(c);
		const id = c.req.param("id");
		if (!(await deleteEndpoint(databaseOf(c.env, owner.accountId), owner, id))) return notFound(c, id);
		return c.redirect(developerPath(c, "/webhooks?done=deleted"), 303);
	});

	routes.post("/webhooks/:id/test", requirePartnerCsrf, async (c) => {
		const owner = ownerOf(c);
		const id = c.req.param("id");
		const row = await findEndpoint(databaseOf(c.env, owner.accountId), owner, id);
		if (row === null) return notFound(c, id);
		const outcome = await sendPing(c.env, { id: row.id, url: row.url, accountId: row.account_id, mode: row.mode });
		return render(c, { tested: { url: row.url, outcome } });
	});

	routes.post("/webhook-secret/rotate", requireAbility("manage_keys_and_secrets"), requirePartnerCsrf, async (c) => {
		const rotated = await rotateToNewSecret(directoryDatabase(c.env), ownerOf(c), new Date());
		c.header("Cache-Control", "no-store");
		return render(c, { rotated }, 201);
	});
	return routes;
}
