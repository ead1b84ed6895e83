/**
 * Sends a sample event (sample-events.ts) to each of the account's test endpoints that subscribe to
 * its type, at once and in parallel, one attempt each, signed with the test secret like every test
 * webhook; and answers what each endpoint replied.
 */
import type { Owner } from "../accounts/owner.ts";
import { CLAIM_EVENT_TYPES, type ClaimEventType } from "../claims/events.ts";
import { databaseOf } from "../databases.ts";
import {
	ORDER_EVENT_TYPES,
	type OrderEventType,
	SHIPMENT_EVENT_TYPES,
	type ShipmentEventType,
} from "../orders/events.ts";
import { type Refusal, refusalOf } from "../problem.ts";
import { sendOnce } from "../webhooks/deliver.ts";
import { listEndpoints, subscribedTypes } from "../webhooks/endpoints.ts";
import { sampleEventBody } from "./sample-events.ts";

type SampleType = OrderEventType | ShipmentEventType | ClaimEventType;
const SAMPLE_TYPES: readonly string[] = [...ORDER_EVENT_TYPES, ...SHIPMENT_EVENT_TYPES, ...CLAIM_EVENT_TYPES];

function isSampleType(type: string): type is SampleType {
	return SAMPLE_TYPES.includes(type);
}

/** What sending a sample came to: its id, type and body, and each endpoint's answer. */
export type SamplesSent = {
	id: string;
	type: string;
	body: Record<string, unknown>;
	deliveries: Array<{
		endpoint_id: string;
		url: string;
		delivered: boolean;
		status_code: number | null;
		error: string | null;
	}>;
};

/**
 * A sample of `type` sent to the owner's endpoints that subscribe to it; refused (409
 * `sandbox_no_endpoint`) when none does, as nothing would receive it. `sent` are the types the
 * service sends, which an endpoint subscribes to.
 */
export async function sendSamples(
	env: Env,
	owner: Owner,
	type: string,
	sent: readonly string[],
	now: Date,
): Promise<{ ok: true; result: SamplesSent } | Refusal> {
	if (!isSampleType(type)) return refusalOf("sandbox_no_endpoint", `${type} is not an event the service sends.`);
	const endpoints = (await listEndpoints(databaseOf(env, owner.accountId), owner)).filter((endpoint) =>
		subscribedTypes(endpoint, sent).includes(type),
	);
	if (endpoints.length === 0) {
		return refusalOf(
			"sandbox_no_endpoint",
			`No ${owner.mode} webhook endpoint subscribes to ${type}: add one with POST /v1/webhook-endpoints, then send the sample again.`,
		);
	}
	const sample = sampleEventBody(type, owner, now);
	const deliveries = await Promise.all(
		endpoints.map(async (endpoint) => ({
			endpoint_id: endpoint.id,
			url: endpoint.url,
			...(await sendOnce(
				env,
				{ id: endpoint.id, url: endpoint.url, accountId: owner.accountId, mode: owner.mode },
				sample.id,
				sample.body,
				now,
			)),
		})),
	);
	return {
		ok: true,
		result: { id: sample.id, type, body: JSON.parse(sample.body) as Record<string, unknown>, deliveries },
	};
}
