import { describe, expect, it } from "vitest";
import { normalizedShipTo } from "../../src/addresses/normalize.ts";
import { postcodeFitsCountry } from "../../src/addresses/regions.ts";
import { type ShipTo, ShipToSchema } from "../../src/addresses/schema.ts";
import { isPoBox, shipToWarnings } from "../../src/addresses/ship-to-warnings.ts";
import { zipMatchesState } from "../../src/addresses/us-zip-prefixes.ts";
import { SHIP_TO } from "../orders/order-helpers.ts";

const PORTLAND: ShipTo = SHIP_TO;

function codes(shipTo: ShipTo, method: string | null = "standard"): string[] {
	return shipToWarnings(shipTo, method).map((warning) => `${warning.field} ${warning.code}`);
}

describe("shipToWarnings", () => {
	it("gives none for a plain US address", () => {
		expect(shipToWarnings(PORTLAND, "express")).toEqual([]);
	});

	it("warns of an address line over 35 characters, counting an emoji as one", () => {
		expect(codes({ ...PORTLAND, address1: "a".repeat(35) })).toEqual([]);
		expect(codes({ ...PORTLAND, address1: "a".repeat(36) })).toEqual(["ship_to.address1 address_line_too_long"]);
		expect(codes({ ...PORTLAND, address2: `${"a".repeat(34)}🖼` })).toEqual([]);
		expect(codes({ ...PORTLAND, address2: `${"a".repeat(35)}🖼` })).toEqual(["ship_to.address2 address_line_too_long"]);
	});

	it("judges the line as normalised: runs of spaces count as one", () => {
		expect(codes({ ...PORTLAND, address1: `12${" ".repeat(30)}Harbour Street` })).toEqual([]);
	});

	it("warns of a PO box only with express or freight", () => {
		const box = { ...PORTLAND, address1: "PO Box 77" };
		expect(codes(box, "express")).toEqual(["ship_to.address1 po_box_not_served"]);
		expect(codes(box, "freight")).toEqual(["ship_to.address1 po_box_not_served"]);
		expect(codes(box, "standard")).toEqual([]);
		expect(codes(box, "budget")).toEqual([]);
		expect(codes(box, null)).toEqual([]);
	});

	it("warns of a ZIP code outside the state's prefixes, and not of one inside them", () => {
		expect(codes({ ...PORTLAND, zip: "10118" })).toEqual(["ship_to.zip postcode_state_mismatch"]);
		expect(codes({ ...PORTLAND, state: "me", zip: "04101-1234" })).toEqual([]);
	});

	it("warns of a postcode outside the country's format where that is not refused", () => {
		const berlin: ShipTo = {
			name: "M",
			address1: "Unter den Linden 6",
			city: "Berlin",
			zip: "10117",
			country: "DE",
			phone: "+49 30 555",
		};
		expect(codes(berlin)).toEqual([]);
		expect(codes({ ...berlin, zip: "D-10117" })).toEqual(["ship_to.zip postcode_format_unrecognized"]);
		// Amsterdam's letters are checked as capitals, whatever case they were written in.
		expect(codes({ ...berlin, country: "NL", zip: "1011 ab" })).toEqual([]);
		// A country the library knows no format for gets no postcode warning.
		expect(codes({ ...berlin, country: "WS", zip: "anything" })).toEqual([]);
	});

	it("warns of a missing phone outside the US only", () => {
		const toronto: ShipTo = {
			name: "G",
			address1: "1 Front St W",
			city: "Toronto",
			state: "ON",
			zip: "M5J 2X5",
			country: "CA",
		};
		expect(codes(toronto)).toEqual(["ship_to.phone phone_missing"]);
		expect(codes({ ...toronto, phone: "+1 416 555 0100" })).toEqual([]);
		expect(codes(PORTLAND)).toEqual([]);
	});
});

describe("isPoBox", () => {
	it("recognises the common spellings of a post office box", () => {
		for (const line of [
			"PO Box 12",
			"P.O. Box 12",
			"p.o.box 12",
			"P O Box 12",
			"POBox 12",
			"PO Bx 12",
			"P.O.B. 12",
			"Post Office Box 12",
			"Postfach 10 11 12",
			"Postbus 1234",
			"Postboks 55",
			"Boîte postale 40",
			"Case postale 12",
			"Apartado de Correos 7",
			"Caixa Postal 123",
			"Casilla de correo 45",
		]) {
			expect(isPoBox(line), line).toBe(true);
		}
	});

	it("does not take street names or words that merely contain the letters", () => {
		for (const line of [
			"12 Poboy Street",
			"Postfachweg 3",
			"Apo Boxwood Road",
			"1 Post Office Square",
			"Boxhagener Str. 5",
			"Poe Street",
		]) {
			expect(isPoBox(line), line).toBe(false);
		}
	});
});

describe("zipMatchesState", () => {
	it("matches each state's own prefixes, the odd ones included", () => {
		const cases: [string, string][] = [
			["10118", "NY"],
			["00501", "NY"],
			["06390", "NY"],
			["06103", "CT"],
			["20500", "DC"],
			["20166", "VA"],
			["73301", "TX"],
			["88510", "TX"],
			["00901", "PR"],
			["96910", "GU"],
			["96799", "AS"],
			["99501", "AK"],
			["09012", "AE"],
			["34002", "AA"],
			["96201", "AP"],
		];
		for (const [zip, state] of cases) expect(zipMatchesState(zip, state), `${zip} ${state}`).toBe(true);
	});

	it("says false for another state's ZIP code, and null where it cannot say", () => {
		expect(zipMatchesState("90210", "NY")).toBe(false);
		expect(zipMatchesState("10118", "NJ")).toBe(false);
		expect(zipMatchesState("10118", "UM")).toBeNull();
		expect(zipMatchesState("1011", "NY")).toBeNull();
	});
});

describe("postcodeFitsCountry", () => {
	it("uses the library's format for the country, null where it has none", () => {
		expect(postcodeFitsCountry("100-0001", "JP")).toBe(true);
		expect(postcodeFitsCountry("75001", "FR")).toBe(true);
		expect(postcodeFitsCountry("7500", "FR")).toBe(false);
		expect(postcodeFitsCountry("anything", "WS")).toBeNull();
	});
});

describe("normalizedShipTo", () => {
	it("trims, collapses spaces, upper-cases a US state and ZIP and leaves other countries' case alone", () => {
		expect(normalizedShipTo({ ...PORTLAND, name: " Ada  Lovelace ", state: "me" })).toEqual({
			...PORTLAND,
			name: "Ada Lovelace",
		});
		const amsterdam: ShipTo = {
			name: "A",
			address1: "Dam  1",
			city: "amsterdam",
			zip: "1012 js",
			country: "NL",
			state: "Noord-Holland",
		};
		expect(normalizedShipTo(amsterdam)).toEqual({ ...amsterdam, address1: "Dam 1" });
	});

	it("gives an address that creation takes again, whatever spacing and case it had", () => {
		const messy: ShipTo = {
			...PORTLAND,
			name: "  Ada   Lovelace",
			address1: "12  Harbour   Street ",
			state: "me",
			zip: " 04101 ",
		};
		expect(ShipToSchema.safeParse(normalizedShipTo(messy)).success).toBe(true);
	});

	it("gives a Canadian postcode capitals and its space", () => {
		const ottawa: ShipTo = {
			name: "G",
			address1: "111 Wellington St",
			city: "Ottawa",
			state: "on",
			zip: "k1a0a9",
			country: "CA",
		};
		expect(normalizedShipTo(ottawa)).toMatchObject({ state: "ON", zip: "K1A 0A9" });
	});
});
