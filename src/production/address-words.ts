/**
 * How the floor reads an order's address warnings (`ship_to_warnings`): a short title per code in
 * the floor's words, and the stored message with the particulars (which line, which ZIP code). One
 * place, used by the console's order page, the work ticket and the packing slip's on-screen notice.
 */
import type { ShipToWarning, ShipToWarningCode } from "../addresses/ship-to-warnings.ts";

/** Each address warning code as the floor names it. */
export const ADDRESS_WARNING_TITLES: Readonly<Record<ShipToWarningCode, string>> = {
	address_line_too_long: "Address line too long for a label",
	po_box_not_served: "PO box the carrier does not deliver to",
	postcode_state_mismatch: "ZIP code of another state",
	postcode_format_unrecognized: "Postcode in a shape the country does not use",
	phone_missing: "No phone number for the carrier",
};

/** A warning's title and particulars; a code this page does not know (kept from older data) is shown as itself. */
export function addressWarningWords(warning: Pick<ShipToWarning, "code" | "message">): {
	title: string;
	detail: string;
} {
	const title = Object.hasOwn(ADDRESS_WARNING_TITLES, warning.code)
		? ADDRESS_WARNING_TITLES[warning.code]
		: `Address warning "${warning.code}"`;
	return { title, detail: warning.message };
}
