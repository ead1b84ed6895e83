/**
 * A postal address as the lines a carrier reads, in the destination country's own format. The
 * formats are Google's libaddressinput data, through `localized-address-format`: which fields each
 * country prints, in which order, on which line, with its literals ("〒", "CH-"). Not a table of ours.
 */
import { type Address, formatAddress } from "localized-address-format";
import type { ShipTo } from "./schema.ts";

// Stand-ins for the fields while the library lays the address out. Control characters, because no
// stored address has them (singleLineText refuses them), so a mark can never be taken for real text.
const NAME = "\u0001";
const STREET = "\u0002";
const CITY = "\u0003";
const STATE = "\u0004";
const POSTCODE = "\u0005";

/** Which of a country's formats to use: its own script's, or its Latin one where it has one. */
type ScriptType = NonNullable<Parameters<typeof formatAddress>[1]>;

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** The English name of an ISO 3166-1 alpha-2 code, or the code when the runtime has no name for it. */
export function countryName(code: string): string {
	try {
		return regionNames.of(code) ?? code;
	} catch {
		return code;
	}
}

/**
 * Latin-script addresses take the country's Latin format where it has one (Japan written in Latin
 * letters reads from the street up; in Japanese, from the prefecture down).
 */
function scriptOf(address: ShipTo): ScriptType {
	const text = [address.name, address.address1, address.address2, address.city, address.state].join(" ");
	return /[^\p{Script=Latin}\P{L}]/u.test(text) ? "local" : "latin";
}

/**
 * The lines of `address` in its country's format, the country's English name last (the line that
 * international mail needs). Every field's characters are kept as written; a field the country's
 * format has no place for is left out (a GB county, a German state), except the city: where the
 * format has none (Japan, where the city is part of the street lines), it becomes a street line,
 * above the street when the format writes from the country down to the recipient, below it otherwise,
 * unless the format writes the city's name itself (Singapore, Gibraltar).
 */
export function postalLines(address: ShipTo): string[] {
	const values = new Map<string, string>([
		[NAME, address.name],
		[CITY, address.city],
		[STATE, address.state ?? ""],
		[POSTCODE, address.zip ?? ""],
	]);
	// Marks stand in for the fields, so that the layout says where each field went; an empty field
	// stays empty, so that the library drops it and the separators around it.
	const layout: Address = {
		postalCountry: address.country,
		name: NAME,
		addressLines: [STREET],
		locality: CITY,
		administrativeArea: address.state === undefined || address.state === "" ? "" : STATE,
		postalCode: address.zip === undefined || address.zip === "" ? "" : POSTCODE,
	};
	const laidOut = formatAddress(layout, scriptOf(address));
	const streetAt = laidOut.findIndex((line) => line.includes(STREET));
	const streetLines = [address.address1, address.address2].filter(
		(line): line is string => line !== undefined && line !== "",
	);
	// A city-state's format spells the city itself ("SINGAPORE %Z"): the city is not printed twice.
	const cityUpper = address.city.toLocaleUpperCase();
	const formatNamesCity = laidOut.some((line) => line.toLocaleUpperCase().includes(cityUpper));
	if (!laidOut.some((line) => line.includes(CITY)) && !formatNamesCity) {
		const recipientLast = laidOut.findIndex((line) => line.includes(NAME)) > streetAt;
		if (recipientLast) streetLines.unshift(address.city);
		else streetLines.push(address.city);
	}
	const lines = laidOut.flatMap((line) => (line.includes(STREET) ? streetBlock(line, streetLines) : [line]));
	return [...lines.map((line) => fillIn(line, values)), countryName(address.country)];
}

/**
 * The street lines where the format has its one street mark: whatever the format writes before the
 * street goes with the first line and whatever it writes after with the last ("1-2-3 Jingumae, Tokyo").
 */
function streetBlock(line: string, streetLines: readonly string[]): string[] {
	const [before = "", after = ""] = line.split(STREET);
	return streetLines.map(
		(street, index) => `${index === 0 ? before : ""}${street}${index === streetLines.length - 1 ? after : ""}`,
	);
}

function fillIn(line: string, values: ReadonlyMap<string, string>): string {
	let filled = line;
	// A function, not a string: a replacement string would read "$&" or "$1" in an address as patterns.
	for (const [mark, value] of values) filled = filled.replaceAll(mark, () => value);
	return filled;
}
