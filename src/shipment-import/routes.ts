/**
 * `POST /v1/ops/shipments/import` and its dry run `…/import/preview` (scope `ops`): a label tool's CSV
 * read into rows, then each row shipped, or judged without changing anything.
 */
import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { utf8TextOf } from "../http/carried-file.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses } from "../http/errors.ts";
import { TrackingSchema } from "../orders/response.ts";
import { type ImportRow, NOT_UTF8, parseImport } from "./csv-file.ts";
import { importShipments } from "./import-rows.ts";
import { previewShipments } from "./preview.ts";

/** Which row of the file, and the order it names (as found, or as the row named it). */
const RowPlace = z.object({
	line: z.number().int().openapi({ description: "The row's line in the file; the header is line 1.", example: 2 }),
	order_id: z.string().nullable().openapi({ example: "ord_3kq9" }),
	external_id: z.string().nullable().openapi({ example: "PO-1001" }),
});

const RowResultSchema = z.object({
	...RowPlace.shape,
	outcome: z.enum(["shipped", "already_shipped", "refused"]),
	message: z.string().openapi({ example: "Shipped with UPS 1Z999AA10123456784." }),
});

const ImportReportSchema = z
	.object({
		rows: z.array(RowResultSchema),
		shipped: z.number().int().openapi({ example: 1 }),
		already_shipped: z.number().int().openapi({ example: 0 }),
		refused: z.number().int().openapi({ example: 0 }),
	})
	.openapi("ShipmentsImportReport");

/** A shipments CSV, as the import and its dry run take it. */
const importRequest = {
	body: {
		required: true,
		content: {
			"text/csv": {
				schema: z.string().openapi({
					example:
						"order_id,carrier,tracking_number,tracking_url\nord_3kq9,UPS,1Z999AA10123456784,https://www.ups.com/track?tracknum=1Z999AA10123456784",
				}),
			},
		},
	},
};

const importShipmentsRoute = protectedRoute("ops", {
	method: "post",
	path: "/ops/shipments/import",
	tags: ["Operations"],
	summary: "Ship orders in bulk from a label tool's CSV: one move and one order.shipped event per row",
	description:
		"Fields are separated by commas, semicolons or tabs, whichever the header row uses. The header row names the columns, in any order and case: order_id or external_id (live orders), carrier, tracking_number, tracking_url (the names label tools use are understood too: Order Number, Tracking Number, Tracking URL…), and optionally item_ids. tracking_url may be left out, or a row's left empty, for UPS, USPS, FedEx and DHL: the carrier's tracking page is built from the number; a row of another carrier without one is refused. At most 5,000 rows and 4 MiB. Each row ships its order or is refused with the reason; a row whose order already shipped with the same tracking changes nothing, so importing a file twice ships nothing twice. A row with item_ids (item ids separated by semicolons, commas, bars or spaces, each alone for every unit of it that remains or with a count after a colon: itm_a:2;itm_b; quote the cell in a semicolon-separated file) is one shipment of those units, as POST /v1/ops/orders/{id}/shipments makes it; an item of another order, or more units than remain, refuses the row.",
	request: importRequest,
	responses: {
		200: jsonResponse(ImportReportSchema, "Every row's outcome, and the counts."),
		...errorResponses(400, 422),
	},
});

const PreviewRowSchema = z.object({
	...RowPlace.shape,
	action: z.enum(["ship", "already_shipped", "refused"]).openapi({
		description:
			"What importing the file now would do with the row: ship its order, nothing (already shipped with this tracking), or refuse it (message says why).",
	}),
	tracking: TrackingSchema.nullable().openapi({
		description:
			"The tracking the row would ship with, its URL built when left out; null when refused before it was read.",
	}),
	units: z
		.array(
			z.object({
				item_id: z.string().openapi({ example: "itm_5Tg8" }),
				quantity: z.number().int().openapi({ example: 1 }),
			}),
		)
		.nullable()
		.openapi({
			description:
				"The units the row would ship: those its item_ids name, or every unit that remains without item_ids; null when it ships none.",
			example: [{ item_id: "itm_5Tg8", quantity: 1 }],
		}),
	message: z.string().openapi({ example: "Ship with UPS 1Z999AA10123456784." }),
});

const ImportPreviewSchema = z
	.object({
		rows: z.array(PreviewRowSchema),
		ship: z.number().int().openapi({ example: 1 }),
		already_shipped: z.number().int().openapi({ example: 0 }),
		refused: z.number().int().openapi({ example: 0 }),
	})
	.openapi("ShipmentsImportPreview");

const previewShipmentsRoute = protectedRoute(
	"ops",
	{
		method: "post",
		path: "/ops/shipments/import/preview",
		tags: ["Operations"],
		summary: "Dry run of a shipments CSV: what each row would do, with nothing changed",
		description:
			"Takes the same file as POST /v1/ops/shipments/import and reads the orders it names, changing nothing: each row's action (ship with this tracking, already shipped, or refused with the reason) and the counts. The import itself reads the orders again, so a row whose order moves in between is judged as the order is then.",
		request: importRequest,
		responses: {
			200: jsonResponse(ImportPreviewSchema, "Every row's action, and the counts."),
			...errorResponses(400, 422),
		},
	},
	// A dry run: it changes nothing, so a retry is as safe without a key.
	{ idempotencyKey: "ignored" },
);

/** The CSV of an import request: UTF-8 text of a CSV media type, else a 400. */
async function csvText(request: Request): Promise<string> {
	const type = (request.headers.get("Content-Type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
	if (!["text/csv", "application/csv", "text/plain"].includes(type)) {
		throw new ApiError("unsupported_media_type", "Send the file as text/csv.");
	}
	const text = utf8TextOf(await request.arrayBuffer());
	if (text === null) throw new ApiError("body_not_utf8", NOT_UTF8);
	return text;
}

/** The rows of an import request's CSV, or a 422 on `file` saying why the file cannot be read. */
async function csvRows(request: Request): Promise<ImportRow[]> {
	const parsed = parseImport(await csvText(request));
	if (!parsed.ok) throw new ApiError("shipments_csv_invalid", parsed.message, "file");
	return parsed.rows;
}

/** The shipments import and its dry run, for the floor (scope `ops`). */
export const shipmentImportRoutes = createApp<AuthedEnv>()
	.openapi(importShipmentsRoute, async (c) => c.json(await importShipments(c.env, await csvRows(c.req.raw)), 200))
	.openapi(previewShipmentsRoute, async (c) => c.json(await previewShipments(c.env, await csvRows(c.req.raw)), 200));
