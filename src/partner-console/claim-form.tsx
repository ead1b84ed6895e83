/**
 * The claim form of one shipped order: what happened, how many units of each shipped item, the
 * partner's words and the photos; and the posted form read into the API's claim request, checked by
 * the API's own schema, so a claim filed here is the claim POST /v1/orders/{id}/claims would make.
 */

import { CLAIM_REASONS, type ClaimReason } from "../claims/rules.ts";
import { CreateClaimBody, type CreateClaimInput, MAX_PHOTOS } from "../claims/schema.ts";
import { REASON_WORDS } from "../claims/words.ts";
import { formatTime } from "../http/format.ts";
import type { Availability } from "../orders/order-actions.ts";
import type { StoredOrder } from "../orders/rows.ts";
import type { Refusal } from "../problem.ts";
import { itemNames } from "./claim-page.tsx";
import { type LayoutViewer, PartnerLayout } from "./layout.tsx";
import { type ConsoleMode, withMode } from "./scope.ts";

const FORM_CSS =
	".reason { display: flex; gap: .5rem; align-items: baseline; font-weight: 400; margin: .35rem 0; } .units input { max-width: 8rem; } .hint { font-weight: 400; color: var(--muted); font-size: .95rem; margin: 0 0 .25rem; }";

/** When each reason may be claimed, as the rules say it. */
const REASON_HINTS: Readonly<Record<ClaimReason, string>> = {
	damaged_in_transit: "arrived broken; within 30 days of delivery, with photos",
	lost_in_transit: "never arrived; from 5 days after it shipped, while undelivered",
	print_defect: "the print is faulty; within 30 days of delivery, with photos",
	frame_defect: "the frame is faulty; within 30 days of delivery, with photos",
	wrong_item: "not what was ordered; within 30 days of delivery",
};

/** What the form shows typed in again after a refusal (never the files: a browser cannot be given them back). */
export type ClaimFormValues = { reason: string; units: Readonly<Record<string, string>>; description: string };

export const EMPTY_CLAIM_FORM: ClaimFormValues = { reason: "", units: {}, description: "" };

/** The name of the units field of item `itemId`. */
function unitsField(itemId: string): string {
	return `units-${itemId}`;
}

/** The units of each item the order's shipments carry. */
export function shippedUnits(order: StoredOrder): Map<string, number> {
	const shipped = new Map<string, number>();
	for (const shipment of order.shipments) {
		for (const unit of shipment.items) shipped.set(unit.item_id, (shipped.get(unit.item_id) ?? 0) + unit.quantity);
	}
	return shipped;
}

/** The form's address for `orderId`, in `mode`. */
export function claimFormPath(orderId: string, mode: ConsoleMode): string {
	return withMode(`/partner/claims/new?order=${encodeURIComponent(orderId)}`, mode);
}

/** The claim form of a shipped order, with a refusal's words when the last try was refused. */
export function ClaimFormPage(props: {
	viewer: LayoutViewer;
	mode: ConsoleMode;
	order: StoredOrder;
	availability: Availability;
	values: ClaimFormValues;
	alert: string | null;
}) {
	const { order, mode, values, availability } = props;
	const names = itemNames(order);
	const shipped = [...shippedUnits(order)];
	const orderHref = withMode(`/partner/orders/${order.order.id}`, mode);
	return (
		<PartnerLayout title="File a claim" viewer={props.viewer} mode={mode} section="claims" css={FORM_CSS}>
			<h1>File a claim</h1>
			<p>
				On order <a href={orderHref}>{order.order.external_id}</a> (<span class="mono">{order.order.id}</span>).
			</p>
			{availability.available ? (
				<p class="muted">
					Units of this order may be claimed now
					{availability.until === null ? "." : `, until ${formatTime(availability.until)} for what arrived.`}
				</p>
			) : (
				<p class="panel">{availability.reason}</p>
			)}
			{props.alert === null ? null : <div role="alert">{props.alert}</div>}
			{shipped.length === 0 ? null : (
				<form class="panel" method="post" action={claimFormPath(order.order.id, mode)} enctype="multipart/form-data">
					<input type="hidden" name="_csrf" value={props.viewer.csrfToken} />
					<fieldset>
						<legend>What happened</legend>
						{CLAIM_REASONS.map((reason) => (
							<label class="reason" for={`reason-${reason}`}>
								<input
									type="radio"
									id={`reason-${reason}`}
									name="reason"
									value={reason}
									checked={values.reason === reason}
									required
								/>
								<span>
									<strong>{REASON_WORDS[reason]}</strong>: {REASON_HINTS[reason]}
								</span>
							</label>
						))}
					</fieldset>
					<fieldset class="units">
						<legend>Units claimed</legend>
						{shipped.map(([itemId, units]) => (
							<>
								<label for={unitsField(itemId)}>{names.get(itemId) ?? itemId}</label>
								<p class="hint" id={`${unitsField(itemId)}-hint`}>
									{units} shipped; leave at 0 for none
								</p>
								<input
									type="number"
									id={unitsField(itemId)}
									name={unitsField(itemId)}
									min={0}
									max={units}
									step={1}
									inputmode="numeric"
									value={values.units[itemId] ?? "0"}
									aria-describedby={`${unitsField(itemId)}-hint`}
								/>
							</>
						))}
					</fieldset>
					<label for="claim-description">What you or your customer saw</label>
					{/* Up to 2,000 characters as a reader counts them, which the server alone counts. */}
					<textarea id="claim-description" name="description" rows={4} required>
						{values.description}
					</textarea>
					<label for="claim-photos">Photos of what arrived (JPEG or PNG, up to {MAX_PHOTOS})</label>
					<p class="hint" id="claim-photos-hint">
						Needed for damage and defects. Choose them again after a refusal.
					</p>
					<input
						type="file"
						id="claim-photos"
						name="photos"
						accept="image/jpeg,image/png"
						multiple
						aria-describedby="claim-photos-hint"
					/>
					<button type="submit">File the claim</button>
				</form>
			)}
		</PartnerLayout>
	);
}

/** The text of a posted field (the last when repeated), or "" when it is absent or a file. */
function textOf(form: Record<string, unknown>, name: string): string {
	const value = form[name];
	const last = Array.isArray(value) ? value.at(-1) : value;
	return typeof last === "string" ? last : "";
}

/** The chosen files of a posted file field; an input left empty posts one nameless empty file, which is none. */
export function chosenFiles(form: Record<string, unknown>, name: string): File[] {
	const value = form[name];
	const values: unknown[] = Array.isArray(value) ? value : [value];
	return values.filter((entry): entry is File => entry instanceof File && (entry.size > 0 || entry.name !== ""));
}

/** The values to show again. */
export function formValuesOf(form: Record<string, unknown>, order: StoredOrder): ClaimFormValues {
	const units: Record<string, string> = {};
	for (const itemId of shippedUnits(order).keys()) units[itemId] = textOf(form, unitsField(itemId)).slice(0, 12);
	return { reason: textOf(form, "reason"), units, description: textOf(form, "description").slice(0, 20_000) };
}

/**
 * The claim request the form asks for, photos apart (they are stored once the rest passes), or what
 * to fix, in words: the API's schema checks it, so the API's limits hold here too.
 */
export function claimRequestOf(
	values: ClaimFormValues,
	order: StoredOrder,
): { ok: true; input: Omit<CreateClaimInput, "photo_file_ids"> } | Refusal {
	const names = itemNames(order);
	if (!(CLAIM_REASONS as readonly string[]).includes(values.reason)) {
		return { ok: false, field: "reason", message: "Choose what happened." };
	}
	const items: { item_id: string; quantity: number }[] = [];
	for (const [itemId, typed] of Object.entries(values.units)) {
		const text = typed.trim();
		if (text === "" || text === "0") continue;
		const quantity = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
		if (!Number.isInteger(quantity) || quantity > 1000) {
			return { ok: false, field: "items", message: `${names.get(itemId) ?? itemId}: give a whole number of units.` };
		}
		if (quantity > 0) items.push({ item_id: itemId, quantity });
	}
	if (items.length === 0) return { ok: false, field: "items", message: "Say how many units of at least one item." };
	if (values.description.trim() === "") {
		return {
			ok: false,
			field: "description",
			message: "Say what you or your customer saw: the service team reads it.",
		};
	}
	const parsed = CreateClaimBody.safeParse({ reason: values.reason, items, description: values.description });
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const field = issue?.path[0] === "description" ? "What you saw" : "The claim";
		return { ok: false, field: String(issue?.path[0] ?? ""), message: `${field} ${issue?.message ?? "is not valid"}.` };
	}
	const { photo_file_ids: _none, ...input } = parsed.data;
	return { ok: true, input };
}

/**
 * A refusal of the claim's rules in the form's words: the entry it names (`items[0].quantity`,
 * `photo_file_ids[1]`) as the item or photo, and the reasons, items and photos the message names by
 * their words, not their ids.
 */
export function refusalInWords(
	refused: Refusal,
	order: StoredOrder,
	claimed: ReadonlyArray<{ item_id: string }>,
	photoIds: ReadonlyArray<string>,
): string {
	const names = itemNames(order);
	const field = refused.field ?? "";
	const photo = /^photo_file_ids\[(\d+)\]$/.exec(field);
	const entry = /^items\[(\d+)\]/.exec(field);
	const itemId = entry === null ? undefined : claimed[Number(entry[1])]?.item_id;
	const where =
		photo !== null
			? `Photo ${Number(photo[1]) + 1}: `
			: itemId !== undefined
				? `${names.get(itemId) ?? itemId}: `
				: field === "photo_file_ids"
					? "Photos: "
					: "";
	let message = refused.message;
	for (const reason of CLAIM_REASONS) message = message.replaceAll(reason, `“${REASON_WORDS[reason]}”`);
	for (const [id, name] of names) message = message.replaceAll(id, name);
	for (const id of photoIds) message = message.replaceAll(id, "this photo");
	return `${where}${message}`;
}
