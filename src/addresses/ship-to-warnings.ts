/**
 * What a carrier's label would trip on in an address that is otherwise accepted: a line too long to
 * print, a PO box for a service that needs a door, a ZIP code in another state, a postcode in a shape
 * the country does not use, no phone for a carrier abroad. Warnings never hold or refuse an order.
 */
import { normalizedShipTo } from "./normalize.ts";
import { POSTCODE_FORMAT_REFUSED, postcodeFitsCountry } from "./regions.ts";
import type { ShipTo } from "./schema.ts";
import { zipMatchesState } from "./us-zip-prefixes.ts";

/** The warning codes, in the order a check reports them. */
export const SHIP_TO_WARNINGS = [
	"address_line_too_long",
	"po_box_not_served",
	"postcode_state_mismatch",
	"postcode_format_unrecognized",
	"phone_missing",
] as const;
export type ShipToWarningCode = (typeof SHIP_TO_WARNINGS)[number];

/** One warning: the ship_to field it is about, its code and what to do, in words. */
export type ShipToWarning = { field: string; code: ShipToWarningCode; message: string };

/** The longest address line UPS, FedEx and USPS labels print whole. */
export const LABEL_LINE_MAX = 35;

/** The methods whose carriers deliver only to a door (UPS and FedEx express, freight lines). */
const DOOR_ONLY_METHODS: ReadonlySet<string> = new Set(["express", "freight"]);

// Matched on the line lower-cased with accents removed. English spellings (PO Box, P.O. Box, P O Box,
// POB, PO Bx, Post Office Box) and the usual words in the other languages of the largest markets.
const PO_BOX =
	/(?:^|[^\p{L}\p{N}])(?:p\.?\s*o\.?\s*(?:box|bx|b)|post\s*office\s*box|postfach|postbus|postboks|boite\s+postale|case\s+postale|apartado\s+(?:de\s+)?correos|caixa\s+postal|casilla\s+(?:de\s+)?correos?)(?![\p{L}])/u;

/** Whether an address line names a post office box. */
export function isPoBox(line: string): boolean {
	const plain = line.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
	return PO_BOX.test(plain);
}

/**
 * The warnings for `shipTo` (already accepted by ShipToSchema) shipped by `shippingMethod` (null:
 * none known, so no method-specific warning). Orders store them at creation and after each change of
 * recipient; `POST /v1/addresses/check` shows them before an order exists.
 */
export function shipToWarnings(accepted: ShipTo, shippingMethod: string | null): ShipToWarning[] {
	// Judged in normal form, so that a stored order and a check of the same address agree.
	const shipTo = normalizedShipTo(accepted);
	const warnings: ShipToWarning[] = [];
	const lines = [
		["address1", shipTo.address1],
		["address2", shipTo.address2],
	] as const;
	for (const [name, line] of lines) {
		if (line !== undefined && [...line].length > LABEL_LINE_MAX) {
			warnings.push({
				field: `ship_to.${name}`,
				code: "address_line_too_long",
				message: `ship_to.${name} is ${[...line].length} characters: carrier labels print ${LABEL_LINE_MAX}, so the rest may be cut off. Move part of it to the other address line.`,
			});
		}
	}
	if (shippingMethod !== null && DOOR_ONLY_METHODS.has(shippingMethod)) {
		for (const [name, line] of lines) {
			if (line !== undefined && isPoBox(line)) {
				warnings.push({
					field: `ship_to.${name}`,
					code: "po_box_not_served",
					message: `ship_to.${name} is a PO box, and ${shippingMethod} carriers deliver only to a street address: give one, or ship standard.`,
				});
			}
		}
	}
	warnings.push(...postcodeWarnings(shipTo));
	if (shipTo.country !== "US" && shipTo.phone === undefined) {
		warnings.push({
			field: "ship_to.phone",
			code: "phone_missing",
			message: `Carriers to ${shipTo.country} call the recipient for customs and delivery: add ship_to.phone.`,
		});
	}
	return warnings;
}

/** A postcode of the wrong shape where that is not refused, or a US ZIP code of another state. */
function postcodeWarnings(shipTo: ShipTo): ShipToWarning[] {
	const zip = shipTo.zip;
	if (zip === undefined) return [];
	if (shipTo.country === "US" && shipTo.state !== undefined && zipMatchesState(zip, shipTo.state) === false) {
		return [
			{
				field: "ship_to.zip",
				code: "postcode_state_mismatch",
				message: `ZIP code ${zip} is not one of ${shipTo.state.toUpperCase()}'s: check the ZIP code and the state.`,
			},
		];
	}
	if (!POSTCODE_FORMAT_REFUSED.has(shipTo.country) && postcodeFitsCountry(zip, shipTo.country) === false) {
		return [
			{
				field: "ship_to.zip",
				code: "postcode_format_unrecognized",
				message: `${zip} is not in the postcode format of ${shipTo.country}: check it, as the carrier may refuse the label.`,
			},
		];
	}
	return [];
}
