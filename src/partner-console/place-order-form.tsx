/**
 * Placing one order from the console, in two steps: the form (the file, its size and framing from the
 * catalog, the recipient, the method and the partner's external id), then the framed preview and the
 * quote with the button that orders exactly what was quoted. Server-rendered, no script.
 */
import type { Catalog } from "../catalog/schema.ts";
import { moneyText } from "../money/currencies.ts";
import type { StoredOrder } from "../orders/rows.ts";
import { statusLabel } from "../orders/words.ts";
import { SHIPPING_METHODS } from "../pricing/shipping.ts";
import type { Quote } from "../quotes/schema.ts";
import { type LayoutViewer, PartnerLayout } from "./layout.tsx";
import { type ConsoleMode, withMode } from "./scope.ts";

/** The fields of the order form, as posted (text), so a refused form comes back as it was filled. */
export const ORDER_FORM_FIELDS = [
	"external_id",
	"width_in",
	"height_in",
	"frame",
	"mat",
	"glazing",
	"name",
	"address1",
	"address2",
	"city",
	"state",
	"zip",
	"country",
	"phone",
	"email",
	"shipping_method",
] as const;
/** One of ORDER_FORM_FIELDS. */
export type OrderFormField = (typeof ORDER_FORM_FIELDS)[number];
/** The order form's values. */
export type OrderFormValues = Readonly<Record<OrderFormField, string>>;

const CSS = `
.steps { display: grid; gap: 1.25rem; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); align-items: start; }
.preview img { max-width: 100%; height: auto; display: block; background: #e5e7eb; }
`;

type Frame = { viewer: LayoutViewer; mode: ConsoleMode };

/** The `done` words of the place-orders page, each a fixed sentence. */
export const PLACED_WORDS = {
	ordered: "The order is placed: the service checks its file and starts it.",
	already:
		"An order with this external id and the same content was placed before: it is that order, nothing new was placed.",
} as const;

function TextField(props: {
	name: OrderFormField;
	label: string;
	values: OrderFormValues;
	required?: boolean;
	type?: string;
	autocomplete?: string;
	inputmode?: "numeric" | "email" | "tel";
}) {
	return (
		<div>
			<label for={props.name}>{props.label}</label>
			<input
				id={props.name}
				name={props.name}
				type={props.type ?? "text"}
				value={props.values[props.name]}
				required={props.required}
				autocomplete={props.autocomplete}
				inputmode={props.inputmode}
			/>
		</div>
	);
}

function ChoiceField(props: {
	name: OrderFormField;
	label: string;
	values: OrderFormValues;
	none?: string;
	choices: readonly { slug: string; name: string }[];
}) {
	const chosen = props.values[props.name];
	return (
		<div>
			<label for={props.name}>{props.label}</label>
			<select id={props.name} name={props.name}>
				{props.none === undefined ? null : (
					<option value="" selected={chosen === ""}>
						{props.none}
					</option>
				)}
				{props.choices.map((choice) => (
					<option value={choice.slug} selected={choice.slug === chosen}>
						{choice.name}
					</option>
				))}
			</select>
		</div>
	);
}

/** The first step: the order form; `error` the refusal of the last post, `placed` the order just placed. */
export function OrderFormPage(
	props: Frame & {
		catalog: Catalog;
		values: OrderFormValues;
		error: string | null;
		placed: { words: string; order: StoredOrder | null } | null;
	},
) {
	const { catalog, values, mode } = props;
	const sizes = { min: catalog.sizes.min_in, max: catalog.sizes.max_in };
	return (
		<PartnerLayout title="Place orders" viewer={props.viewer} mode={mode} section="place-order" css={CSS}>
			<h1>Place orders</h1>
			{props.placed === null ? null : (
				<div role="status">
					{props.placed.words}
					{props.placed.order === null ? null : (
						<>
							{" "}
							<a href={withMode(`/partner/orders/${props.placed.order.order.id}`, mode)}>
								Order {props.placed.order.order.external_id}
							</a>{" "}
							({statusLabel(props.placed.order.order.status)}).
						</>
					)}
				</div>
			)}
			<p>
				One order with this form, or many at once from a spreadsheet:{" "}
				<a href={withMode("/partner/place/csv", mode)}>upload a CSV of orders</a>.
			</p>
			{props.error === null ? null : <div role="alert">{props.error}</div>}
			<form method="post" action={withMode("/partner/place/form", mode)} enctype="multipart/form-data">
				<input type="hidden" name="_csrf" value={props.viewer.csrfToken} />
				<section class="panel">
					<h2>The piece</h2>
					<label for="file">Print file (TIFF, PNG or JPEG, up to 64 MiB)</label>
					<input id="file" name="file" type="file" accept="image/tiff,image/png,image/jpeg" required />
					<div class="grid">
						<TextField
							name="width_in"
							label={`Width, inches (${sizes.min} to ${sizes.max})`}
							values={values}
							required
							inputmode="numeric"
						/>
						<TextField
							name="height_in"
							label={`Height, inches (${sizes.min} to ${sizes.max})`}
							values={values}
							required
							inputmode="numeric"
						/>
						<ChoiceField
							name="frame"
							label="Frame"
							values={values}
							none="No frame (print only)"
							choices={catalog.frames}
						/>
						<ChoiceField name="mat" label="Mat" values={values} none="No mat" choices={catalog.mats} />
						<ChoiceField
							name="glazing"
							label="Glazing"
							values={values}
							none="The default for the frame"
							choices={catalog.glazings}
						/>
					</div>
				</section>
				<section class="panel">
					<h2>The recipient</h2>
					<div class="grid">
						<TextField name="name" label="Name" values={values} required autocomplete="name" />
						<TextField name="address1" label="Address" values={values} required autocomplete="address-line1" />
						<TextField
							name="address2"
							label="Address, second line (optional)"
							values={values}
							autocomplete="address-line2"
						/>
						<TextField name="city" label="City" values={values} required autocomplete="address-level2" />
						<TextField
							name="state"
							label="State or region (US, CA, AU: its code)"
							values={values}
							autocomplete="address-level1"
						/>
						<TextField name="zip" label="Postcode" values={values} autocomplete="postal-code" />
						<TextField
							name="country"
							label="Country (two letters, such as US or GB)"
							values={values}
							required
							autocomplete="country"
						/>
						<TextField name="phone" label="Phone (optional)" values={values} type="tel" autocomplete="tel" />
						<TextField name="email" label="Email (optional)" values={values} type="email" autocomplete="email" />
					</div>
				</section>
				<section class="panel">
					<h2>The order</h2>
					<div class="grid">
						<TextField name="external_id" label="Your order id (external id)" values={values} required />
						<ChoiceField
							name="shipping_method"
							label="Shipping method"
							values={values}
							choices={SHIPPING_METHODS.map((method) => ({ slug: method, name: method }))}
						/>
					</div>
					<button type="submit">See the preview and the price</button>
				</section>
			</form>
		</PartnerLayout>
	);
}

/** What the second step carries to the order: the stored file and quote, and the form's values. */
export type QuotedOrder = { printFileId: string; quote: Quote; values: OrderFormValues };

/** The second step: the framed preview, the quote, and the button that places the order as quoted. */
export function QuotedOrderPage(props: Frame & QuotedOrder & { error: string | null }) {
	const { quote, values, mode } = props;
	const item = quote.items[0];
	const method = quote.shipping_method ?? "standard";
	const total = quote.totals.by_method[method];
	const option = quote.shipping_options.find((candidate) => candidate.method === method);
	const previewQuery = new URLSearchParams({
		print_file_id: props.printFileId,
		width_in: values.width_in,
		height_in: values.height_in,
		frame: values.frame,
		mat: values.mat,
		glazing: values.glazing,
	});
	return (
		<PartnerLayout title="Check and place the order" viewer={props.viewer} mode={mode} section="place-order" css={CSS}>
			<h1>Check and place the order</h1>
			{props.error === null ? null : <div role="alert">{props.error}</div>}
			<div class="steps">
				<section class="panel preview">
					<h2>The framed piece</h2>
					<img
						src={withMode(`/partner/place/preview.png?${previewQuery.toString()}`, mode)}
						alt={`The framed preview of the piece, ${values.width_in} × ${values.height_in} in`}
						width={600}
					/>
					<p class="muted">
						A grey opening means the file's thumbnail is still being made (a few seconds): the piece is drawn around it,
						and the order does not wait for it.
					</p>
				</section>
				<section class="panel">
					<h2>The price</h2>
					<dl>
						<dt>Your order id</dt>
						<dd>{values.external_id}</dd>
						<dt>Piece</dt>
						<dd>
							{values.width_in} × {values.height_in} in
							{item === undefined ? "" : `, ${item.frame ?? "no frame"}${item.mat === null ? "" : `, ${item.mat}`}`}
						</dd>
						<dt>Recipient</dt>
						<dd>
							{values.name}, {values.city}, {values.country}
						</dd>
						<dt>Items</dt>
						<dd>{moneyText(quote.totals.items, quote.currency)}</dd>
						<dt>Shipping ({method})</dt>
						<dd>
							{total === undefined ? "not offered" : moneyText(total.shipping, quote.currency)}
							{option === undefined ? "" : `, ${option.delivery_days.min} to ${option.delivery_days.max} days`}
						</dd>
						<dt>Total</dt>
						<dd>{total === undefined ? "—" : moneyText(total.total, quote.currency)}</dd>
					</dl>
					<form method="post" action={withMode("/partner/place/order", mode)}>
						<input type="hidden" name="_csrf" value={props.viewer.csrfToken} />
						<input type="hidden" name="print_file_id" value={props.printFileId} />
						<input type="hidden" name="quote_id" value={quote.id} />
						{ORDER_FORM_FIELDS.map((name) => (
							<input type="hidden" name={name} value={values[name]} />
						))}
						<button type="submit">
							Place the order for {total === undefined ? "the quoted price" : moneyText(total.total, quote.currency)}
						</button>
					</form>
					<p>
						<a href={withMode("/partner/place", mode)}>Start again</a>
					</p>
				</section>
			</div>
		</PartnerLayout>
	);
}
