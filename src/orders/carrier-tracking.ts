/**
 * The carriers whose tracking page follows from the tracking number, and the one rule for a ship's
 * tracking: a URL given is kept (it was validated as a web URL), a URL left out is built from the
 * carrier's template, and a carrier without a template needs the URL. The ops API's ship, the
 * console's ship form and the shipments import all go through `resolveTracking`.
 */
import type { Tracking } from "./state-machine.ts";

/** A carrier the service knows: its name as shown, the names it is written as, and its tracking page. */
export type KnownCarrier = { name: string; aliases: readonly string[]; urlOf: (number: string) => string };

/** Each carrier's public tracking page, with the number URL-encoded into it. */
export const KNOWN_CARRIERS: readonly KnownCarrier[] = [
	{
		name: "UPS",
		aliases: ["ups", "united parcel service"],
		urlOf: (number) => `https://www.ups.com/track?tracknum=${encodeURIComponent(number)}`,
	},
	{
		name: "USPS",
		aliases: ["usps", "us postal service", "united states postal service"],
		urlOf: (number) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${encodeURIComponent(number)}`,
	},
	{
		name: "FedEx",
		aliases: ["fedex", "federal express"],
		urlOf: (number) => `https://www.fedex.com/fedextrack/?trknbr=${encodeURIComponent(number)}`,
	},
	{
		name: "DHL",
		aliases: ["dhl", "dhl express"],
		urlOf: (number) =>
			`https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=${encodeURIComponent(number)}`,
	},
];

/** The known carriers' names, for messages and docs: "UPS, USPS, FedEx, DHL". */
export const KNOWN_CARRIER_NAMES = KNOWN_CARRIERS.map((carrier) => carrier.name).join(", ");

/** A carrier's name compared as people write it: case, dots and extra spaces aside ("U.S. Postal Service"). */
function carrierKey(name: string): string {
	return name.toLowerCase().replaceAll(".", "").replace(/\s+/g, " ").trim();
}

/** The carrier `name` stands for, or null when it is not one whose tracking page is known. */
export function knownCarrier(name: string): KnownCarrier | null {
	const key = carrierKey(name);
	return KNOWN_CARRIERS.find((carrier) => carrier.aliases.includes(key)) ?? null;
}

/** The tracking page of `number` at `carrier`, or null when the carrier's page does not follow from the number. */
export function trackingUrlFor(carrier: string, number: string): string | null {
	return knownCarrier(carrier)?.urlOf(number) ?? null;
}

/** Why a ship without a URL is refused: the message names the carriers whose URL may be left out. */
export function missingUrlMessage(carrier: string): string {
	const which = carrier.trim() === "" ? "without a carrier" : `for carrier "${carrier}"`;
	return `is needed ${which}: only ${KNOWN_CARRIER_NAMES} tracking URLs follow from the number`;
}

/** A ship's tracking, its URL given or built from the carrier's template; or why it has no URL. */
export function resolveTracking(fields: {
	carrier: string;
	number: string;
	url?: string | undefined;
}): { ok: true; tracking: Tracking } | { ok: false; message: string } {
	const { carrier, number } = fields;
	const url = fields.url ?? trackingUrlFor(carrier, number);
	if (url === null) return { ok: false, message: missingUrlMessage(carrier) };
	return { ok: true, tracking: { carrier, number, url } };
}
