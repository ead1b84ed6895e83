import { z } from "@hono/zod-openapi";
import { BIDI_CONTROLS_REFUSED, NO_BIDI_CONTROLS } from "../readable-text.ts";

/**
 * Every officially assigned ISO 3166-1 alpha-2 code (249). User-assigned codes such as XK (Kosovo)
 * and reserved ones such as UK or EU are not country codes, so they are refused.
 */
export const COUNTRY_CODES = [
	...["AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ"],
	...["BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS", "BT", "BV", "BW"],
	...["BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN", "CO", "CR", "CU", "CV", "CW", "CX"],
	...["CY", "CZ", "DE", "DJ", "DK", "DM", "DO", "DZ", "EC", "EE", "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM"],
	...["FO", "FR", "GA", "GB", "GD", "GE", "GF", "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT", "GU"],
	...["GW", "GY", "HK", "HM", "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT", "JE"],
	...["JM", "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC", "LI", "LK"],
	...["LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK", "ML", "MM", "MN", "MO", "MP"],
	...["MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA", "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP"],
	...["NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG", "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY", "QA"],
	...["RE", "RO", "RS", "RU", "RW", "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO"],
	...["SR", "SS", "ST", "SV", "SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO", "TR"],
	...["TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI", "VN", "VU", "WF", "WS"],
	...["YE", "YT", "ZA", "ZM", "ZW"],
] as const;

const COUNTRY_CODE_SET: ReadonlySet<string> = new Set(COUNTRY_CODES);

/**
 * Countries whose addresses carry no postcode, so `zip` is optional there (everywhere else it is
 * required). Most have no postcode system at all. A few have one that mail does not depend on and
 * many addresses lack, where requiring it would refuse deliverable orders: IE (Eircode, optional
 * since 2015), GH (GhanaPost GPS codes), JM, LC, SO and TT (codes introduced but little used).
 * Uninhabited territories with no postal service (AQ, BV, HM, TF) are here too.
 */
export const COUNTRIES_WITHOUT_POSTCODES = [
	...["AE", "AG", "AO", "AQ", "AW", "BF", "BI", "BJ", "BO", "BQ", "BS", "BV", "BW", "BZ", "CD", "CF", "CG", "CI", "CK"],
	...["CM", "CW", "DJ", "DM", "ER", "FJ", "GA", "GD", "GH", "GM", "GQ", "GY", "HK", "HM", "IE", "JM", "KI", "KM", "KN"],
	...["KP", "LC", "LY", "ML", "MO", "MR", "MW", "NR", "NU", "QA", "RW", "SB", "SC", "SL", "SO", "SR", "SS", "ST", "SX"],
	...["SY", "TD", "TF", "TG", "TK", "TL", "TO", "TT", "TV", "UG", "VU", "YE", "ZW"],
] as const;

const POSTCODE_OPTIONAL: ReadonlySet<string> = new Set(COUNTRIES_WITHOUT_POSTCODES);

/** Where `state` is required, the codes it may take, and how to name them in a message. */
const SUBDIVISIONS: ReadonlyMap<string, { codes: ReadonlySet<string>; described: string }> = new Map([
	[
		"US",
		{
			// The 50 states, DC, the inhabited territories plus UM, and the military "states" of APO/FPO mail.
			codes: new Set([
				...["AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY"],
				...["LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND"],
				...["OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY"],
				...["DC", "AS", "GU", "MP", "PR", "VI", "UM", "AA", "AE", "AP"],
			]),
			described: "a US state, territory or military code such as NY",
		},
	],
	[
		"CA",
		{
			codes: new Set(["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"]),
			described: "a Canadian province or territory code such as ON",
		},
	],
	[
		"AU",
		{
			codes: new Set(["ACT", "NSW", "NT", "QLD", "SA", "TAS", "VIC", "WA"]),
			described: "an Australian state or territory code such as NSW",
		},
	],
]);

/** Postcode formats checked where a wrong one is common and cheap to catch; case-insensitive, space optional. */
const POSTCODE_FORMATS: ReadonlyMap<string, { pattern: RegExp; described: string }> = new Map([
	["US", { pattern: /^\d{5}(?:-\d{4})?$/, described: "a US ZIP code: 12345 or 12345-6789" }],
	[
		"CA",
		{
			// Canada Post never uses D, F, I, O, Q or U, nor W or Z as the first letter.
			pattern: /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/i,
			described: "a Canadian postal code such as K1A 0B1",
		},
	],
	[
		"GB",
		{
			// The Royal Mail shape: outward code (area letters, district digits) then inward code (digit, two letters).
			pattern:
				/^(?:GIR ?0AA|[A-PR-UWYZ](?:\d{1,2}|[A-HK-Y]\d[\dABEHMNPRV-Y]?|\d[A-HJKPS-UW]) ?\d[ABD-HJLNP-UW-Z]{2})$/i,
			described: "a UK postcode such as SW1A 1AA",
		},
	],
]);

// C0 controls, DEL and C1 controls (Unicode Cc). Spelled out rather than \p{Cc}: the OpenAPI pattern
// is written from the regex source, and the `u` flag that \p needs would not survive the trip.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse control characters.
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
// At least one digit, so "-----" is not a phone number.
const PHONE_NUMBER = /^(?=.*\d)[\d +\-().]{5,30}$/;
const SLUG = /^[a-z0-9][a-z0-9-]*$/;
// As NO_CONTROL_CHARACTERS, but line feeds are kept: a gift message may have lines.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse control characters.
const NO_CONTROL_CHARACTERS_BUT_NEWLINES = /^[^\u0000-\u0009\u000b-\u001f\u007f-\u009f]*$/;

/** Most characters a gift message may have, counted as a reader would (code points, not UTF-16 units). */
export const GIFT_MESSAGE_MAX_CHARACTERS = 300;

/** Whether `value` parses as an absolute URL as written: the URL parser would quietly drop edge whitespace. */
function isAbsoluteUrl(value: string): boolean {
	return !/[\s\p{Cc}]/u.test(value) && URL.canParse(value);
}

/**
 * One line of text a person typed (an address line; an operator's carrier, tracking number or hold
 * message): trimmed, non-empty, at most `max` characters, without control characters, CR and LF included.
 */
export function singleLineText(max: number) {
	return z
		.string()
		.trim()
		.min(1, "must not be empty")
		.max(max, `must be at most ${max} characters`)
		.regex(NO_CONTROL_CHARACTERS, "must not contain control characters");
}

/**
 * An http or https URL shown to people and linked to (a tracking page, a support page), taken as written:
 * whitespace and control characters are refused outright, since the URL parser would quietly drop some.
 */
export function webUrl(message: string) {
	return z
		.string()
		.max(2048, "must be at most 2048 characters")
		.regex(NO_CONTROL_CHARACTERS, "must not contain control characters")
		.refine((value) => !/\s/u.test(value) && /^https?:$/.test(URL.parse(value)?.protocol ?? ""), message);
}

/** A URL the service will fetch or call; whether its host may be called is `outboundUrlProblem`'s decision. */
function absoluteUrl() {
	return z
		.string()
		.max(2048, "must be at most 2048 characters")
		.refine(isAbsoluteUrl, "must be an absolute URL, such as https://example.com/path");
}

/**
 * Free text printed for a reader (a gift message, a packing-slip note): Windows line ends become \n,
 * trimmed, 1 to `maxCharacters` characters counted as a reader counts them (code points, so an emoji
 * is one), line breaks kept, no other control characters.
 */
export function printedMessage(maxCharacters: number) {
	return z
		.string()
		.transform((text) => text.replace(/\r\n?/g, "\n").trim())
		.pipe(
			z
				.string()
				.min(1, "must not be empty (leave the field out for no message)")
				.refine((text) => [...text].length <= maxCharacters, `must be at most ${maxCharacters} characters`)
				.regex(NO_CONTROL_CHARACTERS_BUT_NEWLINES, "must not contain control characters other than line breaks"),
		);
}

/** `gift_message`: an extension of spec 2.1, printed on the packing slip. */
function giftMessage() {
	return printedMessage(GIFT_MESSAGE_MAX_CHARACTERS)
		.optional()
		.openapi({
			description:
				"Extension of spec 2.1: a message from the buyer, printed on the packing slip. At most 300 characters; " +
				"line breaks are kept. Part of the idempotency comparison like every other field.",
			example: "Happy birthday, Grace!",
			minLength: 1,
			maxLength: GIFT_MESSAGE_MAX_CHARACTERS,
		});
}

const inches = z
	.number()
	.positive("must be greater than 0")
	.max(1000, "must be at most 1000 inches")
	.openapi({ description: "Inches. Sizes outside the catalog's range put the order on hold.", example: 16 });

const catalogSlug = z
	.string()
	.min(1)
	.max(64, "must be at most 64 characters")
	.regex(SLUG, "must be a catalog slug: lowercase letters, digits and hyphens");

export const ShipToSchema = z
	.strictObject({
		name: singleLineText(100).openapi({ example: "Ada Lovelace" }),
		address1: singleLineText(200).openapi({ example: "350 Fifth Avenue" }),
		address2: singleLineText(200).optional(),
		city: singleLineText(100).openapi({ example: "New York" }),
		state: singleLineText(100)
			.optional()
			.openapi({ description: "Required for US, CA and AU, as a subdivision code there (e.g. NY, ON, NSW)." }),
		zip: singleLineText(20)
			.optional()
			.openapi({ description: "Required where the country uses postcodes. US, CA and GB formats are checked." }),
		// Lowercase is accepted and stored uppercase: "us" is not ambiguous, and refusing it helps nobody.
		country: z
			.string()
			.trim()
			.toUpperCase()
			.refine((code) => COUNTRY_CODE_SET.has(code), "must be an ISO 3166-1 alpha-2 country code, such as US or GB")
			.openapi({ description: "ISO 3166-1 alpha-2, stored uppercase.", example: "US" }),
		phone: z
			.string()
			.trim()
			.regex(PHONE_NUMBER, "must be a phone number of 5 to 30 digits, spaces and + - ( ) .")
			.optional()
			.openapi({ example: "+1 212-555-0100" }),
		email: z
			.string()
			.trim()
			.max(254, "must be at most 254 characters")
			.regex(z.regexes.email, "must be an email address")
			.optional(),
	})
	.superRefine((shipTo, ctx) => {
		// With an unknown country the country's own issue is the one to report: nothing else can be judged.
		if (!COUNTRY_CODE_SET.has(shipTo.country)) return;
		const subdivisions = SUBDIVISIONS.get(shipTo.country);
		if (subdivisions !== undefined) {
			if (shipTo.state === undefined) {
				// invalid_type on an absent value is how the error mapper recognises a missing field (400).
				ctx.addIssue({
					code: "invalid_type",
					expected: "string",
					input: undefined,
					path: ["state"],
					message: `is required for ${shipTo.country}`,
				});
			} else if (!subdivisions.codes.has(shipTo.state.toUpperCase())) {
				ctx.addIssue({ code: "custom", path: ["state"], message: `must be ${subdivisions.described}` });
			}
		}
		if (shipTo.zip === undefined) {
			if (!POSTCODE_OPTIONAL.has(shipTo.country)) {
				ctx.addIssue({
					code: "invalid_type",
					expected: "string",
					input: undefined,
					path: ["zip"],
					message: `is required for ${shipTo.country}`,
				});
			}
			return;
		}
		const format = POSTCODE_FORMATS.get(shipTo.country);
		if (format !== undefined && !format.pattern.test(shipTo.zip)) {
			ctx.addIssue({ code: "custom", path: ["zip"], message: `must be ${format.described}` });
		}
	})
	// Subdivision codes are stored uppercase; elsewhere `state` is free text and left as written.
	.overwrite((shipTo) =>
		shipTo.state !== undefined && SUBDIVISIONS.has(shipTo.country)
			? { ...shipTo, state: shipTo.state.toUpperCase() }
			: shipTo,
	)
	.openapi("ShipTo");

export const OrderItemInputSchema = z
	.strictObject({
		print_file_id: z
			.string()
			.min(1)
			.max(64, "must be at most 64 characters")
			.optional()
			.openapi({ description: "A print file uploaded beforehand. Exactly one of the two file fields." }),
		print_file_url: absoluteUrl()
			.optional()
			.openapi({ description: "An https URL the service fetches the file from. Exactly one of the two file fields." }),
		width_in: inches,
		height_in: inches,
		frame: catalogSlug
			.optional()
			.openapi({ description: "A frame slug; omitted means unframed.", example: "oak-slim" }),
		mat: catalogSlug.optional().openapi({ example: "white-2in" }),
		quantity: z
			.number()
			.int("must be a whole number")
			.min(1, "must be at least 1")
			.max(100, "must be at most 100")
			.default(1),
	})
	.superRefine((item, ctx) => {
		const hasId = item.print_file_id !== undefined;
		const hasUrl = item.print_file_url !== undefined;
		if (hasId && hasUrl) {
			ctx.addIssue({ code: "custom", path: [], message: "must have print_file_id or print_file_url, not both" });
		} else if (!hasId && !hasUrl) {
			ctx.addIssue({ code: "custom", path: [], message: "must have one of print_file_id or print_file_url" });
		}
	})
	.openapi("OrderItemInput");

export const CreateOrderBody = z
	.strictObject({
		// Taken exactly as sent, untrimmed: it is the partner's key for idempotency.
		external_id: z
			.string()
			.min(1, "must not be empty")
			.max(128, "must be at most 128 characters")
			.regex(NO_CONTROL_CHARACTERS, "must not contain control characters")
			// People compare it with their own records: it must read as what it is.
			.regex(NO_BIDI_CONTROLS, BIDI_CONTROLS_REFUSED)
			.openapi({
				description: "The partner's own order id; a repeat with the same content replays.",
				example: "PO-1001",
			}),
		ship_to: ShipToSchema,
		items: z.array(OrderItemInputSchema).min(1, "must hold at least 1 item").max(50, "must hold at most 50 items"),
		callback_url: absoluteUrl().optional().openapi({
			description: "An https URL that receives the order's webhooks.",
			example: "https://example.com/hooks",
		}),
		gift_message: giftMessage(),
	})
	.openapi("CreateOrderRequest");

export type CreateOrderInput = z.infer<typeof CreateOrderBody>;

/**
 * `PATCH /v1/orders/{id}/items/{item_id}`: what a partner may change on an item of an on-hold order.
 * At most one file field; `frame` or `mat` null removes it. The same field rules as at creation.
 */
export const PatchItemBody = z
	.strictObject({
		print_file_id: z.string().min(1).max(64, "must be at most 64 characters").optional(),
		print_file_url: absoluteUrl().optional(),
		width_in: inches.optional(),
		height_in: inches.optional(),
		frame: catalogSlug.nullable().optional(),
		mat: catalogSlug.nullable().optional(),
	})
	.superRefine((patch, ctx) => {
		if (patch.print_file_id !== undefined && patch.print_file_url !== undefined) {
			ctx.addIssue({ code: "custom", path: [], message: "must have print_file_id or print_file_url, not both" });
		}
		if (Object.values(patch).every((value) => value === undefined)) {
			ctx.addIssue({ code: "custom", path: [], message: "must change at least one of the item's fields" });
		}
	})
	.openapi("PatchItemRequest");

export type PatchItemInput = z.infer<typeof PatchItemBody>;

/** `value` with object keys sorted at every depth and undefined entries dropped; arrays keep their order. */
function withSortedKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withSortedKeys);
	if (typeof value !== "object" || value === null) return value;
	const sorted: Record<string, unknown> = {};
	for (const key of Object.keys(value).sort()) {
		const entry: unknown = Reflect.get(value, key);
		if (entry !== undefined) sorted[key] = withSortedKeys(entry);
	}
	return sorted;
}

/**
 * The canonical JSON of a parsed create request, compared on an idempotent repeat: parsing has applied
 * defaults and normalised values, so key order and an explicit `quantity: 1` make no difference.
 */
export function canonicalOrderRequest(input: CreateOrderInput): string {
	return JSON.stringify(withSortedKeys(input));
}
