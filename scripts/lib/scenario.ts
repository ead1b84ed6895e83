/** The setup the bench, load and fault scripts share: a partner, an admin key, lifted limits, a ready file. */

import { PARTNER_SCOPES } from "../../src/accounts/scopes.ts";
import type { NewAccount } from "../../src/admin/provisioning.ts";
import { createAccount, createAccountWithKeys } from "./accounts.ts";
import { pngOfSize } from "./image-fixtures.ts";
import type { D1Target } from "./wrangler.ts";

/** A valid US ship-to for the scripts' orders; `name` tells the script's buyers apart in the database. */
export function scenarioShipTo(name: string) {
	return { name, address1: "1 Main St", city: "Portland", state: "OR", zip: "97201", country: "US" };
}

/**
 * Bodies of framed orders of one ready file (8 × 10 in, walnut frame, white mat), a fresh external id
 * under `prefix` each call: what the benchmarks create again and again.
 */
export function framedOrderBodies(fileId: string, prefix: string, buyer: string): () => string {
	let sequence = 0;
	return () => {
		sequence += 1;
		return JSON.stringify({
			external_id: `${prefix}-${process.pid}-${sequence}`,
			ship_to: scenarioShipTo(buyer),
			items: [{ print_file_id: fileId, width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" }],
		});
	};
}

/** What the benchmarks drive as one partner: its headers, a ready file, fresh order bodies of it, and one order made. */
export type BenchPartner = {
	auth: Record<string, string>;
	json: Record<string, string>;
	fileId: string;
	orderBody: () => string;
	orderId: string;
};

/** Uploads a ready file with the partner's `key` and creates one order of it, whose id the order reads use. */
export async function benchPartner(origin: string, key: string, prefix: string, buyer: string): Promise<BenchPartner> {
	const auth = { Authorization: `Bearer ${key}` };
	const json = { ...auth, "Content-Type": "application/json" };
	const fileId = await uploadReadyFile(origin, json);
	const orderBody = framedOrderBodies(fileId, prefix, buyer);
	const seeded = await fetch(`${origin}/v1/orders`, { method: "POST", headers: json, body: orderBody() });
	if (seeded.status !== 201) throw new Error(`order create failed: ${seeded.status} ${await seeded.text()}`);
	const orderId = ((await seeded.json()) as { id: string }).id;
	return { auth, json, fileId, orderBody, orderId };
}

/** A partner account and an admin key on a service-team account, written to the target database. */
export async function createScenarioAccounts(
	target: D1Target,
	label: string,
): Promise<{ partner: NewAccount; adminKey: string }> {
	const partner = await createAccount(target, `${label} Partner`, PARTNER_SCOPES);
	const team = await createAccountWithKeys(target, `${label} service team`, [{ mode: "live", scopes: ["admin"] }]);
	const adminKey = team.keys[0]?.key;
	if (adminKey === undefined) throw new Error("no admin key");
	return { partner, adminKey };
}

/** Raises the account's limits through the admin route, so the limiters run on every request but never refuse. */
export async function liftLimits(origin: string, adminKey: string, accountId: string): Promise<void> {
	const response = await fetch(`${origin}/v1/admin/accounts/${accountId}/limits`, {
		method: "PUT",
		headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
		body: JSON.stringify({ requests_per_minute: 1_000_000, orders_per_second: 10_000, order_burst: 1_000_000 }),
	});
	if (response.status !== 200) throw new Error(`limit override failed: ${response.status} ${await response.text()}`);
}

/**
 * Uploads a 2400 × 3000 px PNG through the worker route (300 DPI at 8 × 10 in) and returns its id. The
 * default `body` has the right header but no image data (no thumbnail can be made of it); pass a real PNG
 * of that size where the file's thumbnail or previews are read.
 */
export async function uploadReadyFile(
	origin: string,
	headers: Record<string, string>,
	body: Uint8Array = pngOfSize(2400, 3000, 1000),
): Promise<string> {
	const created = await fetch(`${origin}/v1/print-files`, {
		method: "POST",
		headers,
		body: JSON.stringify({ content_type: "image/png" }),
	});
	const ticket = (await created.json()) as { id: string; upload_url: string; upload_headers: Record<string, string> };
	const stored = await fetch(ticket.upload_url, {
		method: "PUT",
		headers: ticket.upload_headers,
		body,
	});
	if (stored.status !== 200) throw new Error(`upload failed: ${stored.status} ${await stored.text()}`);
	return ticket.id;
}
