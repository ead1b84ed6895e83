/**
 * An order item's images for the console's pages, behind the session (no API key in the page): the
 * print file's thumbnail and the framed preview, through the same functions as the API's routes. A
 * refusal (no such order or item, a thumbnail still being made or never to be, a bad width) is
 * thrown as the API's error and answered by the console's error page with its status.
 */
import { Hono } from "hono";
import { findInEveryDatabase } from "../databases.ts";
import { PREVIEW_WIDTH } from "../framed-previews/render.ts";
import { PreviewQuery } from "../framed-previews/schema.ts";
import { orderItemPreview, orderItemThumbnail, previewHeaders } from "../framed-previews/serve-preview.ts";
import { ApiError, refusalError } from "../http/errors.ts";
import { findOrder } from "../orders/store.ts";
import type { ConsoleEnv } from "./console-env.ts";
import { requireSession } from "./session-gate.ts";

export const itemImageRoutes = new Hono<ConsoleEnv>();

/** The order `orderId` (any partner's: the floor works them all), or a 404. */
async function orderOf(env: Env, orderId: string) {
	const found = await findInEveryDatabase(env, (database) => findOrder(database, orderId, env.PRINT_FILES));
	if (found === null) throw new ApiError("order_not_found", `There is no order ${orderId}.`, "id");
	return found;
}

itemImageRoutes.get("/orders/:id/items/:item/thumbnail.png", requireSession, async (c) => {
	const found = await orderOf(c.env, c.req.param("id"));
	const served = await orderItemThumbnail(c.env, found, c.req.param("item"));
	if (!served.ok) throw refusalError(served);
	return c.body(served.body, 200, served.headers);
});

itemImageRoutes.get("/orders/:id/items/:item/preview.png", requireSession, async (c) => {
	const query = PreviewQuery.safeParse(c.req.query());
	if (!query.success) {
		const { min, max } = PREVIEW_WIDTH;
		throw new ApiError("invalid_field", `width_px must be a whole number from ${min} to ${max}.`, "width_px");
	}
	const found = await orderOf(c.env, c.req.param("id"));
	const served = await orderItemPreview(
		c.env,
		found,
		c.req.param("item"),
		query.data.width_px ?? PREVIEW_WIDTH.default,
	);
	if (!served.ok) throw refusalError(served);
	return c.body(served.body, 200, previewHeaders(served));
});
