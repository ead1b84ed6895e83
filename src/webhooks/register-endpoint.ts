/**
 * Registering a webhook endpoint, as the API and the partner console both do it: the URL judged by the
 * outbound rules in its normal form (so the unique index sees every spelling of a URL as one), then
 * stored unless the owner's mode is full or has that URL already.
 */
import type { Owner } from "../accounts/owner.ts";
import { allowsLocalUrls } from "../config.ts";
import { databaseOf } from "../databases.ts";
import { normalisedUrl, outboundUrlProblem } from "../http/outbound-url.ts";
import { type Refusal, refusal, refusalOf } from "../problem.ts";
import { addEndpoint, type EndpointRow, MAX_ENDPOINTS_PER_MODE } from "./endpoints.ts";

/** What the partner asked for: the URL as typed, the event types (of `sent`) and a note. */
export type EndpointRequest = { url: string; events: readonly string[]; description: string | null };

/** Registers an endpoint for `owner`; `sent` are the event types the service sends. */
export async function registerEndpoint(
	env: Env,
	owner: Owner,
	input: EndpointRequest,
	sent: readonly string[],
	now: Date,
): Promise<{ ok: true; endpoint: EndpointRow } | Refusal> {
	const url = normalisedUrl(input.url);
	if (url === null)
		return refusal("url_not_allowed", "url", "The URL must be absolute, such as https://example.com/path.");
	const problem = outboundUrlProblem(url, { allowLocal: allowsLocalUrls(env) });
	if (problem !== null) return refusal("url_not_allowed", "url", problem);
	const added = await addEndpoint(
		databaseOf(env, owner.accountId),
		owner,
		{ url, events: input.events, description: input.description },
		sent,
		now,
	);
	if (added.ok) return added;
	return added.refusal === "limit"
		? refusalOf(
				"webhook_endpoint_limit",
				`This account already has ${MAX_ENDPOINTS_PER_MODE} ${owner.mode} webhook endpoints; delete one first.`,
			)
		: refusal(
				"webhook_endpoint_exists",
				"url",
				`This account already has a ${owner.mode} webhook endpoint at this URL (${url}).`,
			);
}
