/** Countries, their subdivisions and their postcodes: the tables an address is checked against. */
import { postcodeValidator, postcodeValidatorExistsForCountry } from "postcode-validator";

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

export const COUNTRY_CODE_SET: ReadonlySet<string> = new Set(COUNTRY_CODES);

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

export const POSTCODE_OPTIONAL: ReadonlySet<string> = new Set(COUNTRIES_WITHOUT_POSTCODES);

/** Where `state` is required, the codes it may take, and how to name them in a message. */
export const SUBDIVISIONS: ReadonlyMap<string, { codes: ReadonlySet<string>; described: string }> = new Map([
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

/**
 * Where a postcode in the wrong format is refused, and how the message names the format. Everywhere
 * else a wrong format is only a warning: a library's pattern can lag a postal reform, and refusing
 * there would turn away deliverable orders. The formats themselves are postcode-validator's.
 */
export const POSTCODE_FORMAT_REFUSED: ReadonlyMap<string, string> = new Map([
	["US", "a US ZIP code: 12345 or 12345-6789"],
	["CA", "a Canadian postal code such as K1A 0B1"],
	["GB", "a UK postcode such as SW1A 1AA"],
]);

/**
 * Whether `zip` has `country`'s postcode format, or null where the library knows none. The formats
 * are postcode-validator's (a maintained table of about 180 countries); the postcode is matched
 * upper-cased, since some of its patterns are written for capitals only.
 */
export function postcodeFitsCountry(zip: string, country: string): boolean | null {
	if (!postcodeValidatorExistsForCountry(country)) return null;
	return postcodeValidator(zip.toUpperCase(), country);
}
