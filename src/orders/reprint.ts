/**
 * A claim's reprint: a new order for the claimed units of an order, with the same files, framing,
 * ship-to, shipping method, callback URL and metadata, charged nothing, checked as a create is and
 * then through the normal pipeline. Its external id is the original's with `-R<n>`, n the claim's
 * number on the order (the original's end cut so the name stays within 128 characters). The name is
 * for people: a reprint is unique by its claim, and never takes or replays a partner's own order of
 * the same name.
 */
import { FRAMING_FIELDS } from "../framing/spec.ts";
import { type Refusal, refusalOf } from "../problem.ts";
import { type OrderOwner, type PreparedOrder, prepareReprintOrder } from "./create-order.ts";
import type { StoredOrder } from "./rows.ts";
import { CreateOrderBody } from "./schema.ts";

/** What a reprint is made from: the claimed units, the claim and its number on the order, the new order's id. */
export type ReprintRequest = {
	units: ReadonlyArray<{ item_id: string; quantity: number }>;
	claimId: string;
	claimNumber: number;
	orderId: string;
};

/** The create request of the reprint of `original`'s claimed units, as a partner would have sent it. */
export function reprintRequest(original: StoredOrder, request: ReprintRequest): unknown {
	const byId = new Map(original.items.map((item) => [item.id, item]));
	const items = request.units.flatMap((unit) => {
		const item = byId.get(unit.item_id);
		if (item === undefined) return [];
		const framing = Object.fromEntries(
			FRAMING_FIELDS.flatMap((field) => (item[field] === null ? [] : [[field, item[field]]])),
		);
		return [
			{
				...(item.print_file_id === null ? {} : { print_file_id: item.print_file_id }),
				...(item.print_file_url === null ? {} : { print_file_url: item.print_file_url }),
				width_in: item.width_in,
				height_in: item.height_in,
				quantity: unit.quantity,
				...framing,
			},
		];
	});
	const { order } = original;
	return {
		external_id: reprintExternalId(order.external_id, request.claimNumber),
		ship_to: order.ship_to,
		items,
		shipping_method: order.shipping_method,
		...(order.callback_url === null ? {} : { callback_url: order.callback_url }),
		metadata: order.metadata,
	};
}

/**
 * `<external id>-R<n>` within the external id's 128 (UTF-16) units: the original's id cut at a whole
 * character to make room, never through a surrogate pair.
 */
export function reprintExternalId(externalId: string, claimNumber: number): string {
	const suffix = `-R${claimNumber}`;
	let kept = "";
	for (const character of externalId) {
		if (kept.length + character.length + suffix.length > 128) break;
		kept += character;
	}
	return `${kept}${suffix}`;
}

/**
 * The reprint of `original`'s claimed units for its owner, checked and ready to write (not written); or
 * why it cannot be made: the original no longer passes as a create request, or the create's refusal.
 */
export async function prepareReprint(
	env: Env,
	original: StoredOrder,
	request: ReprintRequest,
): Promise<({ ok: true } & PreparedOrder) | Refusal> {
	const parsed = CreateOrderBody.safeParse(reprintRequest(original, request));
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return refusalOf(
			"order_move_refused",
			`The reprint of ${original.order.id} cannot be ordered as it was: ${issue?.path.join(".") ?? ""} ${issue?.message ?? ""}`.trim(),
		);
	}
	// A reprint is the service's own order: it has no edit window and goes to the floor at once.
	const owner: OrderOwner = {
		accountId: original.order.account_id,
		mode: original.order.mode,
		editWindowMinutes: 0,
	};
	return prepareReprintOrder(env, owner, parsed.data, {
		of: original.order.id,
		claimId: request.claimId,
		orderId: request.orderId,
	});
}
