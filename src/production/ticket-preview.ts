/**
 * The framed preview a work ticket prints beside its drawing: the item's preview PNG, drawn (or read
 * from its cache) by the same function as the API's and the console's routes, inline in the page so
 * the printed ticket needs nothing else loaded (and the API's ticket works without a session). Where
 * there is none, the ticket says why in words.
 */
import { base64Of } from "../base64.ts";
import { previewSize } from "../framed-previews/render.ts";
import { orderItemPreview } from "../framed-previews/serve-preview.ts";
import { log } from "../log.ts";
import { thumbnailReasonWords } from "./item-words.ts";
import type { OrderSheet, SheetItem } from "./order-sheet.ts";

/** How many pixels wide a ticket's preview is drawn: about 270 per inch at the 45 mm it prints at. */
export const TICKET_PREVIEW_PX = 480;

/** What a ticket shows of an item's preview: the PNG inline with its size and a note, or words alone. */
export type TicketPreview =
	| { kind: "image"; dataUrl: string; width: number; height: number; note: string | null }
	| { kind: "words"; text: string };

/** Why the opening shows a grey placeholder, in words; null when it shows the file's image. */
function placeholderNote(item: SheetItem, image: "thumbnail" | "placeholder"): string | null {
	if (image === "thumbnail") return null;
	if (item.thumbnail === null) return "Grey placeholder: the print file is still to be fetched.";
	if (item.thumbnail.status === "unavailable") {
		return `Grey placeholder: no thumbnail (${thumbnailReasonWords(item.thumbnail.reason)}).`;
	}
	return "Grey placeholder: the thumbnail could not be read.";
}

/**
 * The preview of one item for its ticket; null for an item that cannot be built (the ticket says why
 * already, and draws nothing). A preview that fails is said in words and logged, never the ticket's end.
 */
export async function ticketPreview(env: Env, sheet: OrderSheet, item: SheetItem): Promise<TicketPreview | null> {
	if (item.outside === null || item.cannotBuild.length > 0) return null;
	if (item.thumbnail?.status === "pending") {
		return {
			kind: "words",
			text: "The file's thumbnail is being made, so this ticket has no preview yet; print it again later to see the image in its frame.",
		};
	}
	try {
		const served = await orderItemPreview(env, sheet.stored, item.id, TICKET_PREVIEW_PX);
		if (!served.ok) return { kind: "words", text: `No preview: ${served.message}` };
		const bytes =
			served.body instanceof Uint8Array ? served.body : new Uint8Array(await new Response(served.body).arrayBuffer());
		const { width, height } = previewSize(item.outside, TICKET_PREVIEW_PX);
		return {
			kind: "image",
			dataUrl: `data:image/png;base64,${base64Of(bytes)}`,
			width,
			height,
			note: placeholderNote(item, served.image),
		};
	} catch (error) {
		log.warn("work_ticket.preview_failed", {
			order_id: sheet.order.id,
			item_id: item.id,
			message: error instanceof Error ? error.message : String(error),
		});
		return { kind: "words", text: "The preview could not be drawn; the drawing and the cut list stand." };
	}
}

/** The previews of every item of these sheets, by item id (items that cannot be built have none). */
export async function ticketPreviews(
	env: Env,
	sheets: readonly OrderSheet[],
): Promise<ReadonlyMap<string, TicketPreview>> {
	const entries = sheets.flatMap((sheet) => sheet.items.map((item) => ({ sheet, item })));
	const previews = await Promise.all(entries.map(({ sheet, item }) => ticketPreview(env, sheet, item)));
	return new Map(
		entries.flatMap(({ item }, index) => {
			const preview = previews[index];
			return preview === undefined || preview === null ? [] : [[item.id, preview] as const];
		}),
	);
}
