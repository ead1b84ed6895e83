/** An accepted address in normal form, as the address check shows it and the warnings judge it. */
import type { ShipTo } from "./schema.ts";

/** A field trimmed, its runs of white space made one space. */
function tidy(value: string): string {
	return value.replace(/\s+/gu, " ").trim();
}

/**
 * `shipTo` (accepted by ShipToSchema) in normal form: every field tidied; a US or Canadian state and
 * postcode upper-cased, and a Canadian postcode given its space (k1a0b1 becomes K1A 0B1).
 */
export function normalizedShipTo(shipTo: ShipTo): ShipTo {
	const northAmerican = shipTo.country === "US" || shipTo.country === "CA";
	const state = shipTo.state === undefined ? undefined : tidy(shipTo.state);
	let zip = shipTo.zip === undefined ? undefined : tidy(shipTo.zip);
	if (zip !== undefined && northAmerican) zip = zip.toUpperCase();
	if (zip !== undefined && shipTo.country === "CA") zip = zip.replace(/^(\w{3}) ?(\w{3})$/u, "$1 $2");
	const optional = {
		address2: shipTo.address2 === undefined ? undefined : tidy(shipTo.address2),
		state: state !== undefined && northAmerican ? state.toUpperCase() : state,
		zip,
		phone: shipTo.phone === undefined ? undefined : tidy(shipTo.phone),
		email: shipTo.email,
	};
	const normalized: ShipTo = {
		name: tidy(shipTo.name),
		address1: tidy(shipTo.address1),
		city: tidy(shipTo.city),
		country: shipTo.country,
	};
	for (const [field, value] of Object.entries(optional)) {
		if (value !== undefined) Object.assign(normalized, { [field]: value });
	}
	return normalized;
}
