/** Work tickets as documents: one order's, and a batch of the queue's (the API's and the console's routes share them). */
import { z } from "@hono/zod-openapi";
import { isolateCatalog } from "../catalog/cache.ts";
import { databaseOf, directoryDatabase } from "../databases.ts";
import { decodeCursor, encodeCursor } from "../http/cursor.ts";
import { log } from "../log.ts";
import { floorQueue } from "../orders/floor-queue.ts";
import { ORDER_STATUSES } from "../orders/state-machine.ts";
import { type OrderSheet, sheetFromStored } from "./order-sheet.ts";
import { ticketBoxes } from "./ticket-boxes.ts";
import { ticketPreviews } from "./ticket-preview.ts";
import { renderWorkTickets, ticketItems } from "./work-ticket.tsx";

/** Which orders a batch prints. */
export const WorkTicketsQuery = z.object({
	status: z.enum(ORDER_STATUSES).default("in_production").openapi({ description: "Default in_production." }),
	mode: z.enum(["live", "test"]).default("live").openapi({ description: "Live orders unless test is asked for." }),
	limit: z.coerce.number().int().min(1).max(50).default(20).openapi({ description: "Orders per batch, 1 to 50." }),
	cursor: z.string().max(512).optional(),
});

/** The work tickets of one order, as a document. */
export async function workTicketOf(env: Env, sheet: OrderSheet): Promise<string> {
	const [{ catalog }, boxes, previews] = await Promise.all([
		isolateCatalog.get(databaseOf(env, sheet.order.account_id)),
		ticketBoxes(env, [sheet]),
		ticketPreviews(env, [sheet]),
	]);
	return renderWorkTickets(ticketItems([sheet], boxes, previews), catalog, {
		title: `Work tickets · ${sheet.order.external_id}`,
		next: null,
	});
}

/**
 * A batch of work tickets: the queue's orders in `status` and `mode`, oldest first, a page per item,
 * with the next batch's cursor and its link at `path` (the API's route or the console's). Each
 * order's files are checked as its sheet is made, as on the order page.
 */
export async function workTicketBatch(
	env: Env,
	query: z.infer<typeof WorkTicketsQuery>,
	path: string,
): Promise<{ html: string; nextCursor: string | null }> {
	const [{ page, more }, { catalog }] = await Promise.all([
		floorQueue(env, {
			status: query.status,
			mode: query.mode,
			limit: query.limit,
			cursor: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
		}),
		isolateCatalog.get(directoryDatabase(env)),
	]);
	// One order whose sheet cannot be made (its file check failing, say) is named, not the batch's end.
	const settled = await Promise.allSettled(page.map((stored) => sheetFromStored(env, stored)));
	const sheets = settled.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
	const unread = page.flatMap(({ order }, index) => {
		const result = settled[index];
		if (result?.status !== "rejected") return [];
		log.error("work_tickets.order_unread", {
			order_id: order.id,
			message: result.reason instanceof Error ? result.reason.message : String(result.reason),
		});
		return [{ id: order.id, externalId: order.external_id }];
	});
	const last = page.at(-1);
	const nextCursor =
		more && last !== undefined ? encodeCursor({ createdAt: last.order.created_at, id: last.order.id }) : null;
	const [boxes, previews] = await Promise.all([ticketBoxes(env, sheets), ticketPreviews(env, sheets)]);
	const html = await renderWorkTickets(ticketItems(sheets, boxes, previews), catalog, {
		title: `Work tickets · ${query.status.replaceAll("_", " ")}`,
		unread,
		next:
			nextCursor === null
				? null
				: `${path}?${new URLSearchParams({ status: query.status, mode: query.mode, limit: String(query.limit), cursor: nextCursor })}`,
	});
	return { html, nextCursor };
}
