/**
 * An item's images on the partner's order page: its framed preview, drawn to scale, and its file's
 * thumbnail; or why there is none yet, in words. Served under /partner behind the session and the
 * owner check (order-routes.tsx), drawn by the same functions as the API's.
 */
import { previewSize } from "../framed-previews/render.ts";
import { thumbnailReasonWords } from "../production/item-words.ts";
import type { SheetItem } from "../production/order-sheet.ts";
import { type ConsoleMode, withMode } from "./scope.ts";

/** How wide the page shows a framed preview, in CSS pixels (drawn twice as wide, for sharp screens). */
const PREVIEW_SHOWN_PX = 220;
/** The longest side the page shows a thumbnail at, in CSS pixels. */
const THUMBNAIL_SHOWN_PX = 160;

/** The framed preview, or why there is none. */
function Preview({ base, item, mode }: { base: string; item: SheetItem; mode: ConsoleMode }) {
	if (item.outside === null) return <p class="muted">No preview: the item cannot be made as ordered.</p>;
	if (item.thumbnail?.status === "pending")
		return <p class="muted">The preview follows the file's thumbnail, being made.</p>;
	const shown = previewSize(item.outside, PREVIEW_SHOWN_PX);
	return (
		<figure>
			<img
				src={withMode(`${base}/preview.png?width_px=${PREVIEW_SHOWN_PX * 2}`, mode)}
				width={shown.width}
				height={shown.height}
				alt={`Framed preview of ${item.name}, ${item.frame?.name ?? "unframed"}, ${item.mat?.name ?? "no mat"}.`}
				data-preview-of={item.id}
			/>
			<figcaption class="muted">Framed preview, to scale.</figcaption>
		</figure>
	);
}

/** The file's thumbnail, or why there is none. */
function Thumbnail({ base, item, mode }: { base: string; item: SheetItem; mode: ConsoleMode }) {
	const { thumbnail } = item;
	if (thumbnail === null) return <p class="muted">No thumbnail yet: the print file is still to be fetched.</p>;
	if (thumbnail.status === "pending") return <p class="muted">Thumbnail being made.</p>;
	if (thumbnail.status === "unavailable" || thumbnail.width_px === null || thumbnail.height_px === null) {
		return <p class="muted">No thumbnail: {thumbnailReasonWords(thumbnail.reason)}.</p>;
	}
	const scale = THUMBNAIL_SHOWN_PX / Math.max(thumbnail.width_px, thumbnail.height_px);
	return (
		<figure>
			<img
				src={withMode(`${base}/thumbnail.png`, mode)}
				width={Math.max(1, Math.round(thumbnail.width_px * scale))}
				height={Math.max(1, Math.round(thumbnail.height_px * scale))}
				alt={`Thumbnail of the print file of ${item.name}, uncropped.`}
				data-thumbnail-of={item.id}
			/>
			<figcaption class="muted">The file's whole image.</figcaption>
		</figure>
	);
}

/** Both images of an item, side by side where they fit. */
export function ItemImages({ orderId, item, mode }: { orderId: string; item: SheetItem; mode: ConsoleMode }) {
	// The mode is on each image's address, so the owner check reads the page's data.
	const base = `/partner/orders/${orderId}/items/${item.id}`;
	return (
		<div class="images">
			<Preview base={base} item={item} mode={mode} />
			<Thumbnail base={base} item={item} mode={mode} />
		</div>
	);
}
