/** The order page's items: each item's size, parts, file and warnings, and under it its framing, dimensions and price. */
import type { SpecLine } from "../framing/words.ts";
import { dollarsText } from "../pricing/money.ts";
import type { SheetItem } from "../production/order-sheet.ts";
import { printSize } from "../production/packing-slip.tsx";
import { bytesText } from "./format.ts";
import { Dash } from "./layout.tsx";

/** An item's print file: its id (a download link once ready), format and size, and pixels; or the URL it will come from. */
function FileCells({ item }: { item: SheetItem }) {
	const { file } = item;
	if (file === null) {
		return (
			<>
				<td>{item.printFileUrl === null ? <Dash /> : <span class="mono url">{item.printFileUrl}</span>}</td>
				<td>
					<Dash />
				</td>
				<td>
					<Dash />
				</td>
			</>
		);
	}
	return (
		<>
			<td>
				{file.status === "ready" ? (
					<a href={`/ops/print-files/${file.id}/download?item_id=${item.id}`} download>
						<code>{file.id}</code>
					</a>
				) : (
					<>
						<code>{file.id}</code> <span class="warning">{file.status}</span>
					</>
				)}
			</td>
			<td class="nowrap">
				{file.format === null ? <Dash /> : file.format.toUpperCase()}
				{file.size_bytes === null ? null : <span class="muted"> · {bytesText(file.size_bytes)}</span>}
			</td>
			<td class="num nowrap">
				{file.width_px === null || file.height_px === null ? <Dash /> : `${file.width_px} × ${file.height_px} px`}
			</td>
		</>
	);
}

/** A row per item and, under each, a row of its framing, dimensions and price. */
function ItemsTable({ items }: { items: readonly SheetItem[] }) {
	return (
		<div class="table-wrap">
			<table>
				<thead>
					<tr>
						<th scope="col">#</th>
						<th scope="col">Size</th>
						<th scope="col">Frame</th>
						<th scope="col">Mat</th>
						<th scope="col" class="num">
							Qty
						</th>
						<th scope="col">Print file</th>
						<th scope="col">Format</th>
						<th scope="col" class="num">
							Pixels
						</th>
						<th scope="col" class="num">
							Effective DPI
						</th>
						<th scope="col">Warnings</th>
					</tr>
				</thead>
				<tbody>
					{items.flatMap((item) => [
						<tr data-item-id={item.id}>
							<td>{item.position + 1}</td>
							<td class="nowrap">{printSize(item.widthIn, item.heightIn)}</td>
							<td>{item.frame?.name ?? "Unframed"}</td>
							<td>{item.mat?.name ?? "No mat"}</td>
							<td class="num">{item.quantity}</td>
							<FileCells item={item} />
							<td class="num">{item.effectiveDpi === null ? <Dash /> : item.effectiveDpi}</td>
							<td>
								{item.warnings.length === 0 ? (
									<Dash />
								) : (
									<ul class="plain warning">
										{item.warnings.map((warning) => (
											<li>{warning}</li>
										))}
									</ul>
								)}
							</td>
						</tr>,
						<tr class="item-spec" data-spec-of={item.id}>
							<td />
							<td colspan={9}>
								<ItemSpec item={item} />
							</td>
						</tr>,
					])}
				</tbody>
			</table>
		</div>
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
					<Lines
						lines={[
							{ label: "Each", text: dollarsText(item.price.unit) },
							{ label: "Line", text: dollarsText(item.price.line) },
						]}
					/>
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
