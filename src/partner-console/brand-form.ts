/**
 * The brand page's form as `PUT /v1/branding`'s body: each field of the form is a field of the body
 * (an empty one left out, so cleared), the return address's fields together (all empty: no return
 * address), validated by the API's own schema.
 */
import type { BodyData } from "hono/utils/body";
import { BrandProfileBody, type BrandProfileInput } from "../branding/schema.ts";
import { validationErrorFrom } from "../http/validation.ts";

/** The return address's fields, as the form names them (`return_city`) and the body (`city`). */
export const RETURN_ADDRESS_FIELDS = [
	{ name: "name", label: "Name" },
	{ name: "address1", label: "Address" },
	{ name: "address2", label: "Address, line 2" },
	{ name: "city", label: "City" },
	{ name: "state", label: "State or region" },
	{ name: "zip", label: "Postcode" },
	{ name: "country", label: "Country (two letters, such as US)" },
	{ name: "phone", label: "Phone" },
	{ name: "email", label: "Email" },
] as const;

/** The profile's own fields, as the form and the body name them. */
const PROFILE_FIELDS = ["brand_name", "support_email", "support_url", "packing_slip_message"] as const;

/** The most characters read of any one field: past every field's own limit, so the schema says what is too long. */
const FIELD_CAP = 2000;

/** What the form held, as typed: shown again when it is refused. */
export type BrandFormValues = Record<string, string>;

/** The form's typed values as typed (files left out), each capped at FIELD_CAP characters. */
export function brandFormValues(form: BodyData): BrandFormValues {
	const values: BrandFormValues = {};
	const names = [...PROFILE_FIELDS, ...RETURN_ADDRESS_FIELDS.map(({ name }) => `return_${name}`)];
	for (const name of names) {
		const value = form[name];
		values[name] = typeof value === "string" ? value.slice(0, FIELD_CAP) : "";
	}
	return values;
}

/** The words a page uses for a body's field in a refusal. */
const FIELD_WORDS: Readonly<Record<string, string>> = {
	brand_name: "The brand name",
	support_email: "The support email",
	support_url: "The support web address",
	packing_slip_message: "The packing-slip message",
	logo_print_file_id: "The logo",
	...Object.fromEntries(
		RETURN_ADDRESS_FIELDS.map(({ name, label }) => [
			`return_address.${name}`,
			`The return address's ${label.replace(/ \(.*\)$/, "").toLowerCase()}`,
		]),
	),
};

/** A refusal's message with the body's field name at its start in the page's words. */
export function inFormWords(message: string, field: string | undefined): string {
	if (field === undefined) return message;
	const words = FIELD_WORDS[field];
	if (words === undefined) return message;
	const stripped = message.startsWith(`${field}: `)
		? message.slice(field.length + 2)
		: message.startsWith(`${field} `)
			? message.slice(field.length + 1)
			: null;
	return stripped === null ? message : `${words} ${stripped}`;
}

/**
 * The body the form makes with `logoId` as its logo, validated as `PUT /v1/branding` validates it: the
 * input, or the refusal's words (its field in the page's words) and status.
 */
export function brandBodyOf(
	values: BrandFormValues,
	logoId: string | null,
): { ok: true; input: BrandProfileInput } | { ok: false; message: string; status: 400 | 422 } {
	const body: Record<string, unknown> = {};
	for (const name of PROFILE_FIELDS) {
		const value = values[name] ?? "";
		if (value.trim() !== "" || name === "brand_name") body[name] = value;
	}
	const address: Record<string, string> = {};
	for (const { name } of RETURN_ADDRESS_FIELDS) {
		const value = values[`return_${name}`] ?? "";
		if (value.trim() !== "") address[name] = value;
	}
	if (Object.keys(address).length > 0) body.return_address = address;
	if (logoId !== null) body.logo_print_file_id = logoId;
	const parsed = BrandProfileBody.safeParse(body);
	if (parsed.success) return { ok: true, input: parsed.data };
	const error = validationErrorFrom(parsed.error, body);
	const status = error.status === 400 ? 400 : 422;
	return { ok: false, message: inFormWords(error.message, error.field), status };
}
