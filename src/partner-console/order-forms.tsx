/**
 * The forms of an order's page, each shown only while the order allows its action now (as
 * `orderActions` says, the rule the API's routes refuse by): the recipient and shipping method, a
 * held item's fix (a new file by upload, a size, a frame or a mat), and the way to the cancel's
 * confirmation. Each posts with the session's token, to an address that keeps the page's mode.
 */
import type { ShipTo } from "../addresses/schema.ts";
import { formatTime } from "../http/format.ts";
import type { OrderActions } from "../orders/order-actions.ts";
import { SHIPPING_METHODS, type ShippingMethod } from "../pricing/shipping.ts";
import type { SheetItem } from "../production/order-sheet.ts";
import { type ConsoleMode, withMode } from "./scope.ts";

/** A part the fix form offers: its slug and name. */
export type PartChoice = { slug: string; name: string };

/** The recipient's fields, in the order the form shows them, with their labels. */
export const RECIPIENT_FIELDS = [
	["name", "Name", "name"],
	["address1", "Address", "address-line1"],
	["address2", "Address, second line (optional)", "address-line2"],
	["city", "City", "address-level2"],
	["state", "State, province or region", "address-level1"],
	["zip", "Postcode", "postal-code"],
	["country", "Country (two letters, such as US)", "country"],
	["phone", "Phone (optional)", "tel"],
	["email", "Email (optional)", "email"],
] as const satisfies readonly (readonly [keyof ShipTo, string, string])[];

/** Each shipping method as the pages name it. */
export const METHOD_WORDS: Readonly<Record<ShippingMethod, string>> = {
	budget: "Budget",
	standard: "Standard",
	express: "Express",
	freight: "Freight",
};

function CsrfField({ token }: { token: string }) {
	return <input type="hidden" name="_csrf" value={token} />;
}

/** The recipient and shipping method, filled with `values` (the order's, or what was just sent and refused). */
export function RecipientForm(props: {
	orderId: string;
	mode: ConsoleMode;
	csrfToken: string;
	values: Readonly<Record<string, string>>;
	method: string;
	actions: OrderActions;
}) {
	const { actions } = props;
	if (!actions.update_recipient.available && !actions.update_shipping_method.available) {
		return <p class="muted">{readableReason(actions.update_recipient.reason ?? "")}</p>;
	}
	return (
		<form method="post" action={withMode(`/partner/orders/${props.orderId}/recipient`, props.mode)}>
			<CsrfField token={props.csrfToken} />
			<div class="grid">
				{RECIPIENT_FIELDS.map(([name, label, autocomplete]) => (
					<div>
						<label for={`ship-${name}`}>{label}</label>
						<input
							id={`ship-${name}`}
							name={name}
							autocomplete={autocomplete}
							maxlength={name === "email" ? 254 : 200}
							value={props.values[name] ?? ""}
							required={name === "name" || name === "address1" || name === "city" || name === "country"}
						/>
					</div>
				))}
				<div>
					<label for="shipping-method">Shipping method</label>
					<select id="shipping-method" name="shipping_method">
						{SHIPPING_METHODS.map((method) => (
							<option value={method} selected={method === props.method}>
								{METHOD_WORDS[method]}
							</option>
						))}
					</select>
				</div>
			</div>
			<button type="submit">Save recipient and method</button>
		</form>
	);
}

/** A select of catalog parts with a "none" choice, `current` chosen. */
function PartSelect(props: {
	id: string;
	name: string;
	label: string;
	none: string;
	parts: readonly PartChoice[];
	current: string | null;
}) {
	return (
		<div>
			<label for={props.id}>{props.label}</label>
			<select id={props.id} name={props.name}>
				<option value="" selected={props.current === null}>
					{props.none}
				</option>
				{props.parts.map((part) => (
					<option value={part.slug} selected={part.slug === props.current}>
						{part.name}
					</option>
				))}
			</select>
		</div>
	);
}

/** A held item's fix: a new file by upload, and its size, frame and mat (left as they are unless changed). */
export function FixItemForm(props: {
	orderId: string;
	item: SheetItem;
	mode: ConsoleMode;
	csrfToken: string;
	frames: readonly PartChoice[];
	mats: readonly PartChoice[];
}) {
	const { item } = props;
	const id = (field: string) => `fix-${item.id}-${field}`;
	return (
		<form
			method="post"
			enctype="multipart/form-data"
			action={withMode(`/partner/orders/${props.orderId}/items/${item.id}/fix`, props.mode)}
			class="fix-form"
		>
			<h3>Fix {item.name}</h3>
			<CsrfField token={props.csrfToken} />
			<label for={id("file")}>New print file (TIFF, PNG or JPEG, up to 64 MiB; optional)</label>
			<input
				id={id("file")}
				name="file"
				type="file"
				accept=".tif,.tiff,.png,.jpg,.jpeg,image/tiff,image/png,image/jpeg"
			/>
			<div class="grid">
				<div>
					<label for={id("width")}>Width in inches</label>
					<input id={id("width")} name="width_in" inputmode="decimal" value={String(item.widthIn)} required />
				</div>
				<div>
					<label for={id("height")}>Height in inches</label>
					<input id={id("height")} name="height_in" inputmode="decimal" value={String(item.heightIn)} required />
				</div>
				<PartSelect
					id={id("frame")}
					name="frame"
					label="Frame"
					none="Unframed"
					parts={props.frames}
					current={item.spec.frame}
				/>
				<PartSelect id={id("mat")} name="mat" label="Mat" none="No mat" parts={props.mats} current={item.spec.mat} />
			</div>
			<button type="submit">Fix this item</button>
		</form>
	);
}

/** The way to cancel: a link to the confirmation, or why the order can no longer be canceled. */
export function CancelLink({ orderId, mode, actions }: { orderId: string; mode: ConsoleMode; actions: OrderActions }) {
	if (!actions.cancel.available)
		return <p class="muted">It can no longer be canceled: {readableReason(actions.cancel.reason ?? "")}</p>;
	return (
		<p>
			<a class="button secondary" href={withMode(`/partner/orders/${orderId}/cancel`, mode)}>
				Cancel this order…
			</a>
		</p>
	);
}

/** The cancel's confirmation: what it does, and the button that does it. */
export function ConfirmCancelForm(props: {
	orderId: string;
	externalId: string;
	mode: ConsoleMode;
	csrfToken: string;
}) {
	return (
		<section class="panel" aria-labelledby="confirm-heading">
			<h2 id="confirm-heading">Cancel order {props.externalId}?</h2>
			<p>The order will not be made or shipped, and it cannot be placed again under the same external id.</p>
			<form method="post" action={withMode(`/partner/orders/${props.orderId}/cancel`, props.mode)} class="actions">
				<CsrfField token={props.csrfToken} />
				<input type="hidden" name="confirm" value="yes" />
				<button type="submit" class="danger">
					Yes, cancel the order
				</button>
				<a class="button secondary" href={withMode(`/partner/orders/${props.orderId}`, props.mode)}>
					No, keep it
				</a>
			</form>
		</section>
	);
}

const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\b/g;

/** A reason or refusal as the console shows it: the service's times in the console's words, never an ISO timestamp. */
export function readableReason(text: string): string {
	return text.replace(ISO_TIME, (iso) => formatTime(iso));
}
