/**
 * `POST /v1/addresses/check`: an address judged before any order exists, as order creation would
 * judge it, with the warnings a carrier's label would trip on. Reads and writes nothing.
 */
import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { createApp } from "../http/create-app.ts";
import { errorResponses } from "../http/errors.ts";
import { SHIPPING_METHODS } from "../pricing/shipping.ts";
import { checkAddress } from "./address-check.ts";
import { AddressCheckSchema, ShipToToCheckSchema } from "./check-schema.ts";

const shippingMethod = z.enum(SHIPPING_METHODS).optional().openapi({
	description:
		"The method the order would ship by, for the warnings that depend on it (a PO box with express or freight). Omitted: none of those warnings.",
	example: "express",
});

/**
 * The request, as served and as documented: an address as loose as the check needs (any text in each
 * field, so that what is wrong in it is answered as problems), in a body that refuses any other field.
 */
const AddressCheckBody = z
	.strictObject({ ship_to: ShipToToCheckSchema, shipping_method: shippingMethod })
	.openapi("AddressCheckBody", {
		example: {
			ship_to: {
				name: "Ada Lovelace",
				address1: "PO  Box 4410",
				city: "New York",
				state: "ny",
				zip: "10118",
				country: "US",
				phone: "+1 212-555-0100",
			},
			shipping_method: "express",
		},
	});

const checkRoute = protectedRoute(
	"orders:read",
	{
		method: "post",
		path: "/addresses/check",
		tags: ["Orders"],
		summary: "Check a ship-to address",
		description:
			"Before any order exists: `problems` are what creating an order would refuse in this ship_to (same rules, codes and messages), `warnings` what a carrier's label would trip on (never a refusal), `normalized` the address in normal form. Reads and writes nothing.",
		request: { body: { required: true, content: { "application/json": { schema: AddressCheckBody } } } },
		responses: {
			200: jsonResponse(
				AddressCheckSchema,
				"The verdict: problems (what a create would refuse), warnings and the address in normal form.",
			),
			...errorResponses(400, 422),
		},
	},
	// It changes nothing: a retry is as safe without a key.
	{ idempotencyKey: "ignored" },
);

/** The check: it reads and writes nothing. */
export const addressCheckRoutes = createApp<AuthedEnv>().openapi(checkRoute, (c) => {
	const { ship_to, shipping_method } = c.req.valid("json");
	return c.json(checkAddress(ship_to, shipping_method ?? null), 200);
});
