/** One page of the floor's queue as the queue page's table shows it: a row per order, and the next page's link. */

import type { z } from "@hono/zod-openapi";
import { accountNames } from "../accounts/store.ts";
import { directoryDatabase } from "../databases.ts";
import { sizeText } from "../framing/words.ts";
import { decodeCursor, encodeCursor } from "../http/cursor.ts";
import { hoursSince } from "../http/format.ts";
import { floorQueue } from "../orders/floor-queue.ts";
import type { QueueQuery } from "../orders/queue-query.ts";
import type { ItemRow, OrderRow } from "../orders/rows.ts";
import { fulfillmentOf, type ShipmentRow } from "../orders/shipments.ts";
import { ORDER_STATUSES, type OrderStatus } from "../orders/state-machine.ts";
import { holdReasonLabel } from "../orders/words.ts";
import { addressWarningWords } from "../production/address-words.ts";
import { itemName, warningWords } from "../production/item-words.ts";
import { type QueueRow, type QueueSearch, queueHref } from "./queue-page.tsx";

const QUEUE_PAGE_SIZE = 50;

/** What the table shows of one page of the queue. */
export type QueueRows = { rows: QueueRow[]; nextPageHref: string | null; morePartnersNamed: boolean };

/** The page of the queue a valid search asks for, with each order's partner by name. */
export async function queueRows(
	env: Env,
	query: z.infer<typeof QueueQuery>,
	search: QueueSearch,
	statuses: readonly OrderStatus[],
	slaHours: number,
): Promise<QueueRows> {
	const {
		page: orders,
		more,
		partnerSearch,
	} = await floorQueue(env, {
		q: query.q,
		accountId: query.account_id,
		status: query.status,
		// Every status is no filter at all, so the index in the queue's order serves it.
		...(statuses.length === ORDER_STATUSES.length ? {} : { statuses }),
		mode: query.mode,
		limit: QUEUE_PAGE_SIZE,
		...(query.cursor === undefined ? {} : { cursor: decodeCursor(query.cursor) }),
	});
	const names = await accountNames(
		directoryDatabase(env),
		orders.map(({ order }) => order.account_id),
	);
	const now = new Date();
	const rows = orders.map(({ order, items, shipments }) =>
		queueRow(order, items, shipments, names.get(order.account_id) ?? order.account_id, now, slaHours),
	);
	const last = orders.at(-1)?.order;
	const nextPageHref =
		more && last !== undefined ? queueHref(search, encodeCursor({ createdAt: last.created_at, id: last.id })) : null;
	return { rows, nextPageHref, morePartnersNamed: partnerSearch?.more ?? false };
}

/** One order's row: how long it has been in its status, and whether that is past the service level. */
function queueRow(
	order: OrderRow,
	items: readonly ItemRow[],
	shipments: readonly ShipmentRow[],
	partnerName: string,
	now: Date,
	slaHours: number,
): QueueRow {
	const ageHours = hoursSince(order.updated_at, now);
	return {
		id: order.id,
		externalId: order.external_id,
		partnerName,
		mode: order.mode,
		status: order.status,
		holdReason: order.status === "on_hold" && order.hold_reason !== null ? holdReasonLabel(order.hold_reason) : null,
		itemCount: items.length,
		started: order.status === "in_production" && order.started_at !== null,
		shippedPart: shippedPart(order, items, shipments),
		largest: largestPiece(items),
		// The address's warnings too: a box must not go to an address a carrier may refuse.
		warnings: [
			...warningsInWords(items),
			...order.ship_to_warnings.map((warning) => `${addressWarningWords(warning).title} · Ship to`),
		],
		createdAt: order.created_at,
		ageHours,
		late: order.status === "in_production" && ageHours >= slaHours,
	};
}

/** `2 of 3 shipped` for an order in production whose units have started to ship. */
function shippedPart(order: OrderRow, items: readonly ItemRow[], shipments: readonly ShipmentRow[]): string | null {
	if (order.status !== "in_production" || shipments.length === 0) return null;
	const { units, shipped_units: shipped } = fulfillmentOf(items, shipments);
	return `${shipped} of ${units} shipped`;
}

/** Each item's warnings, by title and the item's name: `Low resolution · Item 2 of 3 · 16 × 20 in`. */
function warningsInWords(items: readonly ItemRow[]): string[] {
	return items.flatMap((item) =>
		item.warnings.map(
			(code) =>
				`${warningWords(code).title} · ${itemName({ position: item.position, widthIn: item.width_in, heightIn: item.height_in }, items.length)}`,
		),
	);
}

/** The largest finished piece of an order's items (by area), in words; null when none is priced yet. */
function largestPiece(items: readonly ItemRow[]): string | null {
	let largest: { width_in: number; height_in: number } | null = null;
	for (const item of items) {
		const outside = item.priced?.dimensions.outside;
		if (outside === undefined) continue;
		if (largest === null || outside.width_in * outside.height_in > largest.width_in * largest.height_in) {
			largest = outside;
		}
	}
	return largest === null ? null : sizeText(largest);
}
