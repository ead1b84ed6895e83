/**
 * The developers' corner, under /partner/developers: API keys, webhook endpoints and the event log of
 * the page's mode. Owners and developers open it (use_developer_tools); only owners make and revoke keys
 * and rotate or see a secret (manage_keys_and_secrets). Support and viewers get a 403 on every page.
 */
import { Hono } from "hono";
import type { EventTypes } from "../webhooks/event-types.ts";
import { developerEventRoutes } from "./developer-events.tsx";
import { developerKeyRoutes } from "./developer-keys.tsx";
import { developerWebhookRoutes } from "./developer-webhooks.tsx";
import type { SignedInPartnerEnv } from "./partner-env.ts";
import { requireAbility, requirePartner } from "./session-gate.ts";

/** The corner's pages and forms; `types` names the events an endpoint may receive. */
export function partnerDeveloperRoutes(types: EventTypes) {
	const routes = new Hono<SignedInPartnerEnv>();
	routes.use("*", requirePartner, requireAbility("use_developer_tools"));
	routes.route("/", developerKeyRoutes);
	routes.route("/", developerWebhookRoutes(types));
	routes.route("/", developerEventRoutes);
	return routes;
}
