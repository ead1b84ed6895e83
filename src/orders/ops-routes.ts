import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { createApp } from "../http/create-app.ts";
import { decodeCursor } from "../http/cursor.ts";
import { errorResponses, okOrThrow } from "../http/errors.ts";
import { floorQueue } from "./floor-queue.ts";
import {
	HoldBody,
	moveAsOperator,
	moveShipmentAsOperator,
	ShipBody,
	ShipmentBody,
	shipTracking,
	shipUnitsAsOperator,
} from "./operator-moves.ts";
import { QueuePageSchema, QueueQuery, toQueuePage } from "./queue-query.ts";
import { OrderIdParams, OrderSchema, ShipmentSchema, toOrder, toShipment } from "./response.ts";
import type { Move } from "./state-machine.ts";

const listQueue = protectedRoute("ops", {
	method: "get",
	path: "/ops/orders",
	tags: ["Operations"],
	summary:
		"The production queue across accounts, oldest first: search by order id, external_id or partner name; filter by partner, status and mode",
	request: { query: QueueQuery },
	responses: { 200: jsonResponse(QueuePageSchema, "A page of the queue."), ...errorResponses(422) },
});

function moveRoute(action: string, summary: string, body?: z.ZodType) {
	return protectedRoute("ops", {
		method: "post",
		path: `/ops/orders/{id}/${action}`,
		tags: ["Operations"],
		summary,
		request: {
			params: OrderIdParams,
			...(body === undefined ? {} : { body: { required: true, content: { "application/json": { schema: body } } } }),
		},
		responses: { 200: jsonResponse(OrderSchema, "The order after the move."), ...errorResponses(400, 404, 409, 422) },
	});
}

const holdRoute = protectedRoute("ops", {
	method: "post",
	path: "/ops/orders/{id}/hold",
	tags: ["Operations"],
	summary: "Hold an order in production (operator_hold, with a message)",
	request: { params: OrderIdParams, body: { required: true, content: { "application/json": { schema: HoldBody } } } },
	responses: { 200: jsonResponse(OrderSchema, "The order, on_hold."), ...errorResponses(400, 404, 409, 422) },
});

const shipRoute = protectedRoute("ops", {
	method: "post",
	path: "/ops/orders/{id}/ship",
	tags: ["Operations"],
	summary: "Record the shipping label: carrier, tracking number and URL",
	request: { params: OrderIdParams, body: { required: true, content: { "application/json": { schema: ShipBody } } } },
	responses: { 200: jsonResponse(OrderSchema, "The order, shipped."), ...errorResponses(400, 404, 409, 422) },
});

const createShipmentRoute = protectedRoute("ops", {
	method: "post",
	path: "/ops/orders/{id}/shipments",
	tags: ["Operations"],
	summary:
		"Record a shipment of some of the order's units (all that remain without items); the last units ship the order",
	request: {
		params: OrderIdParams,
		body: { required: true, content: { "application/json": { schema: ShipmentBody } } },
	},
	responses: {
		200: jsonResponse(
			ShipmentSchema,
			"The label is already this order's shipment of the same units: that shipment as it is now; nothing shipped.",
		),
		201: jsonResponse(ShipmentSchema, "The new shipment."),
		...errorResponses(400, 404, 409, 422),
	},
});

/** The `{id}` path parameter of shipment routes. */
const ShipmentIdParams = z.object({
	id: z.string().openapi({ param: { name: "id", in: "path" }, example: "shp_8Hd2kQ" }),
});

function shipmentMoveRoute(action: "deliver" | "return", summary: string) {
	return protectedRoute("ops", {
		method: "post",
		path: `/ops/shipments/{id}/${action}`,
		tags: ["Operations"],
		summary,
		request: { params: ShipmentIdParams },
		responses: { 200: jsonResponse(ShipmentSchema, "The shipment after the move."), ...errorResponses(404, 409) },
	});
}

const deliverShipmentRoute = shipmentMoveRoute(
	"deliver",
	"Record one shipment delivered; the order is delivered with its last shipment in transit",
);
const returnShipmentRoute = shipmentMoveRoute("return", "Record one shipment returned to the sender");

const startRoute = moveRoute(
	"start",
	"Start making an order in production: from then on the partner can no longer change or cancel it (not before its editable_until)",
);
const releaseRoute = moveRoute("release", "Release a hold: the order is validated again");
const deliverRoute = moveRoute("deliver", "Record delivery");
const cancelRoute = moveRoute("cancel", "Cancel an order before it ships");

/** The order after an operator's move, in its API shape. */
async function movedOrder(env: Env, id: string, move: Move) {
	return toOrder(okOrThrow(await moveAsOperator(env, id, move)).order);
}

/** Operator routes (scope `ops`): they see every account's orders. */
export const opsRoutes = createApp<AuthedEnv>()
	.openapi(listQueue, async (c) => {
		const query = c.req.valid("query");
		const queue = await floorQueue(c.env, {
			q: query.q,
			accountId: query.account_id,
			status: query.status,
			mode: query.mode,
			limit: query.limit,
			cursor: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
		});
		return c.json(toQueuePage(queue), 200);
	})
	.openapi(holdRoute, async (c) => {
		const { id } = c.req.valid("param");
		return c.json(await movedOrder(c.env, id, { kind: "hold", message: c.req.valid("json").message }), 200);
	})
	.openapi(shipRoute, async (c) => {
		const { id } = c.req.valid("param");
		return c.json(await movedOrder(c.env, id, { kind: "ship", tracking: shipTracking(c.req.valid("json")) }), 200);
	})
	.openapi(createShipmentRoute, async (c) => {
		const { id } = c.req.valid("param");
		const { shipment, repeated } = okOrThrow(await shipUnitsAsOperator(c.env, id, c.req.valid("json")));
		return repeated ? c.json(toShipment(shipment), 200) : c.json(toShipment(shipment), 201);
	})
	.openapi(deliverShipmentRoute, async (c) => {
		const { shipment } = okOrThrow(await moveShipmentAsOperator(c.env, c.req.valid("param").id, "deliver"));
		return c.json(toShipment(shipment), 200);
	})
	.openapi(returnShipmentRoute, async (c) => {
		const { shipment } = okOrThrow(await moveShipmentAsOperator(c.env, c.req.valid("param").id, "return"));
		return c.json(toShipment(shipment), 200);
	})
	.openapi(startRoute, async (c) => c.json(await movedOrder(c.env, c.req.valid("param").id, { kind: "start" }), 200))
	.openapi(releaseRoute, async (c) =>
		c.json(await movedOrder(c.env, c.req.valid("param").id, { kind: "release" }), 200),
	)
	.openapi(deliverRoute, async (c) =>
		c.json(await movedOrder(c.env, c.req.valid("param").id, { kind: "deliver" }), 200),
	)
	.openapi(cancelRoute, async (c) => c.json(await movedOrder(c.env, c.req.valid("param").id, { kind: "cancel" }), 200));
