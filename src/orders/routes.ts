import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { isolateCatalog } from "../catalog/cache.ts";
import { allowsLocalUrls } from "../config.ts";
import {
	completeFraming,
	FRAMING_FIELDS,
	type FramingInput,
	framingProblem,
	sentFraming,
	specOf,
} from "../framing/spec.ts";
import { allOf, known, readTogether } from "../http/batched-read.ts";
import { createApp } from "../http/create-app.ts";
import { decodeCursor } from "../http/cursor.ts";
import { ApiError, errorResponses } from "../http/errors.ts";
import { outboundUrlProblem } from "../http/outbound-url.ts";
import { newId, sha256Hex } from "../ids.ts";
import { currentPrintFileGiven } from "../print-files/inspection.ts";
import { ownedPrintFileRead, type PrintFileRow, printFileKey } from "../print-files/store.ts";
import { piecesFactsWith, pricingFactsRead } from "../quotes/facts.ts";
import type { PieceFacts } from "../quotes/price-quote.ts";
import type { Quote } from "../quotes/schema.ts";
import { ownedQuoteRead } from "../quotes/store.ts";
import { chargeQuote, type OrderPricing, type PieceToMatch, priceOrder } from "./costs.ts";
import { orderFromOutcome, orderMachine } from "./machine.ts";
import { checkedUpload, checkUploadedFile } from "./order-files.ts";
import { OrderIdParams, OrderPageSchema, OrderSchema, toOrder, toOrderPage } from "./response.ts";
import { type ItemRow, newOrderRow, type StoredOrder } from "./rows.ts";
import {
	CreateOrderBody,
	type CreateOrderInput,
	canonicalOrderRequest,
	PatchItemBody,
	type PatchItemInput,
} from "./schema.ts";
import { ORDER_STATUSES } from "./state-machine.ts";
import {
	DuplicateExternalId,
	findOrderByExternalId,
	findOwnedOrder,
	insertOrder,
	listOrders,
	type Owner,
} from "./store.ts";

const ItemParams = OrderIdParams.extend({
	item_id: z.string().openapi({ param: { name: "item_id", in: "path" }, example: "itm_8fd2" }),
});
const ExternalIdParams = z.object({
	external_id: z.string().openapi({ param: { name: "external_id", in: "path" }, example: "PO-1001" }),
});
const ListQuery = z.object({
	status: z.enum(ORDER_STATUSES).optional(),
	created_after: z.iso.datetime().optional(),
	created_before: z.iso.datetime().optional(),
	limit: z.coerce.number().int().min(1).max(100).default(20),
	cursor: z.string().max(512).optional(),
});

const createOrder = protectedRoute(
	"orders:write",
	{
		method: "post",
		path: "/orders",
		tags: ["Orders"],
		summary: "Create an order (idempotent on external_id)",
		request: { body: { required: true, content: { "application/json": { schema: CreateOrderBody } } } },
		responses: {
			201: jsonResponse(OrderSchema, "Created, status `received`."),
			200: jsonResponse(
				OrderSchema,
				"A repeat of an earlier request with the same external_id and content: the first order, with `Idempotent-Replayed: true`.",
			),
			...errorResponses(400, 409, 422),
		},
	},
	{ orderCreate: true },
);

const getOrder = protectedRoute("orders:read", {
	method: "get",
	path: "/orders/{id}",
	tags: ["Orders"],
	summary: "Read an order",
	request: { params: OrderIdParams },
	responses: { 200: jsonResponse(OrderSchema, "The order."), ...errorResponses(404) },
});

const getOrderByExternalId = protectedRoute("orders:read", {
	method: "get",
	path: "/orders/by-external-id/{external_id}",
	tags: ["Orders"],
	summary: "Read an order by the partner's external_id (URL-encoded)",
	request: { params: ExternalIdParams },
	responses: { 200: jsonResponse(OrderSchema, "The order."), ...errorResponses(404) },
});

const listOrdersRoute = protectedRoute("orders:read", {
	method: "get",
	path: "/orders",
	tags: ["Orders"],
	summary: "List orders, newest first",
	request: { query: ListQuery },
	responses: {
		200: jsonResponse(OrderPageSchema, "A page of orders and the cursor of the next."),
		...errorResponses(422),
	},
});

const patchItem = protectedRoute("orders:write", {
	method: "patch",
	path: "/orders/{id}/items/{item_id}",
	tags: ["Orders"],
	summary: "Fix an item of an on-hold order (new file, size, frame or mat); the order is validated again",
	request: {
		params: ItemParams,
		body: { required: true, content: { "application/json": { schema: PatchItemBody } } },
	},
	responses: { 200: jsonResponse(OrderSchema, "The order, now `validating`."), ...errorResponses(400, 404, 409, 422) },
});

const cancelOrder = protectedRoute("orders:write", {
	method: "post",
	path: "/orders/{id}/cancel",
	tags: ["Orders"],
	summary: "Cancel an order before it ships",
	request: { params: OrderIdParams },
	responses: { 200: jsonResponse(OrderSchema, "The canceled order."), ...errorResponses(404, 409) },
});

function ownerOf(principal: AuthedEnv["Variables"]["principal"]): Owner {
	return { accountId: principal.accountId, mode: principal.mode };
}

function notFound(id: string): ApiError {
	return new ApiError("not_found", `No order ${id}.`, "id");
}

/** 422s for addresses the service may not call, checked here because they depend on the environment. */
function checkOutboundUrls(env: Env, input: CreateOrderInput): void {
	const options = { allowLocal: allowsLocalUrls(env) };
	if (input.callback_url !== undefined) {
		const problem = outboundUrlProblem(input.callback_url, options);
		if (problem !== null) throw new ApiError("validation_error", problem, "callback_url");
	}
	input.items.forEach((item, index) => {
		if (item.print_file_url === undefined) return;
		const problem = outboundUrlProblem(item.print_file_url, options);
		if (problem !== null) throw new ApiError("validation_error", problem, `items[${index}].print_file_url`);
	});
}

/** The answer to a create whose external_id is taken: a replay of the same content, else 409. */
function replayOrConflict(existing: StoredOrder, requestHash: string): { order: StoredOrder; replayed: true } {
	if (existing.order.request_hash !== requestHash) {
		throw new ApiError(
			"conflict",
			`external_id "${existing.order.external_id}" is already used by order ${existing.order.id} with different content.`,
			"external_id",
		);
	}
	return { order: existing, replayed: true };
}

/**
 * The new order's items and what it costs: each uploaded file checked at its item's size and fit (a
 * 422 on the item's file field), and the order priced by its quote or the book in force (a 422 on
 * `quote_id` or `shipping_method`). Every file row and the quote or the pricing facts are read in one
 * D1 batch, and the files' objects in R2 are asked for side by side with it.
 */
async function prepareItems(
	env: Env,
	owner: Owner,
	input: CreateOrderInput,
	orderId: string,
	now: Date,
): Promise<{ items: ItemRow[]; pricing: OrderPricing; files: PrintFileRow[] }> {
	// Each item with its complete specification, size and quantity: what is checked, priced and stored.
	const entries = input.items.map((item) => ({
		item,
		piece: { ...completeFraming(item), width_in: item.width_in, height_in: item.height_in, quantity: item.quantity },
	}));
	const quoteId = input.quote_id;
	const [snapshot, read, heads] = await Promise.all([
		quoteId === undefined ? isolateCatalog.get(env.DB) : null,
		readTogether(env.DB, {
			files: allOf(
				entries.map(({ item }) =>
					item.print_file_id === undefined ? known(null) : ownedPrintFileRead(env.DB, owner, item.print_file_id),
				),
			),
			facts: quoteId === undefined ? pricingFactsRead(env.DB, owner.accountId) : known(null),
			quote: quoteId === undefined ? known(null) : ownedQuoteRead(env.DB, owner, quoteId),
		}),
		Promise.all(
			entries.map(async ({ item }) => {
				if (item.print_file_id === undefined) return null;
				const key = printFileKey(owner, item.print_file_id);
				// Asked before the id is known to be a file. Should R2 refuse the key or fail, this is no answer:
				// the file, if found, is then compared with R2 by its own key.
				try {
					return { key, object: await env.PRINT_FILES.head(key) };
				} catch {
					return null;
				}
			}),
		),
	]);
	// The files' refusal comes first, as it did before orders were priced.
	const checks = await Promise.all(
		entries.map(async ({ item, piece }, index) => {
			if (item.print_file_id === undefined) return null;
			const found = read.files[index] ?? null;
			const file = found === null ? null : await currentPrintFileGiven(env, found, heads[index] ?? null);
			return checkedUpload(file, item.print_file_id, piece, `items[${index}].print_file_id`);
		}),
	);
	const facts = snapshot === null || read.facts === null ? null : piecesFactsWith(snapshot, read.facts);
	const pricing = pricingOf(
		input,
		entries.map(({ piece }) => piece),
		{ facts, quote: read.quote },
		now,
	);
	const items = entries.map(({ item, piece }, index): ItemRow => {
		const checked = checks[index] ?? null;
		const price = pricing.items[index] ?? null;
		return {
			id: newId("itm"),
			order_id: orderId,
			position: index,
			print_file_id: item.print_file_id ?? null,
			print_file_url: item.print_file_url ?? null,
			...piece,
			effective_dpi: checked?.effectiveDpi ?? null,
			cropped_percent: checked?.croppedPercent ?? null,
			warnings: JSON.stringify(checked?.warnings ?? []),
			priced: price === null ? null : JSON.stringify(price),
		};
	});
	const files = checks.flatMap((checked) => (checked === null ? [] : [checked.file]));
	return { items, pricing, files };
}

/** The order's method and charges: exactly its quote's when it names one, else the book in force now. */
function pricingOf(
	input: CreateOrderInput,
	pieces: PieceToMatch[],
	read: { facts: PieceFacts | null; quote: Quote | null },
	now: Date,
): OrderPricing {
	const requested = input.shipping_method ?? null;
	let outcome: ReturnType<typeof priceOrder>;
	if (input.quote_id !== undefined) {
		if (read.quote === null) {
			throw new ApiError("validation_error", `No quote ${input.quote_id} in this account and mode.`, "quote_id");
		}
		outcome = chargeQuote(read.quote, pieces, input.ship_to.country, requested, now);
	} else if (read.facts !== null) {
		outcome = priceOrder(input.items, input.ship_to.country, requested, read.facts);
	} else {
		throw new Error("an order without a quote was priced without the book");
	}
	if (!outcome.ok) throw new ApiError("validation_error", outcome.message, outcome.field);
	return outcome.pricing;
}

/**
 * The item as a PATCH leaves it: the fields sent replace the stored ones, a framing field sent as
 * null goes back to its default, and the result must be buildable (else a 422 on the field at fault).
 * A change of size or of anything but `fit` drops the item's price, so validation prices the order
 * again with the book in force; a new file alone changes no price.
 */
function patchedItem(item: ItemRow, patch: PatchItemInput): ItemRow {
	const before = specOf(item);
	const sent: FramingInput = sentFraming(before);
	for (const key of FRAMING_FIELDS) {
		const value = patch[key];
		if (value === null) delete sent[key];
		else if (value !== undefined) Object.assign(sent, { [key]: value });
	}
	const problem = framingProblem(sent);
	if (problem !== null) throw new ApiError("validation_error", problem.message, problem.field);
	const spec = completeFraming(sent);
	const width = patch.width_in ?? item.width_in;
	const height = patch.height_in ?? item.height_in;
	const repriced =
		width !== item.width_in ||
		height !== item.height_in ||
		FRAMING_FIELDS.some((key) => key !== "fit" && spec[key] !== before[key]);
	return {
		...item,
		...spec,
		width_in: width,
		height_in: height,
		...(patch.print_file_id !== undefined ? { print_file_id: patch.print_file_id, print_file_url: null } : {}),
		...(patch.print_file_url !== undefined ? { print_file_id: null, print_file_url: patch.print_file_url } : {}),
		effective_dpi: null,
		cropped_percent: null,
		warnings: "[]",
		priced: repriced ? null : item.priced,
	};
}

/** Partner routes for orders: create, read, list, fix an item, cancel. */
export const orderRoutes = createApp<AuthedEnv>()
	.openapi(createOrder, async (c) => {
		const input = c.req.valid("json");
		const owner = ownerOf(c.var.principal);
		checkOutboundUrls(c.env, input);
		const requestHash = await sha256Hex(canonicalOrderRequest(input));

		const now = new Date();
		const orderId = newId("ord");
		let prepared: Awaited<ReturnType<typeof prepareItems>>;
		try {
			prepared = await prepareItems(c.env, owner, input, orderId, now);
		} catch (error) {
			// A repeat is answered as the first order was, even if its file or quote would be refused today.
			if (!(error instanceof ApiError)) throw error;
			const existing = await findOrderByExternalId(c.env.DB, owner, input.external_id);
			if (existing === null) throw error;
			return c.json(toOrder(replayOrConflict(existing, requestHash).order), 200, { "Idempotent-Replayed": "true" });
		}
		const { items, pricing, files } = prepared;
		const order = newOrderRow({
			id: orderId,
			accountId: owner.accountId,
			mode: owner.mode,
			externalId: input.external_id,
			requestHash,
			shipTo: input.ship_to,
			callbackUrl: input.callback_url ?? null,
			giftMessage: input.gift_message ?? null,
			shippingMethod: pricing.shippingMethod,
			quoteId: input.quote_id ?? null,
			costs: pricing.costs === null ? null : JSON.stringify(pricing.costs),
			now,
		});
		try {
			await insertOrder(c.env.DB, order, items, now);
		} catch (error) {
			// The unique index, not an earlier read, decides whether this is the first create or a repeat.
			if (!(error instanceof DuplicateExternalId)) throw error;
			const winner = await findOrderByExternalId(c.env.DB, owner, input.external_id);
			if (winner === null) throw error;
			return c.json(toOrder(replayOrConflict(winner, requestHash).order), 200, {
				"Idempotent-Replayed": "true",
			});
		}
		// The order is stored; waking its machine need not hold up the answer. Should it fail, the cron
		// sweep starts orders left in `received`.
		const requestId = c.var.requestId;
		c.executionCtx.waitUntil(
			orderMachine(c.env, orderId)
				.begin(orderId, { order: { order, items }, files })
				.catch((error: unknown) => {
					console.error(
						JSON.stringify({ level: "error", request_id: requestId, order_id: orderId, message: String(error) }),
					);
				}),
		);
		return c.json(toOrder({ order, items }), 201);
	})
	.openapi(getOrder, async (c) => {
		const { id } = c.req.valid("param");
		const found = await findOwnedOrder(c.env.DB, ownerOf(c.var.principal), id);
		if (found === null) throw notFound(id);
		return c.json(toOrder(found), 200);
	})
	.openapi(getOrderByExternalId, async (c) => {
		const { external_id: externalId } = c.req.valid("param");
		const found = await findOrderByExternalId(c.env.DB, ownerOf(c.var.principal), externalId);
		if (found === null) throw new ApiError("not_found", `No order with external_id "${externalId}".`, "external_id");
		return c.json(toOrder(found), 200);
	})
	.openapi(listOrdersRoute, async (c) => {
		const query = c.req.valid("query");
		const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
		const { page, more } = await listOrders(c.env.DB, ownerOf(c.var.principal), {
			status: query.status,
			// Stored times always carry milliseconds; comparing text needs the same spelling.
			createdAfter: query.created_after === undefined ? undefined : new Date(query.created_after).toISOString(),
			createdBefore: query.created_before === undefined ? undefined : new Date(query.created_before).toISOString(),
			limit: query.limit,
			cursor,
		});
		return c.json(toOrderPage({ page, more }), 200);
	})
	.openapi(patchItem, async (c) => {
		const { id, item_id: itemId } = c.req.valid("param");
		const patch = c.req.valid("json");
		const owner = ownerOf(c.var.principal);
		const found = await findOwnedOrder(c.env.DB, owner, id);
		if (found === null) throw notFound(id);
		const item = found.items.find((candidate) => candidate.id === itemId);
		if (item === undefined) throw new ApiError("not_found", `Order ${id} has no item ${itemId}.`, "item_id");
		if (found.order.status !== "on_hold") {
			throw new ApiError(
				"conflict",
				`Items can only be changed while the order is on_hold; it is ${found.order.status}.`,
			);
		}
		if (patch.print_file_url !== undefined) {
			const problem = outboundUrlProblem(patch.print_file_url, { allowLocal: allowsLocalUrls(c.env) });
			if (problem !== null) throw new ApiError("validation_error", problem, "print_file_url");
		}
		const changed = patchedItem(item, patch);
		if (changed.print_file_id !== null && changed.print_file_url === null) {
			const checked = await checkUploadedFile(c.env, owner, changed.print_file_id, changed, "print_file_id");
			changed.effective_dpi = checked.effectiveDpi;
			changed.cropped_percent = checked.croppedPercent;
			changed.warnings = JSON.stringify(checked.warnings);
		}
		const outcome = await orderMachine(c.env, id).move(id, { kind: "fix_items" }, "partner", [changed]);
		return c.json(toOrder(orderFromOutcome(outcome)), 200);
	})
	.openapi(cancelOrder, async (c) => {
		const { id } = c.req.valid("param");
		const found = await findOwnedOrder(c.env.DB, ownerOf(c.var.principal), id);
		if (found === null) throw notFound(id);
		const outcome = await orderMachine(c.env, id).move(id, { kind: "cancel" }, "partner");
		return c.json(toOrder(orderFromOutcome(outcome)), 200);
	});
