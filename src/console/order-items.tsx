/**
 * The order page's items: each item by its place and size, its parts, file and warnings, and under it
 * its framed preview and thumbnail, framing, dimensions and price; and the banner of every item's
 * warnings in words.
 */

import { previewSize } from "../framed-previews/render.ts";
import type { SpecLine } from "../framing/words.ts";
import { bytesText } from "../http/format.ts";
import { readStatus } from "../print-files/store.ts";
import { thumbnailReasonWords, warningWords } from "../production/item-words.ts";
import type { SheetItem } from "../production/order-sheet.ts";
import { Amount, Dash, WarningTags } from "./layout.tsx";

/** An item's print file: its id (a download link once ready), format and size, and pixels; or the URL it will come from. */
function FileCell({ item }: { item: SheetItem }) {
	const { file } = item;
	if (file === null) {
		return (
			<td data-label="Print file">
				{item.printFileUrl === null ? <Dash /> : <span class="mono url">{item.printFileUrl}</span>}
			</td>
		);
	}
	const facts = [
		file.format === null ? null : file.format.toUpperCase(),
		file.size_bytes === null ? null : bytesText(file.size_bytes),
		file.width_px === null || file.height_px === null ? null : `${file.width_px} × ${file.height_px} px`,
	].filter((fact) => fact !== null);
	return (
		<td data-label="Print file">
			<div>
				{readStatus(file) === "ready" ? (
					<a href={`/ops/print-files/${file.id}/download?item_id=${item.id}`} download>
						<code>{file.id}</code>
					</a>
				) : (
					<>
						<code>{file.id}</code> <span class="warning">{readStatus(file)}</span>
					</>
				)}
				<div class="muted file-facts">
					{facts.length === 0 ? (
						<Dash />
					) : (
						facts.map((fact, index) => (
							<>
								{index === 0 ? null : " · "}
								<span class="nowrap">{fact}</span>
							</>
						))
					)}
				</div>
			</div>
		</td>
	);
}

/**
 * A row per item and, under each, a row of its framing, dimensions and price. Few columns, so the
 * table fits a desktop screen; under 40rem each item becomes a card.
 */
function ItemsTable({ orderId, items }: { orderId: string; items: readonly SheetItem[] }) {
	return (
		<div class="table-wrap">
			<table class="cards items">
				<thead>
					<tr>
						<th scope="col">Item</th>
						<th scope="col">Frame</th>
						<th scope="col">Mat</th>
						<th scope="col" class="num">
							Qty
						</th>
						<th scope="col">Print file</th>
						<th scope="col" class="num">
							Effective DPI
						</th>
					</tr>
				</thead>
				<tbody>
					{items.flatMap((item) => [
						<tr data-item-id={item.id}>
							<td data-label="Item">
								<div>
									<strong class="item-name">{item.name}</strong>
									<div>
										<code class="muted">{item.id}</code>
									</div>
									{/* In the row's first cell, so they never scroll out of sight. */}
									<WarningTags tags={item.warnings.map((code) => warningWords(code).title)} />
								</div>
							</td>
							<td data-label="Frame">{item.frame?.name ?? "Unframed"}</td>
							<td data-label="Mat">{item.mat?.name ?? "No mat"}</td>
							<td data-label="Qty" class="num">
								{item.quantity}
							</td>
							<FileCell item={item} />
							<td data-label="Effective DPI" class="num">
								{item.effectiveDpi === null ? <Dash /> : item.effectiveDpi}
							</td>
						</tr>,
						<tr class="item-spec" data-spec-of={item.id}>
							<td colspan={6} class="full">
								<ItemImages orderId={orderId} item={item} />
								<ItemSpec item={item} />
							</td>
						</tr>,
					])}
				</tbody>
			</table>
		</div>
	);
}

/**
 * Every warning of the order's items, in words, above everything else on the page: a warning must
 * not wait in a table cell for someone to scroll to it.
 */
export function WarningsBanner({ items }: { items: readonly SheetItem[] }) {
	const warned = items.filter((item) => item.warnings.length > 0);
	if (warned.length === 0) return null;
	return (
		<section class="warn-banner" aria-labelledby="warnings-heading">
			<h2 id="warnings-heading">Check before framing</h2>
			<ul>
				{warned.flatMap((item) =>
					item.warnings.map((code) => {
						const words = warningWords(code);
						return (
							<li data-warning-of={item.id}>
								<strong>{item.name}</strong>: <strong>{words.title}.</strong> {words.advice}
							</li>
						);
					}),
				)}
			</ul>
		</section>
	);
}

/** Lines of a description list. */
function Lines({ lines }: { lines: readonly SpecLine[] }) {
	return (
		<dl class="facts">
			{lines.map((line) => (
				<>
					<dt>{line.label}</dt>
					<dd>{line.text}</dd>
				</>
			))}
		</dl>
	);
}

/** How wide the order page shows a framed preview, in CSS pixels (drawn twice as wide, for sharp screens). */
const PREVIEW_SHOWN_PX = 200;
/** The longest side the order page shows a thumbnail at, in CSS pixels. */
const THUMBNAIL_SHOWN_PX = 160;

/** Where an item's images are served, behind the console's session. */
function imagesPath(orderId: string, itemId: string): string {
	return `/ops/orders/${orderId}/items/${itemId}`;
}

/**
 * The framed preview, drawn to scale from the cut list with the file's image in the opening; or why
 * there is none yet, in words. Its width and height are given, so the page does not move as it loads.
 */
function PreviewFigure({ orderId, item }: { orderId: string; item: SheetItem }) {
	if (item.outside === null) return <p class="muted">No preview: the item cannot be built as ordered.</p>;
	if (item.thumbnail?.status === "pending") {
		return <p class="muted">The preview follows the file's thumbnail, which is being made. Reload in a minute.</p>;
	}
	const shown = previewSize(item.outside, PREVIEW_SHOWN_PX);
	const src = `${imagesPath(orderId, item.id)}/preview.png?width_px=${PREVIEW_SHOWN_PX * 2}`;
	const alt = `Framed preview of ${item.name}: the finished piece drawn to scale, ${item.frame?.name ?? "unframed"}, ${item.mat?.name ?? "no mat"}.`;
	return (
		<figure class="item-image">
			<img src={src} width={shown.width} height={shown.height} alt={alt} loading="lazy" data-preview-of={item.id} />
			<figcaption class="muted">
				{item.thumbnail === null
					? "Framed preview; a grey placeholder stands for the image until the file is fetched."
					: item.thumbnail.status === "unavailable"
						? "Framed preview; a grey placeholder stands for the image (no thumbnail)."
						: "Framed preview, to scale."}
			</figcaption>
		</figure>
	);
}

/** The file's thumbnail (the whole image, uncropped), or why there is none, in words. */
function ThumbnailFigure({ orderId, item }: { orderId: string; item: SheetItem }) {
	const { thumbnail } = item;
	if (thumbnail === null) return <p class="muted">No thumbnail yet: the print file is still to be fetched.</p>;
	if (thumbnail.status === "pending") return <p class="muted">Thumbnail being made.</p>;
	if (thumbnail.status === "unavailable" || thumbnail.width_px === null || thumbnail.height_px === null) {
		return <p class="warning">No thumbnail: {thumbnailReasonWords(thumbnail.reason)}.</p>;
	}
	const scale = THUMBNAIL_SHOWN_PX / Math.max(thumbnail.width_px, thumbnail.height_px);
	const width = Math.max(1, Math.round(thumbnail.width_px * scale));
	const height = Math.max(1, Math.round(thumbnail.height_px * scale));
	return (
		<figure class="item-image">
			<img
				src={`${imagesPath(orderId, item.id)}/thumbnail.png`}
				width={width}
				height={height}
				alt={`Thumbnail of the print file of ${item.name}: the whole image, uncropped.`}
				loading="lazy"
				data-thumbnail-of={item.id}
			/>
			<figcaption class="muted">The file's whole image, uncropped.</figcaption>
		</figure>
	);
}

/** An item's images: its framed preview and its file's thumbnail, side by side where they fit. */
function ItemImages({ orderId, item }: { orderId: string; item: SheetItem }) {
	return (
		<div class="item-images">
			<h3>Preview</h3>
			<div class="images">
				<PreviewFigure orderId={orderId} item={item} />
				<ThumbnailFigure orderId={orderId} item={item} />
			</div>
		</div>
	);
}

/** An item's framing in the framer's words, its dimensions and its price. */
function ItemSpec({ item }: { item: SheetItem }) {
	return (
		<div class="spec">
			<div>
				<h3>Framing</h3>
				<Lines lines={item.framing} />
			</div>
			<div>
				<h3>Dimensions</h3>
				{item.cannotBuild.length > 0 ? (
					<>
						<p class="warning">Cannot be built until it is fixed:</p>
						<ul class="plain warning">
							{item.cannotBuild.map((reason) => (
								<li>{reason}</li>
							))}
						</ul>
					</>
				) : item.dimensions === null ? (
					<p class="muted">Not known until the item can be built.</p>
				) : (
					<Lines lines={item.dimensions} />
				)}
			</div>
			<div>
				<h3>Price</h3>
				{item.price === null ? (
					<p class="muted">Not priced.</p>
				) : (
					<dl class="facts">
						<dt>Each</dt>
						<dd>
							<Amount cents={item.price.unit} currency={item.price.currency} />
						</dd>
						<dt>Line</dt>
						<dd>
							<Amount cents={item.price.line} currency={item.price.currency} />
						</dd>
					</dl>
				)}
			</div>
		</div>
	);
}

/** The items section of the order page. */
export function ItemsPanel({ orderId, items }: { orderId: string; items: readonly SheetItem[] }) {
	return (
		<section aria-labelledby="items-heading" class="panel">
			<h2 id="items-heading">Items</h2>
			<ItemsTable orderId={orderId} items={items} />
		</section>
	);
}
