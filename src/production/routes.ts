import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { postalLines } from "../addresses/postal-lines.ts";
import { ShipToSchema } from "../addresses/schema.ts";
import { findInEveryDatabase } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses, okOrThrow, refusalError } from "../http/errors.ts";
import { editWindowRefusal } from "../orders/operator-moves.ts";
import { OrderIdParams, OrderSchema, toOrder } from "../orders/response.ts";
import { thumbnailPngResponse } from "../print-files/schema.ts";
import { findPrintFileById } from "../print-files/store.ts";
import { servedThumbnail } from "../print-files/thumbnail-read.ts";
import { crossesBorder, renderOrderInvoice } from "./invoice-page.ts";
import { loadOrderSheet, type OrderSheet } from "./order-sheet.ts";
import { PAPER_SIZES } from "./packing-slip.tsx";
import { downloadPrintFile } from "./print-file-download.ts";
import { PAGE_SECURITY_HEADERS, renderPackingSlip } from "./slip-page.ts";
import { WorkTicketsQuery, workTicketBatch, workTicketOf } from "./ticket-batches.ts";

const OpsOrderViewSchema = z
	.object({
		order: OrderSchema,
		account: z.object({
			id: z.string().openapi({ example: "acct_4fQ9v2" }),
			name: z.string().openapi({ example: "Harbour Museum Store" }),
		}),
		shipping_label: z
			.object({
				return_address: z.union([ShipToSchema, z.null()]).openapi({
					description:
						"The partner's return address from its brand profile; null when it has none (print the label without one).",
				}),
				ship_to: ShipToSchema,
				return_address_lines: z
					.array(z.string())
					.nullable()
					.openapi({
						description:
							"The return address as the label prints it, one string a line, in its country's format; null without one.",
						example: ["Harbour Prints", "Torstraße 5", "10119 Berlin", "Germany"],
					}),
				ship_to_lines: z.array(z.string()).openapi({
					description:
						"The ship-to address as the label prints it, one string a line, in the destination country's format (Google's libaddressinput formats), the country's English name last.",
					example: ["Ada Lovelace", "12 Harbour Street", "Portland, ME 04101", "United States"],
				}),
			})
			.openapi({ description: "What the shipping label carries: the partner's return address, never the service's." }),
		brand_name: z.string().nullable().openapi({ example: "Lumen Prints" }),
		packing_slip_url: z.string().openapi({ example: "/v1/ops/orders/ord_3kq9/packing-slip" }),
		commercial_invoice_url: z.string().nullable().openapi({
			description: "The commercial invoice that goes with an order abroad; null for an order that crosses no border.",
			example: "/v1/ops/orders/ord_3kq9/commercial-invoice",
		}),
	})
	.openapi("OpsOrderView");

const getOpsOrder = protectedRoute("ops", {
	method: "get",
	path: "/ops/orders/{id}",
	tags: ["Operations"],
	summary: "One order as the floor sees it: the partner, the label's addresses and the packing slip",
	request: { params: OrderIdParams },
	responses: {
		200: jsonResponse(OpsOrderViewSchema, "The order and what its package carries."),
		...errorResponses(404),
	},
});

/** Which paper a printable page is forced to, if any. */
const PaperQuery = z.object({
	paper: z.enum(PAPER_SIZES).optional().openapi({
		description: "Force Letter or A4; by default the printer's paper is used (the layout fits both).",
	}),
});

const getPackingSlip = protectedRoute("ops", {
	method: "get",
	path: "/ops/orders/{id}/packing-slip",
	tags: ["Operations"],
	summary: "The order's packing slip: a printable HTML page in the partner's brand (or none)",
	request: {
		params: OrderIdParams,
		query: PaperQuery,
	},
	responses: {
		200: { description: "The slip, ready to print.", content: { "text/html": { schema: z.string() } } },
		...errorResponses(404, 422),
	},
});

const getCommercialInvoice = protectedRoute("ops", {
	method: "get",
	path: "/ops/orders/{id}/commercial-invoice",
	tags: ["Operations"],
	summary: "The commercial invoice of an order abroad: a printable HTML page for customs, beside the packing slip",
	description:
		"404 `no_commercial_invoice` for an order that crosses no border (domestic, or not priced yet); 409 `invoice_settings_unset` while the service's ship-from address (or, for an order under IOSS, its IOSS number) is not configured.",
	request: { params: OrderIdParams, query: PaperQuery },
	responses: {
		200: { description: "The invoice, ready to print.", content: { "text/html": { schema: z.string() } } },
		...errorResponses(404, 409, 422),
	},
});

const PrintFileIdParams = z.object({
	id: z
		.string()
		.max(64)
		.openapi({ param: { name: "id", in: "path" }, example: "pf_8Jq2" }),
});

const downloadPrintFileRoute = protectedRoute("ops", {
	method: "get",
	path: "/ops/print-files/{id}/download",
	tags: ["Operations"],
	summary: "A print file's bytes, exactly as inspected, named by the order and item that print it",
	request: {
		params: PrintFileIdParams,
		query: z.object({
			item_id: z.string().max(64).optional().openapi({
				description: "Name the download after this item (it must print the file); by default the oldest order's item.",
			}),
		}),
	},
	responses: {
		200: {
			description:
				'The file, streamed, with `Content-Disposition: attachment; filename="<external_id>_item-<n>.<ext>"`.',
			content: {
				"image/tiff": { schema: z.string().openapi({ format: "binary" }) },
				"image/png": { schema: z.string().openapi({ format: "binary" }) },
				"image/jpeg": { schema: z.string().openapi({ format: "binary" }) },
			},
		},
		...errorResponses(404, 409, 422),
	},
});

const getOpsThumbnail = protectedRoute("ops", {
	method: "get",
	path: "/ops/print-files/{id}/thumbnail",
	tags: ["Operations"],
	summary: "Any partner's print file's thumbnail (PNG, longest side 1024 px), once made",
	description:
		"409 `thumbnail_pending` while it is being made; 404 `thumbnail_unavailable` when there will be none (the file's `thumbnail.reason` says why).",
	request: { params: PrintFileIdParams },
	responses: { 200: thumbnailPngResponse, ...errorResponses(404, 409) },
});

const htmlPage = { description: "A printable HTML page.", content: { "text/html": { schema: z.string() } } };

const getWorkTicket = protectedRoute("ops", {
	method: "get",
	path: "/ops/orders/{id}/work-ticket",
	tags: ["Operations"],
	summary: "The order's work tickets: a page per item with a to-scale drawing, the cut list and a QR code",
	request: { params: OrderIdParams },
	responses: { 200: htmlPage, ...errorResponses(404, 409) },
});

const listWorkTickets = protectedRoute("ops", {
	method: "get",
	path: "/ops/work-tickets",
	tags: ["Operations"],
	summary: "Work tickets of a batch of orders, oldest first, in one document: a page per item",
	request: { query: WorkTicketsQuery },
	responses: {
		200: {
			...htmlPage,
			headers: z.object({
				"X-Next-Cursor": z.string().optional().openapi({ description: "The cursor of the next batch, if any." }),
			}),
		},
		...errorResponses(422),
	},
});

async function sheetOr404(env: Env, id: string): Promise<OrderSheet> {
	const sheet = await loadOrderSheet(env, id);
	if (sheet === null) throw new ApiError("order_not_found", `No order ${id}.`, "id");
	return sheet;
}

/** Operator routes of the production floor (scope `ops`): the order view, its packing slip, work tickets and commercial invoice. */
export const productionRoutes = createApp<AuthedEnv>()
	.openapi(getOpsOrder, async (c) => {
		const { id } = c.req.valid("param");
		const sheet = await sheetOr404(c.env, id);
		return c.json(
			{
				order: toOrder(sheet.stored),
				account: sheet.account,
				shipping_label: {
					return_address: sheet.returnAddress,
					ship_to: sheet.shipTo,
					return_address_lines: sheet.returnAddress === null ? null : postalLines(sheet.returnAddress),
					ship_to_lines: postalLines(sheet.shipTo),
				},
				brand_name: sheet.brand?.brand_name ?? null,
				packing_slip_url: `/v1/ops/orders/${id}/packing-slip`,
				commercial_invoice_url: crossesBorder(sheet.costs) ? `/v1/ops/orders/${id}/commercial-invoice` : null,
			},
			200,
		);
	})
	.openapi(downloadPrintFileRoute, async (c) => {
		const { id } = c.req.valid("param");
		const download = okOrThrow(await downloadPrintFile(c.env, id, c.req.valid("query").item_id ?? null));
		// Through the context, so the headers every answer carries (X-Request-Id, the rate limit's) come too.
		return c.body(download.body, 200, download.headers);
	})
	.openapi(getOpsThumbnail, async (c) => {
		const { id } = c.req.valid("param");
		const file = await findInEveryDatabase(c.env, (database) => findPrintFileById(database, id));
		if (file === null) throw new ApiError("print_file_not_found", `No print file ${id}.`, "id");
		const served = await servedThumbnail(c.env, file);
		if (!served.ok) throw new ApiError(served.code, served.message, "id");
		return c.body(served.body, 200, served.headers);
	})
	.openapi(getWorkTicket, async (c) => {
		const sheet = await sheetOr404(c.env, c.req.valid("param").id);
		const inWindow = editWindowRefusal(sheet.stored);
		if (inWindow !== null) throw refusalError(inWindow);
		return c.html(await workTicketOf(c.env, sheet), 200, PAGE_SECURITY_HEADERS);
	})
	.openapi(listWorkTickets, async (c) => {
		const query = c.req.valid("query");
		const { html, nextCursor } = await workTicketBatch(c.env, query, "/v1/ops/work-tickets");
		return c.html(html, 200, {
			...PAGE_SECURITY_HEADERS,
			...(nextCursor === null ? {} : { "X-Next-Cursor": nextCursor }),
		});
	})
	.openapi(getPackingSlip, async (c) => {
		const sheet = await sheetOr404(c.env, c.req.valid("param").id);
		const html = await renderPackingSlip(c.env, sheet, c.req.valid("query").paper ?? null);
		return c.html(html, 200, PAGE_SECURITY_HEADERS);
	})
	.openapi(getCommercialInvoice, async (c) => {
		const sheet = await sheetOr404(c.env, c.req.valid("param").id);
		const { html } = okOrThrow(await renderOrderInvoice(c.env, sheet, c.req.valid("query").paper ?? null));
		return c.html(html, 200, PAGE_SECURITY_HEADERS);
	});
