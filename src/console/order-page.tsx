/**
 * The console's order page: one template for one page (summary, addresses, items with their files,
 * history and the operator's forms). It runs past 350 lines because its sections share the order's
 * state and the form values; split into files they would only pass the same props along.
 */

import type { SpecLine } from "../framing/words.ts";
import type { OrderMoveRow } from "../orders/history.ts";
import { stateOf } from "../orders/rows.ts";
import { dollarsText } from "../pricing/money.ts";
import { AddressLines } from "../production/address.tsx";
import type { OrderSheet, SheetItem } from "../production/order-sheet.ts";
import { printSize } from "../production/packing-slip.tsx";
import { formatTime, holdReasonLabel } from "./format.ts";
import { CsrfField, Layout, StatusBadge } from "./layout.tsx";
import { type ConsoleMove, DONE_MESSAGES, type MoveFormValues, movesAllowedFrom } from "./move-forms.ts";

/** A form that came back with errors: which move, what was typed, and what is wrong with each field. */
export type InvalidMoveForm = {
	move: ConsoleMove;
	values: MoveFormValues;
	fieldErrors: Readonly<Record<string, string>>;
};

/** What the order page shows besides the order: the last move's outcome, or why it did not happen. */
export type OrderPageProps = {
	sheet: OrderSheet;
	history: readonly OrderMoveRow[];
	csrfToken: string;
	done: ConsoleMove | null;
	/** A move the order's status refused (409), or another failure to report above the forms. */
	refusal: string | null;
	invalid: InvalidMoveForm | null;
};

/** What a refused or invalid move is called in the alert. */
const NOT_DONE: Readonly<Record<ConsoleMove, string>> = {
	ship: "The order was not shipped",
	hold: "The order was not put on hold",
	release: "The hold was not released",
	deliver: "The order was not marked delivered",
	cancel: "The order was not canceled",
};

/** `24.5 KB`, `312.4 MB`: decimal units, as file browsers show them. */
export function bytesText(bytes: number): string {
	if (bytes < 1000) return `${bytes} B`;
	const units = ["KB", "MB", "GB"] as const;
	let value = bytes / 1000;
	let unit = 0;
	while (value >= 1000 && unit < units.length - 1) {
		value /= 1000;
		unit += 1;
	}
	return `${value.toFixed(1)} ${units[unit]}`;
}

function Dash() {
	return <span class="muted">—</span>;
}

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

/** What the order costs the partner, and how it ships. */
function CostsPanel({ sheet }: { sheet: OrderSheet }) {
	const { costs, order } = sheet;
	return (
		<section class="panel" aria-labelledby="costs-heading">
			<h2 id="costs-heading">Shipping and costs</h2>
			<dl class="facts">
				<dt>Shipping method</dt>
				<dd>{order.shipping_method ?? <Dash />}</dd>
				{costs === null ? (
					<>
						<dt>Costs</dt>
						<dd class="muted">
							{order.shipping_method === null
								? "Placed before orders were priced."
								: "Not priced until every item can be built."}
						</dd>
					</>
				) : (
					<>
						<dt>Items</dt>
						<dd>{dollarsText(costs.items)}</dd>
						<dt>Shipping</dt>
						<dd>{dollarsText(costs.shipping)}</dd>
						<dt>Total</dt>
						<dd>
							<strong>{dollarsText(costs.total)}</strong> {costs.currency}
						</dd>
						<dt>Price book</dt>
						<dd>version {costs.price_book_version}</dd>
						<dt>Quote</dt>
						<dd>{costs.quote_id === null ? <Dash /> : <code>{costs.quote_id}</code>}</dd>
					</>
				)}
			</dl>
		</section>
	);
}

function HistoryTable({ history }: { history: readonly OrderMoveRow[] }) {
	return (
		<div class="table-wrap">
			<table>
				<thead>
					<tr>
						<th scope="col">Time</th>
						<th scope="col">Move</th>
						<th scope="col">Actor</th>
						<th scope="col">From → to</th>
						<th scope="col">Note</th>
					</tr>
				</thead>
				<tbody>
					{history.map((row) => (
						<tr>
							<td>
								<time datetime={row.created_at}>{formatTime(row.created_at, true)}</time>
							</td>
							<td>{row.move.replaceAll("_", " ")}</td>
							<td>{row.actor}</td>
							<td>
								{row.from_status ?? "—"} → {row.to_status}
							</td>
							<td>{row.note ?? <Dash />}</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	);
}

type FieldProps = {
	move: ConsoleMove;
	name: string;
	label: string;
	invalid: InvalidMoveForm | null;
	type?: "text" | "url";
	maxLength?: number;
};

/** A labelled input that keeps what was typed and shows its error when its form came back. */
function Field({ move, name, label, invalid, type = "text", maxLength }: FieldProps) {
	const id = `${move}-${name}`;
	const ours = invalid?.move === move ? invalid : null;
	const value = ours?.values[name] ?? "";
	const error = ours?.fieldErrors[name];
	const errorId = `${id}-error`;
	const described = error === undefined ? {} : { "aria-invalid": "true", "aria-describedby": errorId };
	return (
		<>
			<label for={id}>{label}</label>
			<input id={id} name={name} type={type} value={value} maxlength={maxLength} {...described} />
			{error === undefined ? null : (
				<p class="field-error" id={errorId}>
					{error}
				</p>
			)}
		</>
	);
}

/** The form of one move, posting to `/ops/orders/<id>/<move>` with the session's form token. */
function MoveForm({
	orderId,
	move,
	csrfToken,
	invalid,
}: {
	orderId: string;
	move: ConsoleMove;
	csrfToken: string;
	invalid: InvalidMoveForm | null;
}) {
	const action = `/ops/orders/${orderId}/${move}`;
	switch (move) {
		case "ship":
			return (
				<form method="post" action={action}>
					<h3>Ship</h3>
					<CsrfField token={csrfToken} />
					<Field move="ship" name="carrier" label="Carrier" invalid={invalid} />
					<Field move="ship" name="number" label="Tracking number" invalid={invalid} />
					<Field move="ship" name="url" label="Tracking URL" type="url" invalid={invalid} />
					<button type="submit">Mark shipped</button>
				</form>
			);
		case "hold":
			return (
				<form method="post" action={action}>
					<h3>Hold</h3>
					<CsrfField token={csrfToken} />
					{/* One line, like every operator text (it goes into the partner's webhook): an input, not a textarea. */}
					<Field move="hold" name="message" label="Hold message" maxLength={1000} invalid={invalid} />
					<button type="submit">Put on hold</button>
				</form>
			);
		case "release":
			return (
				<form method="post" action={action}>
					<h3>Release</h3>
					<p class="muted">The order is validated again, then goes back into production.</p>
					<CsrfField token={csrfToken} />
					<button type="submit">Release hold</button>
				</form>
			);
		case "deliver":
			return (
				<form method="post" action={action}>
					<h3>Deliver</h3>
					<p class="muted">The carrier reports the package delivered.</p>
					<CsrfField token={csrfToken} />
					<button type="submit">Mark delivered</button>
				</form>
			);
		case "cancel":
			return (
				<form method="post" action={action} class="danger">
					<h3>Cancel</h3>
					<p class="muted">The partner is told at once. This cannot be undone.</p>
					<CsrfField token={csrfToken} />
					<button type="submit" class="danger">
						Cancel order
					</button>
				</form>
			);
	}
}

function ReturnAddress({ sheet }: { sheet: OrderSheet }) {
	if (sheet.returnAddress !== null) return <AddressLines address={sheet.returnAddress} />;
	return (
		<p class="warning">
			{sheet.brand === null
				? "No return address on file: the partner has no brand profile."
				: "No return address on file: the partner's brand profile has none."}
		</p>
	);
}

/** The alert above the forms: a refused move, or a summary of the fields to fix. */
function MoveAlert({ refusal, invalid }: Pick<OrderPageProps, "refusal" | "invalid">) {
	if (refusal !== null) return <div role="alert">{refusal}</div>;
	if (invalid === null) return null;
	return (
		<div role="alert">
			{NOT_DONE[invalid.move]}: {Object.values(invalid.fieldErrors).join(" ")}
		</div>
	);
}

/** One order as the floor works it: partner, addresses, items and their files, history, and the moves it allows. */
export function OrderPage({ sheet, history, csrfToken, done, refusal, invalid }: OrderPageProps) {
	const { order } = sheet;
	const state = stateOf(order);
	const moves = movesAllowedFrom(order.status);
	return (
		<Layout title={`Order ${order.external_id}`} csrfToken={csrfToken}>
			<div class="heading">
				<h1>Order {order.external_id}</h1>
				<StatusBadge status={order.status} testId="order-status" />
				<span class="links">
					<a href={`/ops/orders/${order.id}/work-ticket`}>Work tickets</a>
					<a href={`/ops/orders/${order.id}/packing-slip`}>Packing slip</a>
				</span>
			</div>
			{done === null ? null : <div role="status">{DONE_MESSAGES[done]}</div>}
			<div class="grid">
				<section class="panel" aria-labelledby="partner-heading">
					<h2 id="partner-heading">Partner</h2>
					<dl class="facts">
						<dt>Name</dt>
						<dd>{sheet.account.name}</dd>
						<dt>Account</dt>
						<dd>
							<code>{sheet.account.id}</code>
						</dd>
						<dt>Mode</dt>
						<dd>{order.mode}</dd>
						<dt>Order id</dt>
						<dd>
							<code>{order.id}</code>
						</dd>
						<dt>Created</dt>
						<dd>
							<time datetime={order.created_at}>{formatTime(order.created_at)}</time>
						</dd>
					</dl>
				</section>
				<section class="panel" aria-labelledby="ship-to-heading">
					<h2 id="ship-to-heading">Ship to</h2>
					<AddressLines address={sheet.shipTo} />
					{sheet.shipTo.phone === undefined ? null : <p class="muted">Phone {sheet.shipTo.phone}</p>}
				</section>
				<section class="panel" aria-labelledby="return-heading">
					<h2 id="return-heading">Shipping label return address</h2>
					<ReturnAddress sheet={sheet} />
				</section>
				<CostsPanel sheet={sheet} />
				{order.gift_message === null ? null : (
					<section class="panel" aria-labelledby="gift-heading">
						<h2 id="gift-heading">Gift message</h2>
						<p class="gift">{order.gift_message}</p>
					</section>
				)}
			</div>
			{state.tracking === null ? null : (
				<section class="panel" aria-labelledby="tracking-heading">
					<h2 id="tracking-heading">Tracking</h2>
					<dl class="facts">
						<dt>Carrier</dt>
						<dd>{state.tracking.carrier}</dd>
						<dt>Number</dt>
						<dd class="mono">{state.tracking.number}</dd>
						<dt>Tracking page</dt>
						<dd>
							<a href={state.tracking.url} rel="noreferrer">
								{state.tracking.url}
							</a>
						</dd>
						{order.shipped_at === null ? null : (
							<>
								<dt>Shipped</dt>
								<dd>
									<time datetime={order.shipped_at}>{formatTime(order.shipped_at)}</time>
								</dd>
							</>
						)}
						{order.delivered_at === null ? null : (
							<>
								<dt>Delivered</dt>
								<dd>
									<time datetime={order.delivered_at}>{formatTime(order.delivered_at)}</time>
								</dd>
							</>
						)}
					</dl>
				</section>
			)}
			{order.status !== "on_hold" ? null : (
				<section class="panel" aria-labelledby="hold-heading">
					<h2 id="hold-heading">Hold</h2>
					<p>
						Reason: {order.hold_reason === null ? "unknown" : holdReasonLabel(order.hold_reason)}{" "}
						<code class="muted">{order.hold_reason ?? ""}</code>
					</p>
					<ul class="plain">
						{state.holdDetails.map((detail) => (
							<li>
								{detail.item_id === null ? "Order" : `Item ${detail.item_id}`} · {detail.field}: {detail.message}
							</li>
						))}
					</ul>
				</section>
			)}
			<section aria-labelledby="items-heading" class="panel">
				<h2 id="items-heading">Items</h2>
				<ItemsTable items={sheet.items} />
			</section>
			<section aria-labelledby="actions-heading" class="panel">
				<h2 id="actions-heading">Moves</h2>
				<MoveAlert refusal={refusal} invalid={invalid} />
				{moves.length === 0 ? (
					<p class="muted">No operator move is possible from {order.status}.</p>
				) : (
					<div class="actions">
						{moves.map((move) => (
							<MoveForm orderId={order.id} move={move} csrfToken={csrfToken} invalid={invalid} />
						))}
					</div>
				)}
			</section>
			<section aria-labelledby="history-heading" class="panel">
				<h2 id="history-heading">History</h2>
				<HistoryTable history={history} />
			</section>
		</Layout>
	);
}
