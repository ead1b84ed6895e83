/**
 * The order page's items: each item by its place and size, its parts, file and warnings, and under it
 * its framing, dimensions and price; and the banner of every item's warnings in words.
 */
import type { SpecLine } from "../framing/words.ts";
import { warningWords } from "../production/item-words.ts";
import type { SheetItem } from "../production/order-sheet.ts";
import { bytesText } from "./format.ts";
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
				{file.status === "ready" ? (
					<a href={`/ops/print-files/${file.id}/download?item_id=${item.id}`} download>
						<code>{file.id}</code>
					</a>
				) : (
					<>
						<code>{file.id}</code> <span class="warning">{file.status}</span>
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
function ItemsTable({ items }: { items: readonly SheetItem[] }) {
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
							<Amount cents={item.price.unit} />
						</dd>
						<dt>Line</dt>
						<dd>
							<Amount cents={item.price.line} />
						</dd>
					</dl>
				)}
			</div>
		</div>
	);
}

/** The items section of the order page. */
export function ItemsPanel({ items }: { items: readonly SheetItem[] }) {
	return (
		<section aria-labelledby="items-heading" class="panel">
			<h2 id="items-heading">Items</h2>
			<ItemsTable items={items} />
		</section>
	);
}
