/**
 * A claim's reprint: a new order for the claimed units of an order, with the same files, framing,
 * ship-to, shipping method, callback URL and metadata, charged nothing, through the normal create and
 * its pipeline. Its external id is the original's with `-R<n>`, n the claim's number on the order, so
 * a reprint is made once per claim however often its making is retried.
 */
import type { Owner } from "../accounts/owner.ts";
import { FRAMING_FIELDS } from "../framing/spec.ts";
import { ApiError } from "../http/errors.ts";
import { createOrder, type OrderCreated } from "./create-order.ts";
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
		external_id: `${order.external_id}-R${request.claimNumber}`,
		ship_to: order.ship_to,
		items,
		...(order.shipping_method === null ? {} : { shipping_method: order.shipping_method }),
		...(order.callback_url === null ? {} : { callback_url: order.callback_url }),
		metadata: order.metadata,
	};
}

/** Creates the reprint of `original`'s claimed units for its owner (or finds the one made before). */
export async function createReprint(env: Env, original: StoredOrder, request: ReprintRequest): Promise<OrderCreated> {
	const parsed = CreateOrderBody.safeParse(reprintRequest(original, request));
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new ApiError(
			"order_move_refused",
			`The reprint of ${original.order.id} cannot be ordered as it was: ${issue?.path.join(".") ?? ""} ${issue?.message ?? ""}`.trim(),
		);
	}
	// A reprint is the service's own order: it has no edit window and goes to the floor at once.
	const owner: Owner & { editWindowMinutes: number } = {
		accountId: original.order.account_id,
		mode: original.order.mode,
		editWindowMinutes: 0,
	};
	return createOrder(env, owner, parsed.data, {
		of: original.order.id,
		claimId: request.claimId,
		orderId: request.orderId,
	});
}
