/** The address check's answer and the warnings an order carries, as the OpenAPI document shows them. */
import { z } from "@hono/zod-openapi";
import { type ShipTo, ShipToSchema } from "./schema.ts";
import { SHIP_TO_WARNINGS } from "./ship-to-warnings.ts";

export const ShipToWarningSchema = z
	.object({
		field: z.string().openapi({ example: "ship_to.address1" }),
		code: z.enum(SHIP_TO_WARNINGS).openapi({ example: "address_line_too_long" }),
		message: z.string().openapi({
			example:
				"ship_to.address1 is 41 characters: carrier labels print 35, so the rest may be cut off. Move part of it to the other address line.",
		}),
	})
	.openapi("ShipToWarning", {
		description:
			"What a carrier's label would trip on. address_line_too_long: over 35 characters; po_box_not_served: a PO box with express or freight; postcode_state_mismatch: a US ZIP code of another state; postcode_format_unrecognized: not the country's postcode format (refused outright for US, CA and GB); phone_missing: no phone outside the US. Never holds or refuses an order.",
	});

export const AddressProblemSchema = z
	.object({
		field: z.string().openapi({ example: "ship_to.zip" }),
		code: z.string().openapi({
			description: "The error code creation would refuse the field with (field_required, invalid_field, ...).",
			example: "invalid_field",
		}),
		message: z.string().openapi({ example: "ship_to.zip: must be a US ZIP code: 12345 or 12345-6789" }),
	})
	.openapi("AddressProblem");

export const AddressCheckSchema = z
	.object({
		deliverable: z.boolean().openapi({
			description: "True when an order would take this ship_to: no problems (warnings allowed).",
			example: true,
		}),
		problems: z.array(AddressProblemSchema).openapi({
			description: "What order creation would refuse, one entry per field.",
			example: [],
		}),
		warnings: z.array(ShipToWarningSchema).openapi({
			description: "What a carrier's label would trip on; empty when there are problems.",
			example: [
				{
					field: "ship_to.zip",
					code: "postcode_state_mismatch",
					message: "ZIP code 90210 is not one of NY's: check the ZIP code and the state.",
				},
			],
		}),
		// A union, not .nullable(): the generator would write a nullable reference as an allOf that refuses null.
		normalized: z.union([ShipToSchema, z.null()]),
	})
	.openapi("AddressCheck", {
		example: {
			deliverable: true,
			problems: [],
			warnings: [
				{
					field: "ship_to.address1",
					code: "po_box_not_served",
					message:
						"ship_to.address1 is a PO box, and express carriers deliver only to a street address: give one, or ship standard.",
				},
			],
			normalized: {
				name: "Ada Lovelace",
				address1: "PO Box 4410",
				city: "New York",
				state: "NY",
				zip: "10118",
				country: "US",
				phone: "+1 212-555-0100",
			},
		},
		description:
			"`normalized` is the address trimmed, runs of spaces made one, a US or Canadian state and postcode upper-cased (a Canadian postcode with its space); null when there are problems.",
	});

/** A field of the address to check, whatever its text: judged by the check as a create would judge it. */
const judged = (example: string) => z.string().optional().openapi({ example });

const SHIP_TO_FIELDS_TO_CHECK = {
	name: judged("Ada Lovelace"),
	address1: judged("350 Fifth Avenue"),
	address2: judged("Suite 2100"),
	city: judged("New York"),
	state: judged("NY"),
	zip: judged("10118"),
	country: judged("US"),
	phone: judged("+1 212-555-0100"),
	email: judged("ada@example.com"),
} satisfies Record<keyof ShipTo, z.ZodType>;

/**
 * `ship_to` as the address check takes it: the fields of ShipTo, each any text and none required,
 * so that a postcode in the wrong format, an unknown state or country, a missing field or an
 * over-long line reach the check and come back as problems (200), as creation would refuse them.
 * Only what no ship_to could be is refused (400 or 422): a field ShipTo does not have, a value that is not text.
 */
export const ShipToToCheckSchema = z.strictObject(SHIP_TO_FIELDS_TO_CHECK).openapi("ShipToToCheck", {
	description:
		"The fields of ShipTo, each any text and none required: what breaks ShipTo's rules (a missing field, a postcode in the wrong format, an unknown state or country, an over-long line) is answered in `problems`, not refused.",
});
