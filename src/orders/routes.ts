import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { databaseOf } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { decodeCursor } from "../http/cursor.ts";
import { ApiError, errorResponses, okOrThrow, refusalError } from "../http/errors.ts";
import { createOrder, startOrder } from "./create-order.ts";
import { fixItem } from "./fix-item.ts";
import type { UpdateOutcome } from "./order-update.ts";
import { cancelOwnedOrder, updateOwnedOrder } from "./partner-changes.ts";
import { OrderIdParams, OrderPageSchema, OrderSchema, toOrder, toOrderPage } from "./response.ts";
import { CreateOrderBody, PatchItemBody } from "./schema.ts";
import { ORDER_STATUSES } from "./state-machine.ts";
import { findOrderByExternalId, findOwnedOrder, listOrders } from "./store.ts";
import { UpdatedOrderSchema, UpdateOrderBody } from "./update-schema.ts";

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

const createOrderRoute = protectedRoute(
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
	// The create is idempotent on its own key, the required `external_id`: a second key could only disagree with it.
	{ orderCreate: true, idempotencyKey: "ignored" },
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
	responses: {
		200: jsonResponse(OrderSchema, "The order, now `validating`."),
		...errorResponses(400, 404, 409, 422),
	},
});

const cancelOrder = protectedRoute("orders:write", {
	method: "post",
	path: "/orders/{id}/cancel",
	tags: ["Orders"],
	summary: "Cancel an order before it ships",
	request: { params: OrderIdParams },
	responses: { 200: jsonResponse(OrderSchema, "The canceled order."), ...errorResponses(404, 409) },
});

const updateOrderRoute = protectedRoute("orders:write", {
	method: "patch",
	path: "/orders/{id}",
	tags: ["Orders"],
	summary:
		"Change an order's recipient or shipping method (before production, or within the edit window) or its metadata (any time)",
	request: {
		params: OrderIdParams,
		body: { required: true, content: { "application/json": { schema: UpdateOrderBody } } },
	},
	responses: {
		200: jsonResponse(
			UpdatedOrderSchema,
			"The order after the change (or as it was, when nothing changed), with what the change did to its costs.",
		),
		...errorResponses(400, 404, 409, 422),
	},
});

/** The order a change produced, or the API's error: 404, 409 saying why and since when, or 422 on the field. */
function updatedOrder(outcome: UpdateOutcome) {
	if (outcome.ok) return { ...toOrder(outcome.order), costs_changed: outcome.costsChanged };
	if (outcome.kind === "not_found") throw new ApiError("order_not_found", outcome.message, "id");
	if (outcome.kind === "invalid") throw refusalError(outcome.problem);
	throw new ApiError("order_not_editable", `${outcome.message} (current status: ${outcome.status})`);
}

function notFound(id: string): ApiError {
	return new ApiError("order_not_found", `No order ${id}.`, "id");
}

/** Partner routes for orders: create, read, list, change, fix an item, cancel, and what may still be done. */
export const orderRoutes = createApp<AuthedEnv>()
	.openapi(createOrderRoute, async (c) => {
		const created = okOrThrow(await createOrder(c.env, c.var.principal, c.req.valid("json")));
		if (created.replayed) return c.json(toOrder(created.order), 200, { "Idempotent-Replayed": "true" });
		// The order is stored; waking its machine need not hold up the answer.
		c.executionCtx.waitUntil(startOrder(c.env, created, c.var.requestId));
		return c.json(toOrder(created.order), 201);
	})
	.openapi(getOrder, async (c) => {
		const { id } = c.req.valid("param");
		const found = await findOwnedOrder(
			databaseOf(c.env, c.var.principal.accountId),
			c.var.principal,
			id,
			c.env.PRINT_FILES,
		);
		if (found === null) throw notFound(id);
		return c.json(toOrder(found), 200);
	})
	.openapi(getOrderByExternalId, async (c) => {
		const { external_id: externalId } = c.req.valid("param");
		const found = await findOrderByExternalId(
			databaseOf(c.env, c.var.principal.accountId),
			c.var.principal,
			externalId,
			c.env.PRINT_FILES,
		);
		if (found === null)
			throw new ApiError("order_not_found", `No order with external_id "${externalId}".`, "external_id");
		return c.json(toOrder(found), 200);
	})
	.openapi(listOrdersRoute, async (c) => {
		const query = c.req.valid("query");
		const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
		const { page, more } = await listOrders(
			databaseOf(c.env, c.var.principal.accountId),
			c.var.principal,
			{
				status: query.status,
				// Stored times always carry milliseconds; comparing text needs the same spelling.
				createdAfter: query.created_after === undefined ? undefined : new Date(query.created_after).toISOString(),
				createdBefore: query.created_before === undefined ? undefined : new Date(query.created_before).toISOString(),
				limit: query.limit,
				cursor,
			},
			c.env.PRINT_FILES,
		);
		return c.json(toOrderPage({ page, more }), 200);
	})
	.openapi(patchItem, async (c) => {
		const { id, item_id: itemId } = c.req.valid("param");
		const fixed = okOrThrow(await fixItem(c.env, c.var.principal, id, itemId, c.req.valid("json")));
		return c.json(toOrder(fixed.order), 200);
	})
	.openapi(cancelOrder, async (c) => {
		const { id } = c.req.valid("param");
		const canceled = okOrThrow(await cancelOwnedOrder(c.env, c.var.principal, id));
		return c.json(toOrder(canceled.order), 200);
	})
	.openapi(updateOrderRoute, async (c) => {
		const { id } = c.req.valid("param");
		const outcome = await updateOwnedOrder(c.env, c.var.principal, id, c.req.valid("json"));
		return c.json(updatedOrder(outcome), 200);
	});
