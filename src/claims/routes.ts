import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { databaseOf } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { decodeCursor } from "../http/cursor.ts";
import { ApiError, errorResponses, okOrThrow } from "../http/errors.ts";
import { orderActions } from "../orders/order-actions.ts";
import { OrderIdParams } from "../orders/response.ts";
import { findOwnedOrder } from "../orders/store.ts";
import { OrderActionsSchema } from "../orders/update-schema.ts";
import { deliverSoon } from "../webhooks/webhook-sender.do.ts";
import { claimAction } from "./claim-action.ts";
import { createClaim } from "./create-claim.ts";
import { ClaimIdParams, ClaimListQuery, ClaimPageSchema, ClaimSchema, CreateClaimBody, toClaimPage } from "./schema.ts";
import { claimsOfOrder, findOwnedClaim, listClaims, unitsInStandingClaims } from "./store.ts";

const createClaimRoute = protectedRoute("orders:write", {
	method: "post",
	path: "/orders/{id}/claims",
	tags: ["Claims"],
	summary: "Claim shipped units that arrived damaged, defective or wrong, or were lost in transit",
	request: {
		params: OrderIdParams,
		body: { required: true, content: { "application/json": { schema: CreateClaimBody } } },
	},
	responses: {
		201: jsonResponse(ClaimSchema, "The claim, `submitted`; `claim.created` is sent."),
		...errorResponses(400, 404, 409, 422),
	},
});

/**
 * What the partner may still do to an order. It lives beside the claims because its `claim` entry
 * reads them; every other entry is the orders' own rules (src/orders/order-actions.ts).
 */
const getActions = protectedRoute("orders:read", {
	method: "get",
	path: "/orders/{id}/actions",
	tags: ["Orders"],
	summary: "What the partner may still do to the order now, until when, and why not",
	request: { params: OrderIdParams },
	responses: {
		200: jsonResponse(OrderActionsSchema, "Each action: available, until, reason."),
		...errorResponses(404),
	},
});

const orderClaimsRoute = protectedRoute("orders:read", {
	method: "get",
	path: "/orders/{id}/claims",
	tags: ["Claims"],
	summary: "An order's claims, oldest first",
	request: { params: OrderIdParams },
	responses: {
		200: jsonResponse(ClaimPageSchema, "The order's claims (one page: an order has few)."),
		...errorResponses(404),
	},
});

const getClaimRoute = protectedRoute("orders:read", {
	method: "get",
	path: "/claims/{id}",
	tags: ["Claims"],
	summary: "Read a claim",
	request: { params: ClaimIdParams },
	responses: { 200: jsonResponse(ClaimSchema, "The claim."), ...errorResponses(404) },
});

const listClaimsRoute = protectedRoute("orders:read", {
	method: "get",
	path: "/claims",
	tags: ["Claims"],
	summary: "List claims, newest first",
	request: { query: ClaimListQuery },
	responses: {
		200: jsonResponse(ClaimPageSchema, "A page of claims and the cursor of the next."),
		...errorResponses(422),
	},
});

/** The 404 of an order the caller cannot see. */
function orderNotFound(id: string): ApiError {
	return new ApiError("order_not_found", `No order ${id}.`, "id");
}

/** Partner routes for claims: create on an order, list an order's, read one, list all. */
export const claimRoutes = createApp<AuthedEnv>()
	.openapi(createClaimRoute, async (c) => {
		const { id } = c.req.valid("param");
		const made = await createClaim(c.env, c.var.principal, id, c.req.valid("json"), new Date());
		const { claim, deliveries } = okOrThrow(made);
		// The claim and its event are stored; handing the event over need not hold up the answer.
		c.executionCtx.waitUntil(deliverSoon(c.env, deliveries));
		return c.json(claim, 201);
	})
	.openapi(getActions, async (c) => {
		const { id } = c.req.valid("param");
		const found = await findOwnedOrder(
			databaseOf(c.env, c.var.principal.accountId),
			c.var.principal,
			id,
			c.env.PRINT_FILES,
		);
		if (found === null) throw orderNotFound(id);
		const now = new Date();
		const standing =
			found.shipments.length === 0
				? { lost: new Map(), arrived: new Map() }
				: unitsInStandingClaims(await claimsOfOrder(databaseOf(c.env, c.var.principal.accountId), id));
		return c.json({ ...orderActions(found, now), claim: claimAction(found.shipments, standing, now) }, 200);
	})
	.openapi(orderClaimsRoute, async (c) => {
		const { id } = c.req.valid("param");
		const found = await findOwnedOrder(
			databaseOf(c.env, c.var.principal.accountId),
			c.var.principal,
			id,
			c.env.PRINT_FILES,
		);
		if (found === null) throw orderNotFound(id);
		const claims = await claimsOfOrder(databaseOf(c.env, c.var.principal.accountId), id);
		return c.json({ data: claims.map(({ claim }) => claim), next_cursor: null }, 200);
	})
	.openapi(getClaimRoute, async (c) => {
		const { id } = c.req.valid("param");
		const found = await findOwnedClaim(databaseOf(c.env, c.var.principal.accountId), c.var.principal, id);
		if (found === null) throw new ApiError("claim_not_found", `No claim ${id}.`, "id");
		return c.json(found.claim, 200);
	})
	.openapi(listClaimsRoute, async (c) => {
		const query = c.req.valid("query");
		const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
		const { page, more } = await listClaims(databaseOf(c.env, c.var.principal.accountId), c.var.principal, {
			status: query.status,
			limit: query.limit,
			cursor,
		});
		return c.json(toClaimPage({ page, more }), 200);
	});
