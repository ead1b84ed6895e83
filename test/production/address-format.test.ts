import { describe, expect, it } from "vitest";
import { postalLines } from "../../src/addresses/postal-lines.ts";
import type { ShipTo } from "../../src/addresses/schema.ts";
import { putProfile } from "../branding/branding-helpers.ts";
import { consoleRequest, htmlOf, signedInOperator } from "../console/console-helpers.ts";
import { api } from "../helpers.ts";
import { createOrder, orderBody, partnerWithFile, SHIP_TO } from "../orders/order-helpers.ts";

/** A German ship-to with an umlaut and an ß, which must print as written. */
const BERLIN: ShipTo = {
	name: "Jürgen Müller",
	address1: "Torstraße 5",
	address2: "Hinterhaus, 3. OG",
	city: "Berlin",
	state: "Berlin",
	zip: "10119",
	country: "DE",
};

describe("postalLines: each country's own format", () => {
	it("DE: postcode before the city, no state", () => {
		expect(postalLines(BERLIN)).toEqual([
			"Jürgen Müller",
			"Torstraße 5",
			"Hinterhaus, 3. OG",
			"10119 Berlin",
			"Germany",
		]);
	});

	it("US: city, state code and ZIP on one line", () => {
		expect(postalLines(SHIP_TO)).toEqual(["Ada Lovelace", "12 Harbour Street", "Portland, ME 04101", "United States"]);
	});

	it("GB: the post town and the postcode each on their own line, the county left off", () => {
		const address = {
			name: "Grace Hopper",
			address1: "9 Northern Way",
			city: "Leeds",
			state: "West Yorkshire",
			zip: "LS1 4AP",
			country: "GB",
		};
		expect(postalLines(address)).toEqual(["Grace Hopper", "9 Northern Way", "Leeds", "LS1 4AP", "United Kingdom"]);
	});

	it("FR: postcode before the city, accents kept", () => {
		const address = { name: "Zoé Lefèvre", address1: "8 rue de Rivoli", city: "Paris", zip: "75004", country: "FR" };
		expect(postalLines(address)).toEqual(["Zoé Lefèvre", "8 rue de Rivoli", "75004 Paris", "France"]);
	});

	it("JP in Japanese: from the 〒 postcode and prefecture down to the recipient, the city above the street", () => {
		const address = {
			name: "山田太郎",
			address1: "神宮前1-2-3",
			address2: "ハイツ原宿101",
			city: "渋谷区",
			state: "東京都",
			zip: "150-0001",
			country: "JP",
		};
		expect(postalLines(address)).toEqual([
			"〒150-0001",
			"東京都",
			"渋谷区",
			"神宮前1-2-3",
			"ハイツ原宿101",
			"山田太郎",
			"Japan",
		]);
	});

	it("JP in Latin letters: from the recipient down, the city and prefecture after the street", () => {
		const address = {
			name: "Taro Yamada",
			address1: "1-2-3 Jingumae",
			city: "Shibuya-ku",
			state: "Tokyo",
			zip: "150-0001",
			country: "JP",
		};
		expect(postalLines(address)).toEqual(["Taro Yamada", "1-2-3 Jingumae", "Shibuya-ku, Tokyo", "150-0001", "Japan"]);
	});

	it("IE without an Eircode: the county on its own line and no empty postcode line", () => {
		const address = {
			name: "Nora Barnacle",
			address1: "1 Grafton Street",
			city: "Dublin 2",
			state: "Co. Dublin",
			country: "IE",
		};
		expect(postalLines(address)).toEqual(["Nora Barnacle", "1 Grafton Street", "Dublin 2", "Co. Dublin", "Ireland"]);
	});

	it("CA, AU, NL, IT and BR: each in its own order and punctuation", () => {
		const base = { name: "Sam Lee", address1: "1 Main Street" };
		expect(postalLines({ ...base, city: "Toronto", state: "ON", zip: "M5V 2T6", country: "CA" })).toEqual([
			"Sam Lee",
			"1 Main Street",
			"Toronto ON M5V 2T6",
			"Canada",
		]);
		expect(postalLines({ ...base, city: "Sydney", state: "NSW", zip: "2000", country: "AU" })).toEqual([
			"Sam Lee",
			"1 Main Street",
			"Sydney NSW 2000",
			"Australia",
		]);
		expect(postalLines({ ...base, city: "Amsterdam", zip: "1012 LG", country: "NL" })).toEqual([
			"Sam Lee",
			"1 Main Street",
			"1012 LG Amsterdam",
			"Netherlands",
		]);
		expect(postalLines({ ...base, city: "Roma", state: "RM", zip: "00184", country: "IT" })).toEqual([
			"Sam Lee",
			"1 Main Street",
			"00184 Roma RM",
			"Italy",
		]);
		expect(postalLines({ ...base, city: "São Paulo", state: "SP", zip: "01310-100", country: "BR" })).toEqual([
			"Sam Lee",
			"1 Main Street",
			"São Paulo-SP",
			"01310-100",
			"Brazil",
		]);
	});

	it("a format's literal text stays with the street line it belongs to when there are two street lines", () => {
		// Japan's Latin format writes ", prefecture" after the street: it follows the last street line.
		const address = {
			name: "Taro Yamada",
			address1: "1-2-3 Jingumae",
			address2: "Harajuku Heights 101",
			city: "Shibuya-ku",
			state: "Tokyo",
			zip: "150-0001",
			country: "JP",
		};
		expect(postalLines(address)).toEqual([
			"Taro Yamada",
			"1-2-3 Jingumae",
			"Harajuku Heights 101",
			"Shibuya-ku, Tokyo",
			"150-0001",
			"Japan",
		]);
	});

	it("dollar signs in a field print as written, never as replacement patterns", () => {
		const address = { ...SHIP_TO, name: "Cash $& Carry $1", city: "Port$$land" };
		expect(postalLines(address)).toEqual([
			"Cash $& Carry $1",
			"12 Harbour Street",
			"Port$$land, ME 04101",
			"United States",
		]);
	});

	it("SG: the format's own SINGAPORE line carries the postcode, and the city is not printed twice", () => {
		const address = {
			name: "Tan Wei Ling",
			address1: "1 Raffles Place",
			city: "Singapore",
			zip: "048616",
			country: "SG",
		};
		expect(postalLines(address)).toEqual(["Tan Wei Ling", "1 Raffles Place", "SINGAPORE 048616", "Singapore"]);
	});

	it("a city the format has no place for, and does not name, is kept as a street line", () => {
		const address = {
			name: "Layla Haddad",
			address1: "Villa 12, Street 5",
			city: "Al Barsha",
			state: "Dubai",
			country: "AE",
		};
		expect(postalLines(address)).toEqual([
			"Layla Haddad",
			"Villa 12, Street 5",
			"Al Barsha",
			"Dubai",
			"United Arab Emirates",
		]);
	});
});

describe("the German order on the floor", () => {
	const GERMAN_SHIP_TO = {
		name: "Jürgen Müller",
		address1: "Torstraße 5",
		city: "Berlin",
		zip: "10119",
		country: "DE",
	};
	const GERMAN_RETURN_ADDRESS = {
		name: "Galerie Nord Retouren",
		address1: "Speicherstadt 2",
		city: "Hamburg",
		zip: "20457",
		country: "DE",
	};

	async function germanOrder() {
		const { key, file, opsKey } = await partnerWithFile({ name: "Galerie Nord", opsKey: true });
		await putProfile(key, { brand_name: "Galerie Nord", return_address: GERMAN_RETURN_ADDRESS });
		const order = await createOrder(key, orderBody(file, { ship_to: GERMAN_SHIP_TO }));
		return { opsKey, order };
	}

	it("the packing slip prints 10119 Berlin, never Berlin, 10119, and the sender as 20457 Hamburg", async () => {
		const { opsKey, order } = await germanOrder();
		const response = await api(`/v1/ops/orders/${order.id}/packing-slip`, { key: opsKey });
		expect(response.status).toBe(200);
		const html = await response.text();
		expect(html).toContain("<address>Jürgen Müller<br/>Torstraße 5<br/>10119 Berlin<br/>Germany</address>");
		expect(html).toContain(
			"<address>Galerie Nord Retouren<br/>Speicherstadt 2<br/>20457 Hamburg<br/>Germany</address>",
		);
		expect(html).not.toContain("Berlin, 10119");
	});

	it("the shipping label's lines are the German format's, for the ship-to and the return address", async () => {
		const { opsKey, order } = await germanOrder();
		const response = await api(`/v1/ops/orders/${order.id}`, { key: opsKey });
		expect(response.status).toBe(200);
		const view = (await response.json()) as {
			shipping_label: { ship_to_lines: string[]; return_address_lines: string[] };
		};
		expect(view.shipping_label.ship_to_lines).toEqual(["Jürgen Müller", "Torstraße 5", "10119 Berlin", "Germany"]);
		expect(view.shipping_label.return_address_lines).toEqual([
			"Galerie Nord Retouren",
			"Speicherstadt 2",
			"20457 Hamburg",
			"Germany",
		]);
	});

	it("the console's order page shows the ship-to and the label's return address in the German format", async () => {
		const { order } = await germanOrder();
		const operator = await signedInOperator();
		const html = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		expect(html).toContain("<address>Jürgen Müller<br/>Torstraße 5<br/>10119 Berlin<br/>Germany</address>");
		expect(html).toContain(
			"<address>Galerie Nord Retouren<br/>Speicherstadt 2<br/>20457 Hamburg<br/>Germany</address>",
		);
	});
});
