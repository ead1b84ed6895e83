/**
 * The order page's shipment forms read into what the ops API takes: a shipment of the units chosen
 * (`units.<item id>` fields, one per item with units left) with its label, validated by the ops
 * route's own schema, so the console and the API refuse the same things.
 */
import type { z } from "@hono/zod-openapi";
import { ShipmentBody } from "../orders/operator-moves.ts";

/** The name prefix of a form field that holds how many units of an item to ship. */
export const UNITS_FIELD_PREFIX = "units.";

/** The most item fields a shipment form may carry (the API's limit on a shipment's entries). */
const MAX_UNIT_FIELDS = 100;

/** What a shipment form does once read: a shipment made, or one shipment delivered or returned. */
export const SHIPMENT_ACTIONS = ["shipment", "shipment_repeat", "shipment_deliver", "shipment_return"] as const;
export type ShipmentAction = (typeof SHIPMENT_ACTIONS)[number];

/** Whether a `done` query names a shipment action. */
export function isShipmentAction(candidate: string): candidate is ShipmentAction {
	return (SHIPMENT_ACTIONS as readonly string[]).includes(candidate);
}

/** What the order page says after a shipment form went through. */
export const SHIPMENT_DONE_MESSAGES: Readonly<Record<ShipmentAction, string>> = {
	shipment: "Shipment recorded.",
	shipment_repeat: "This label is already a shipment of these units: nothing more shipped.",
	shipment_deliver: "Shipment marked delivered.",
	shipment_return: "Shipment marked returned to sender.",
};

/** A shipment form that came back: what was typed, and the problem with each field (`form` for the whole). */
export type InvalidShipmentForm = {
	values: Readonly<Record<string, string>>;
	fieldErrors: Readonly<Record<string, string>>;
};

/** A shipment form read into the ops API's body, or what was typed and what is wrong. */
export type ShipmentFromForm = { ok: true; body: z.infer<typeof ShipmentBody> } | ({ ok: false } & InvalidShipmentForm);

const LABELS: Readonly<Record<string, string>> = {
	carrier: "Carrier",
	number: "Tracking number",
	url: "Tracking URL",
};

function text(form: Readonly<Record<string, unknown>>, name: string): string {
	const value = form[name];
	return typeof value === "string" ? value : "";
}

/**
 * Reads a posted shipment form. Empty and zero unit fields ship nothing of that item; any other value
 * must be a whole number. At least one unit must be chosen; which units remain is the order's
 * machine's to say (the caller shows its refusal).
 */
export function shipmentFromForm(form: Readonly<Record<string, unknown>>): ShipmentFromForm {
	const values: Record<string, string> = { carrier: text(form, "carrier"), number: text(form, "number") };
	const url = text(form, "url");
	values.url = url;
	const unitFields = Object.keys(form).filter((name) => name.startsWith(UNITS_FIELD_PREFIX));
	if (unitFields.length > MAX_UNIT_FIELDS) {
		return { ok: false, values, fieldErrors: { form: `A shipment names at most ${MAX_UNIT_FIELDS} items.` } };
	}
	const fieldErrors: Record<string, string> = {};
	const items: { item_id: string; quantity: number }[] = [];
	for (const name of unitFields) {
		const typed = text(form, name).trim();
		values[name] = typed.slice(0, 20);
		if (typed === "" || typed === "0") continue;
		if (!/^\d{1,4}$/.test(typed)) {
			fieldErrors[name] = "Units must be a whole number from 0 to 9999.";
			continue;
		}
		items.push({ item_id: name.slice(UNITS_FIELD_PREFIX.length), quantity: Number(typed) });
	}
	if (items.length === 0 && Object.keys(fieldErrors).length === 0) {
		fieldErrors.form = "Choose at least one unit to ship.";
	}
	const parsed = ShipmentBody.safeParse({
		carrier: values.carrier,
		number: values.number,
		items,
		...(url === "" ? {} : { url }),
	});
	if (parsed.success && Object.keys(fieldErrors).length === 0) return { ok: true, body: parsed.data };
	for (const issue of parsed.success ? [] : parsed.error.issues) {
		const field = fieldOfPath(issue.path, items);
		fieldErrors[field] ??= `${LABELS[field] ?? "Units"} ${issue.message}.`;
	}
	return { ok: false, values, fieldErrors };
}

/**
 * The form field an error of the API's body names: `items[i].…` is the unit field of the i-th item
 * chosen, any other the label's field. The machine's refusals use the same paths.
 */
export function fieldOfPath(path: readonly PropertyKey[] | string, items: ReadonlyArray<{ item_id: string }>): string {
	const parts = typeof path === "string" ? path.split(/[.[\]]+/).filter((part) => part !== "") : path.map(String);
	const [head, index] = parts;
	if (head === "items") {
		const item = items[Number(index)];
		return item === undefined ? "form" : `${UNITS_FIELD_PREFIX}${item.item_id}`;
	}
	return head === undefined ? "form" : head;
}
