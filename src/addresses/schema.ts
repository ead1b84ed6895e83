import { z } from "@hono/zod-openapi";
import { singleLineText } from "../text-rules.ts";
import {
	COUNTRY_CODE_SET,
	POSTCODE_FORMAT_REFUSED,
	POSTCODE_OPTIONAL,
	postcodeFitsCountry,
	SUBDIVISIONS,
} from "./regions.ts";

/** A postal address as stored (validated by ShipToSchema): an order's ship-to, a brand's return address. */
export type ShipTo = {
	name: string;
	address1: string;
	address2?: string;
	city: string;
	state?: string;
	zip?: string;
	country: string;
	phone?: string;
	email?: string;
};

// At least one digit, so "-----" is not a phone number.
const PHONE_NUMBER = /^(?=.*\d)[\d +\-().]{5,30}$/;
/** A postal address as `ship_to` takes it: required fields, lengths, subdivisions, postcodes. */
export const ShipToSchema = z
	.strictObject({
		name: singleLineText(100).openapi({ example: "Ada Lovelace" }),
		address1: singleLineText(200).openapi({ example: "350 Fifth Avenue" }),
		address2: singleLineText(200).optional().openapi({ example: "Suite 2100" }),
		city: singleLineText(100).openapi({ example: "New York" }),
		state: singleLineText(100).optional().openapi({
			description: "Required for US, CA and AU, as a subdivision code there (e.g. NY, ON, NSW).",
			example: "NY",
		}),
		zip: singleLineText(20).optional().openapi({
			description:
				"Required where the country uses postcodes. A US, CA or GB postcode in the wrong format is refused; elsewhere it is a warning (`POST /v1/addresses/check`, `ship_to_warnings`).",
			example: "10118",
		}),
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
			.optional()
			.openapi({ example: "ada@example.com" }),
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
		const described = POSTCODE_FORMAT_REFUSED.get(shipTo.country);
		if (described !== undefined && postcodeFitsCountry(shipTo.zip, shipTo.country) === false) {
			ctx.addIssue({ code: "custom", path: ["zip"], message: `must be ${described}` });
		}
	})
	// Subdivision codes are stored uppercase; elsewhere `state` is free text and left as written.
	.overwrite((shipTo) =>
		shipTo.state !== undefined && SUBDIVISIONS.has(shipTo.country)
			? { ...shipTo, state: shipTo.state.toUpperCase() }
			: shipTo,
	)
	.openapi("ShipTo");
