/**
 * An order's rows as objects, their JSON columns parsed (the stores read and write the text), and the
 * pure mapping between them and the state machine's view.
 */
import type { KeyMode } from "../accounts/scopes.ts";
import type { SandboxProgress } from "../accounts/store.ts";
import type { ShipTo } from "../addresses/schema.ts";
import type { ShipToWarning } from "../addresses/ship-to-warnings.ts";
import type { FramingSpec } from "../framing/spec.ts";
import { randomBase62 } from "../ids.ts";
import type { DutyTerms } from "../money/account-billing.ts";
import type { ShippingMethod } from "../pricing/shipping.ts";
import type { ItemDeclaredValue, ItemPrice, OrderCosts } from "./costs.ts";
import type { OrderEventSubject } from "./events.ts";
import type { ItemWarning } from "./item-checks.ts";
import type { Metadata } from "./metadata.ts";
import type { ShipmentRow } from "./shipments.ts";
import type { HoldDetail, HoldReason, OrderState, OrderStatus, Tracking } from "./state-machine.ts";

/** An orders row, its JSON columns parsed. */
export type OrderRow = {
	id: string;
	account_id: string;
	mode: KeyMode;
	external_id: string;
	request_hash: string;
	status: OrderStatus;
	version: number;
	write_token: string;
	ship_to: ShipTo;
	/** What a carrier's label would trip on in ship_to, as of its last change. */
	ship_to_warnings: ShipToWarning[];
	callback_url: string | null;
	gift_message: string | null;
	hold_reason: HoldReason | null;
	hold_details: HoldDetail[];
	tracking_carrier: string | null;
	tracking_number: string | null;
	tracking_url: string | null;
	created_at: string;
	updated_at: string;
	shipped_at: string | null;
	delivered_at: string | null;
	canceled_at: string | null;
	shipping_method: ShippingMethod;
	quote_id: string | null;
	/** Null while the order is not priced: an item cannot be priced (yet). */
	costs: OrderCosts | null;
	/** Who pays the border's charges of a delivery abroad; null on orders made before duty terms. */
	duty_terms: DutyTerms | null;
	/** The partner's keys and values; `{}` when it sent none. */
	metadata: Metadata;
	/** Until when the partner may still change it and the floor does not see it; null without an edit window. */
	editable_until: string | null;
	/** When the floor started making it, which ends the partner's changes; null until then (and again after a hold). */
	started_at: string | null;
	/** The order this one reprints, when an approved claim made it; else null. */
	reprint_of: string | null;
	/** The claim whose approval made this reprint; else null. */
	claim_id: string | null;
	/** The ids of the orders approved claims made as this one's reprints, oldest first. */
	reprints: string[];
	/** How the sandbox moves a test order on: by itself, or only by the partner's controls (`manual`). */
	sandbox_progress: SandboxProgress;
};

/** An order_items row, its JSON columns parsed. */
export type ItemRow = {
	id: string;
	order_id: string;
	position: number;
	print_file_id: string | null;
	print_file_url: string | null;
	width_in: number;
	height_in: number;
	quantity: number;
	effective_dpi: number | null;
	/** The share of the image `fill` cuts off, once the file is known. */
	cropped_percent: number | null;
	warnings: ItemWarning[];
	/** Dimensions, united inches, unit price and line total; null while the item cannot be priced. */
	priced: ItemPrice | null;
	/** One unit's value for customs; null on items made before declared values (or unpriced and declared at nothing). */
	declared_value: ItemDeclaredValue | null;
} & FramingSpec;

/**
 * An order with its items and its shipments (oldest first), as read from D1, or from its archived record
 * in R2 (then `archivedAt` says when it left D1: a move must bring it back first, archive-store.ts).
 */
export type StoredOrder = { order: OrderRow; items: ItemRow[]; shipments: ShipmentRow[]; archivedAt?: string };

/** A new order's row: `received` at version 1 unless a status is given (tests start orders elsewhere). */
export function newOrderRow(fields: {
	id: string;
	accountId: string;
	mode: KeyMode;
	externalId: string;
	requestHash: string;
	shipTo: ShipTo;
	shipToWarnings?: ShipToWarning[];
	callbackUrl: string | null;
	giftMessage?: string | null;
	/** The method it ships by: `standard`, as for an order that names none, unless told. */
	shippingMethod?: ShippingMethod;
	quoteId?: string | null;
	costs?: OrderCosts | null;
	dutyTerms?: DutyTerms | null;
	metadata?: Metadata;
	/** The account's edit window in minutes (0 or absent: none). */
	editWindowMinutes?: number;
	/** How the sandbox moves a test order on (automatic when absent; a live order is always automatic). */
	sandboxProgress?: SandboxProgress;
	now: Date;
	status?: OrderStatus;
	/** A reprint's original order and the claim that made it. */
	reprint?: { of: string; claimId: string };
}): OrderRow {
	const windowMs = (fields.editWindowMinutes ?? 0) * 60_000;
	const at = fields.now.toISOString();
	return {
		id: fields.id,
		account_id: fields.accountId,
		mode: fields.mode,
		external_id: fields.externalId,
		request_hash: fields.requestHash,
		status: fields.status ?? "received",
		sandbox_progress: fields.mode === "test" ? (fields.sandboxProgress ?? "automatic") : "automatic",
		version: 1,
		write_token: randomBase62(16),
		ship_to: fields.shipTo,
		ship_to_warnings: fields.shipToWarnings ?? [],
		callback_url: fields.callbackUrl,
		gift_message: fields.giftMessage ?? null,
		hold_reason: null,
		hold_details: [],
		tracking_carrier: null,
		tracking_number: null,
		tracking_url: null,
		created_at: at,
		updated_at: at,
		shipped_at: null,
		delivered_at: null,
		canceled_at: null,
		shipping_method: fields.shippingMethod ?? "standard",
		quote_id: fields.quoteId ?? null,
		costs: fields.costs ?? null,
		duty_terms: fields.dutyTerms ?? null,
		metadata: fields.metadata ?? {},
		editable_until: windowMs > 0 ? new Date(fields.now.getTime() + windowMs).toISOString() : null,
		started_at: null,
		reprint_of: fields.reprint?.of ?? null,
		claim_id: fields.reprint?.claimId ?? null,
		reprints: [],
	};
}

/** An item's effective DPI as the views show it: to one decimal, null while its file is unknown. */
export function shownDpi(item: { effective_dpi: number | null }): number | null {
	return item.effective_dpi === null ? null : Math.round(item.effective_dpi * 10) / 10;
}

/** The state-machine view of a stored order. */
export function stateOf(order: OrderRow): OrderState {
	const tracking: Tracking | null =
		order.tracking_carrier !== null && order.tracking_number !== null && order.tracking_url !== null
			? { carrier: order.tracking_carrier, number: order.tracking_number, url: order.tracking_url }
			: null;
	return {
		status: order.status,
		holdReason: order.hold_reason,
		holdDetails: order.hold_details,
		tracking,
		shippedAt: order.shipped_at,
		deliveredAt: order.delivered_at,
		canceledAt: order.canceled_at,
		startedAt: order.started_at,
	};
}

/**
 * The row an order has after a move to `state`. `updated_at` is when it entered its status: a move that
 * keeps the status (the floor's start) keeps it, so the floor's hours in production count on.
 */
export function withState(order: OrderRow, state: OrderState, now: Date): OrderRow {
	return {
		...order,
		status: state.status,
		version: order.version + 1,
		write_token: randomBase62(16),
		hold_reason: state.holdReason,
		hold_details: state.holdDetails,
		tracking_carrier: state.tracking?.carrier ?? null,
		tracking_number: state.tracking?.number ?? null,
		tracking_url: state.tracking?.url ?? null,
		updated_at: state.status === order.status ? order.updated_at : now.toISOString(),
		shipped_at: state.shippedAt,
		delivered_at: state.deliveredAt,
		canceled_at: state.canceledAt,
		started_at: state.startedAt,
	};
}

/** What an event says of the order: the order row as the webhooks' body needs it. */
export function eventSubject(order: OrderRow): OrderEventSubject {
	const state = stateOf(order);
	return {
		id: order.id,
		external_id: order.external_id,
		status: order.status,
		version: order.version,
		tracking: state.tracking,
		shipped_at: order.shipped_at,
		hold_reason: order.hold_reason,
		hold_details: state.holdDetails,
		delivered_at: order.delivered_at,
		canceled_at: order.canceled_at,
		metadata: order.metadata,
	};
}
