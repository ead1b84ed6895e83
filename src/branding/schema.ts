import { z } from "@hono/zod-openapi";
import { ShipToSchema } from "../addresses/schema.ts";
import { dateTime } from "../http/date-time.ts";
import {
	BIDI_CONTROLS_REFUSED,
	NO_BIDI_CONTROLS,
	NO_CONTROL_CHARACTERS,
	printedMessage,
	webUrl,
} from "../text-rules.ts";

/** The longest side a logo may have: it is printed a few centimetres wide, never as art. */
export const LOGO_MAX_SIDE_PX = 2000;
/** The most bytes a logo may have: it is embedded in every packing slip. */
export const LOGO_MAX_BYTES = 4 * 1024 * 1024;
/** Logo formats: those a browser prints everywhere. */
export const LOGO_FORMATS = ["png", "jpeg"] as const;

const brandName = z
	.string()
	.trim()
	.min(1, "must not be empty")
	// Counted as a reader counts them, like the printed messages: an emoji is one character.
	.refine((text) => [...text].length <= 100, "must be at most 100 characters")
	.regex(NO_CONTROL_CHARACTERS, "must not contain control characters")
	// Printed on the slip the buyer reads: it must read as what it is.
	.regex(NO_BIDI_CONTROLS, BIDI_CONTROLS_REFUSED)
	.openapi({ maxLength: 100 });

/** The most characters of a packing-slip note. */
const PACKING_SLIP_MESSAGE_MAX_CHARACTERS = 1000;

/**
 * `PUT /v1/branding`: the whole profile, replacing the previous one. Only `brand_name` is required;
 * an optional field left out or null is cleared.
 */
/** The partner's own return address, as the document's examples show it. */
const RETURN_ADDRESS_EXAMPLE = {
	name: "Lumen Prints",
	address1: "88 Commercial Street",
	city: "Portland",
	state: "ME",
	zip: "04101",
	country: "US",
	phone: "+1 207-555-0142",
	email: "returns@lumen.example",
};

export const BrandProfileBody = z
	.strictObject({
		brand_name: brandName.openapi({ description: "Printed at the top of the packing slip.", example: "Lumen Prints" }),
		return_address: ShipToSchema.nullish().openapi({
			description: "The shipping label's return address and the slip's sender: the shape and rules of ship_to.",
			example: RETURN_ADDRESS_EXAMPLE,
		}),
		support_email: z
			.string()
			.trim()
			.max(254, "must be at most 254 characters")
			.regex(z.regexes.email, "must be an email address")
			.nullish()
			.openapi({ example: "help@lumen.example" }),
		// As written: the stored text is what the slip prints and links to.
		support_url: webUrl("must be an absolute http or https URL, such as https://example.com/help")
			.nullish()
			.openapi({ example: "https://lumen.example/help" }),
		packing_slip_message: printedMessage(PACKING_SLIP_MESSAGE_MAX_CHARACTERS).nullish().openapi({
			description: "A note printed on every slip (at most 1000 characters; line breaks are kept).",
			example: "Thank you for supporting independent artists.",
			minLength: 1,
			maxLength: PACKING_SLIP_MESSAGE_MAX_CHARACTERS,
		}),
		logo_print_file_id: z
			.string()
			.min(1)
			.max(64, "must be at most 64 characters")
			.nullish()
			.openapi({
				description:
					"A PNG or JPEG uploaded like a print file (POST /v1/print-files, with a live or a test key), at most " +
					`${LOGO_MAX_SIDE_PX} px on its long side and ${LOGO_MAX_BYTES / 1024 / 1024} MiB.`,
				example: "pf_2x8d",
			}),
	})
	.openapi("BrandProfileRequest");

export type BrandProfileInput = z.infer<typeof BrandProfileBody>;

export const BrandProfileSchema = z
	.object({
		brand_name: z.string().openapi({ example: "Lumen Prints" }),
		return_address: z.record(z.string(), z.string()).nullable().openapi({ example: RETURN_ADDRESS_EXAMPLE }),
		support_email: z.string().nullable().openapi({ example: "help@lumen.example" }),
		support_url: z.string().nullable().openapi({ example: "https://lumen.example/help" }),
		packing_slip_message: z.string().nullable().openapi({ example: "Thank you for supporting independent artists." }),
		logo_print_file_id: z.string().nullable().openapi({ example: "pf_2x8d" }),
		created_at: dateTime(),
		updated_at: dateTime(),
	})
	.openapi("BrandProfile");

export type BrandProfile = z.infer<typeof BrandProfileSchema>;
