/**
 * What each role of a partner's people may do in the console. Every page and form names the ability
 * it needs; the navigation shows only the sections a role may open, and a form a role may not use is
 * refused (403) even when posted by hand.
 */
import type { PartnerRole } from "../partner-users/users.ts";

export const PARTNER_ABILITIES = [
	/** Orders, claims and the brand profile, read. Every role. */
	"read",
	/** Change, cancel, fix and place orders, file claims. */
	"act_on_orders",
	/** Statements and the month so far. */
	"see_money",
	/** Webhook endpoints, the event log and its resends, test events, the list of API keys (never a secret). */
	"use_developer_tools",
	/** Create and revoke API keys, rotate webhook secrets, see a new secret. */
	"manage_keys_and_secrets",
	/** Change the brand profile and its logo. */
	"edit_brand",
	/** Invite people, change no one's password, revoke a user. */
	"manage_people",
] as const;
/** One of PARTNER_ABILITIES. */
export type PartnerAbility = (typeof PARTNER_ABILITIES)[number];

const ROLE_ABILITIES: Readonly<Record<PartnerRole, readonly PartnerAbility[]>> = {
	owner: PARTNER_ABILITIES,
	developer: ["read", "act_on_orders", "see_money", "use_developer_tools", "edit_brand"],
	support: ["read", "act_on_orders"],
	viewer: ["read", "see_money"],
};

/** Whether `role` may do what `ability` names. */
export function roleCan(role: PartnerRole, ability: PartnerAbility): boolean {
	return ROLE_ABILITIES[role].includes(ability);
}

/** The words for each role, as the pages say it. */
export const ROLE_WORDS: Readonly<Record<PartnerRole, string>> = {
	owner: "Owner: everything, including people, API keys and webhook secrets",
	developer: "Developer: orders, claims, money, brand and webhooks; sees API keys but cannot make or revoke them",
	support: "Support: orders and claims",
	viewer: "Viewer: reads orders, claims, money and the brand; changes nothing",
};
