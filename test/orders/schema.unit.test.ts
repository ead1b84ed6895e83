import { describe, expect, it } from "vitest";
import { COUNTRIES_WITHOUT_POSTCODES, COUNTRY_CODES } from "../../src/addresses/regions.ts";
import type { ApiError } from "../../src/http/errors.ts";
import { validationErrorFrom } from "../../src/http/validation.ts";
import { CreateOrderBody, type CreateOrderInput, canonicalOrderRequest } from "../../src/orders/schema.ts";

type Json = Record<string, unknown>;

const VALID_SHIP_TO: Json = {
	name: "Ada Lovelace",
	address1: "350 Fifth Avenue",
	city: "New York",
	state: "NY",
	zip: "10118",
	country: "US",
};
const VALID_ITEM: Json = { print_file_id: "pf_7cQm2x", width_in: 16, height_in: 20 };

/**
 * A valid create request with some fields replaced. An `undefined` value drops the field: the body goes
 * through JSON, as it would over the wire.
 */
function orderWith(changes: { top?: Json; shipTo?: Json; item?: Json; items?: unknown[] } = {}): Json {
	const body = {
		external_id: "PO-1001",
		ship_to: { ...VALID_SHIP_TO, ...changes.shipTo },
		items: changes.items ?? [{ ...VALID_ITEM, ...changes.item }],
		...changes.top,
	};
	return JSON.parse(JSON.stringify(body)) as Json;
}

/** A ship_to in `country` with every other field valid; `undefined` drops a field. */
function shipToIn(country: string, changes: Json = {}): Json {
	return { ...VALID_SHIP_TO, state: undefined, zip: undefined, country, ...changes };
}

function accepted(body: unknown): CreateOrderInput {
	const result = CreateOrderBody.safeParse(body);
	if (!result.success) throw new Error(`expected the body to pass, got ${JSON.stringify(result.error.issues)}`);
	return result.data;
}

function rejected(body: unknown): ApiError {
	const result = CreateOrderBody.safeParse(body);
	if (result.success) throw new Error(`expected the body to fail: ${JSON.stringify(body)}`);
	return validationErrorFrom(result.error, body);
}

/** A missing required field: 400 bad_request naming it. */
function expectMissing(body: unknown, field: string): void {
	const error = rejected(body);
	expect({ type: error.type, status: error.status, field: error.field }).toEqual({
		type: "bad_request",
		status: 400,
		field,
	});
}

/** A field present but breaking a rule: 422 validation_error naming it. */
function expectInvalid(body: unknown, field: string): ApiError {
	const error = rejected(body);
	expect({ type: error.type, status: error.status, field: error.field }).toEqual({
		type: "validation_error",
		status: 422,
		field,
	});
	return error;
}

describe("CreateOrderBody", () => {
	it("accepts a minimal order and fills in the defaults", () => {
		const order = accepted(orderWith());
		expect(order).toEqual({
			external_id: "PO-1001",
			ship_to: VALID_SHIP_TO,
			items: [{ print_file_id: "pf_7cQm2x", width_in: 16, height_in: 20, quantity: 1 }],
		});
	});

	it("accepts a full order with every optional field", () => {
		const body = orderWith({
			top: { callback_url: "https://partner.example.com/hooks/orders" },
			shipTo: { address2: "Suite 3200", phone: "+1 (212) 555-0100", email: "ada@example.com" },
			item: { frame: "oak-slim", mat: "white-2in", quantity: 3 },
		});
		expect(accepted(body)).toEqual(body);
	});

	it("a missing external_id, ship_to or items is a 400 naming it", () => {
		expectMissing(orderWith({ top: { external_id: undefined } }), "external_id");
		expectMissing(orderWith({ top: { ship_to: undefined } }), "ship_to");
		expectMissing(orderWith({ top: { items: undefined } }), "items");
	});

	it("a body that is not an object is a 400 without a field", () => {
		for (const body of [null, [], "order", 42]) {
			const error = rejected(body);
			expect(error.type).toBe("bad_request");
			expect(error.field).toBeUndefined();
		}
	});
});

describe("external_id", () => {
	it("takes 1 to 128 characters, including non-ASCII, exactly as sent", () => {
		expect(accepted(orderWith({ top: { external_id: "x" } })).external_id).toBe("x");
		expect(accepted(orderWith({ top: { external_id: "x".repeat(128) } })).external_id).toHaveLength(128);
		expect(accepted(orderWith({ top: { external_id: "Bestellung-Ä/42 " } })).external_id).toBe("Bestellung-Ä/42 ");
	});

	it("refuses an empty or over-long id with a 422", () => {
		expectInvalid(orderWith({ top: { external_id: "" } }), "external_id");
		expectInvalid(orderWith({ top: { external_id: "x".repeat(129) } }), "external_id");
	});

	it("refuses control characters, C0, DEL and C1 alike", () => {
		for (const external_id of ["PO\n1001", "PO\u00001001", "PO\u007f", "PO\u0085"]) {
			const error = expectInvalid(orderWith({ top: { external_id } }), "external_id");
			expect(error.message).toContain("control characters");
		}
	});

	it("refuses a number with a 422", () => {
		expectInvalid(orderWith({ top: { external_id: 1001 } }), "external_id");
	});
});

describe("callback_url", () => {
	it("is optional", () => {
		expect(accepted(orderWith()).callback_url).toBeUndefined();
	});

	it("takes an absolute URL up to 2048 characters; host and scheme are judged later, by outboundUrlProblem", () => {
		const long = `https://example.com/${"a".repeat(2048 - "https://example.com/".length)}`;
		expect(long).toHaveLength(2048);
		for (const callback_url of ["https://example.com/hooks", long, "http://localhost:8787/hook"]) {
			expect(accepted(orderWith({ top: { callback_url } })).callback_url).toBe(callback_url);
		}
	});

	it("refuses a URL over 2048 characters", () => {
		const tooLong = `https://example.com/${"a".repeat(2049 - "https://example.com/".length)}`;
		expectInvalid(orderWith({ top: { callback_url: tooLong } }), "callback_url");
	});

	it("refuses a relative URL, a bare host, whitespace around it and a non-string", () => {
		for (const callback_url of ["/hooks", "example.com/hooks", "", " https://example.com/hooks", 7]) {
			expectInvalid(orderWith({ top: { callback_url } }), "callback_url");
		}
	});
});

describe("ship_to: required fields and lengths", () => {
	it("each required field missing is a 400 naming it", () => {
		for (const field of ["name", "address1", "city", "country"]) {
			expectMissing(orderWith({ shipTo: { [field]: undefined } }), `ship_to.${field}`);
		}
	});

	it("address2, phone and email are optional", () => {
		const shipTo = accepted(orderWith()).ship_to;
		expect(shipTo.address2).toBeUndefined();
		expect(shipTo.phone).toBeUndefined();
		expect(shipTo.email).toBeUndefined();
	});

	it("takes each field up to its length bound and refuses one character more", () => {
		// DE: no subdivision rule and a free-form postcode, so state and zip test only their lengths.
		const bounds: [string, number][] = [
			["name", 100],
			["address1", 200],
			["address2", 200],
			["city", 100],
			["state", 100],
			["zip", 20],
		];
		for (const [field, max] of bounds) {
			const atBound = accepted(orderWith({ shipTo: shipToIn("DE", { zip: "10115", [field]: "x".repeat(max) }) }));
			expect(Reflect.get(atBound.ship_to, field)).toHaveLength(max);
			expectInvalid(
				orderWith({ shipTo: shipToIn("DE", { zip: "10115", [field]: "x".repeat(max + 1) }) }),
				`ship_to.${field}`,
			);
		}
	});

	it("trims text fields, counting the length after trimming", () => {
		const shipTo = accepted(
			orderWith({ shipTo: { name: `  ${"n".repeat(100)}  `, city: "\tNew York\n", address2: " Suite 1 " } }),
		).ship_to;
		expect(shipTo.name).toBe("n".repeat(100));
		expect(shipTo.city).toBe("New York");
		expect(shipTo.address2).toBe("Suite 1");
	});

	it("refuses an empty or all-blank field that is present", () => {
		for (const field of ["name", "address1", "address2", "city", "state", "zip"]) {
			expectInvalid(orderWith({ shipTo: { [field]: "   " } }), `ship_to.${field}`);
		}
	});

	it("refuses control characters inside a field", () => {
		for (const field of ["name", "address1", "address2", "city"]) {
			expectInvalid(orderWith({ shipTo: { [field]: "Line\u0007Bell" } }), `ship_to.${field}`);
		}
		expectInvalid(orderWith({ shipTo: shipToIn("DE", { zip: "10115", state: "Bay\u0000ern" }) }), "ship_to.state");
		expectInvalid(orderWith({ shipTo: shipToIn("DE", { zip: "10\n115" }) }), "ship_to.zip");
	});

	it("refuses a field that is not a string with a 422", () => {
		expectInvalid(orderWith({ shipTo: { name: 42 } }), "ship_to.name");
		expectInvalid(orderWith({ shipTo: { city: null } }), "ship_to.city");
	});
});

describe("ship_to.country", () => {
	it("holds all 249 assigned ISO 3166-1 alpha-2 codes, each once", () => {
		expect(COUNTRY_CODES).toHaveLength(249);
		expect(new Set(COUNTRY_CODES).size).toBe(249);
		for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
		for (const code of COUNTRIES_WITHOUT_POSTCODES) expect(COUNTRY_CODES).toContain(code);
	});

	it("accepts every assigned code", () => {
		const states: Json = { US: "NY", CA: "ON", AU: "NSW" };
		const zips: Json = { US: "10118", CA: "K1A 0B1", GB: "SW1A 1AA" };
		for (const country of COUNTRY_CODES) {
			const shipTo = shipToIn(country, { state: states[country], zip: zips[country] ?? "12345" });
			expect(accepted(orderWith({ shipTo })).ship_to.country).toBe(country);
		}
	});

	it("accepts lowercase and surrounding blanks, and stores the code uppercase", () => {
		expect(accepted(orderWith({ shipTo: { country: "us" } })).ship_to.country).toBe("US");
		expect(accepted(orderWith({ shipTo: shipToIn(" gb ", { zip: "SW1A 1AA" }) })).ship_to.country).toBe("GB");
	});

	it("refuses an unknown, user-assigned, reserved or alpha-3 code with a 422", () => {
		for (const country of ["ZZ", "XK", "UK", "EU", "USA", "U", "", "12"]) {
			const error = expectInvalid(orderWith({ shipTo: shipToIn(country, { zip: "12345" }) }), "ship_to.country");
			expect(error.message).toContain("ISO 3166-1 alpha-2");
		}
	});

	it("an unknown country is reported as such, not as a missing zip or state", () => {
		expectInvalid(orderWith({ shipTo: shipToIn("XX") }), "ship_to.country");
	});
});

describe("ship_to.state", () => {
	it("is required for US, CA and AU: a 400 naming it", () => {
		expectMissing(orderWith({ shipTo: shipToIn("US", { zip: "10118" }) }), "ship_to.state");
		expectMissing(orderWith({ shipTo: shipToIn("CA", { zip: "K1A 0B1" }) }), "ship_to.state");
		expectMissing(orderWith({ shipTo: shipToIn("AU", { zip: "2000" }) }), "ship_to.state");
	});

	it("a missing state wins over a malformed zip: the 400 comes first", () => {
		expectMissing(orderWith({ shipTo: shipToIn("US", { zip: "bad" }) }), "ship_to.state");
	});

	it("accepts the subdivision codes of US, CA and AU, in any case, and stores them uppercase", () => {
		const cases: [string, string, string, string][] = [
			["US", "10118", "ny", "NY"],
			["US", "20001", "DC", "DC"],
			["US", "00901", "pr", "PR"],
			["US", "96799", "AS", "AS"],
			["US", "09001", "ae", "AE"],
			["US", "96898", "UM", "UM"],
			["CA", "H2X 1Y4", "qc", "QC"],
			["CA", "X0A 0H0", "NU", "NU"],
			["AU", "2000", "nsw", "NSW"],
			["AU", "2600", "Act", "ACT"],
			["AU", "0800", "NT", "NT"],
		];
		for (const [country, zip, state, stored] of cases) {
			expect(accepted(orderWith({ shipTo: shipToIn(country, { zip, state }) })).ship_to.state).toBe(stored);
		}
	});

	it("refuses a code that is not a subdivision of that country, or a full name, with a 422", () => {
		const cases: [string, string, string][] = [
			["US", "10118", "XX"],
			["US", "10118", "New York"],
			["US", "10118", "ON"],
			["CA", "K1A 0B1", "NY"],
			["CA", "K1A 0B1", "PQ"],
			["AU", "2000", "NY"],
			["AU", "2000", "NS"],
		];
		for (const [country, zip, state] of cases) {
			const error = expectInvalid(orderWith({ shipTo: shipToIn(country, { zip, state }) }), "ship_to.state");
			expect(error.message).toMatch(/must be an? .* code/);
		}
	});

	it("is optional elsewhere, and free text there, kept as written", () => {
		expect(accepted(orderWith({ shipTo: shipToIn("DE", { zip: "10115" }) })).ship_to.state).toBeUndefined();
		expect(accepted(orderWith({ shipTo: shipToIn("DE", { zip: "80331", state: "Bayern" }) })).ship_to.state).toBe(
			"Bayern",
		);
		expect(
			accepted(orderWith({ shipTo: shipToIn("FR", { zip: "75001", state: "Île-de-France" }) })).ship_to.state,
		).toBe("Île-de-France");
	});
});

describe("ship_to.zip", () => {
	it("is required where postcodes are used: a 400 naming it", () => {
		const cases: [string, string | undefined][] = [
			["US", "NY"],
			["CA", "ON"],
			["GB", undefined],
			["DE", undefined],
			["JP", undefined],
			["AU", "NSW"],
		];
		for (const [country, state] of cases) {
			expectMissing(orderWith({ shipTo: shipToIn(country, { state }) }), "ship_to.zip");
		}
	});

	it("is optional in countries without postcodes, Ireland included", () => {
		for (const country of ["AE", "HK", "IE", "QA", "JM", "BO", "MO"]) {
			expect(accepted(orderWith({ shipTo: shipToIn(country) })).ship_to.zip).toBeUndefined();
		}
		expect(accepted(orderWith({ shipTo: shipToIn("IE", { zip: "D02 X285" }) })).ship_to.zip).toBe("D02 X285");
	});

	it("takes a US ZIP or ZIP+4", () => {
		for (const zip of ["10118", "10118-0110", " 02134 "]) {
			expect(accepted(orderWith({ shipTo: { zip } })).ship_to.zip).toBe(zip.trim());
		}
	});

	it("refuses a malformed US ZIP with a 422", () => {
		for (const zip of ["1011", "101180", "10118-011", "10118 0110", "ABCDE", "10118-"]) {
			const error = expectInvalid(orderWith({ shipTo: { zip } }), "ship_to.zip");
			expect(error.message).toContain("12345-6789");
		}
	});

	it("takes a Canadian postal code, space optional, any case", () => {
		for (const zip of ["K1A 0B1", "k1a0b1", "M5V 3L9", "v6b 4y8", "X0A 0H0"]) {
			expect(accepted(orderWith({ shipTo: shipToIn("CA", { state: "ON", zip }) })).ship_to.zip).toBe(zip);
		}
	});

	it("refuses a malformed Canadian postal code, or one with letters Canada Post never uses", () => {
		for (const zip of ["K1A-0B1", "K1A 0B", "123 456", "KKA 0B1", "D1A 0B1", "W1A 0B1", "K1O 0B1", "K1A 0B1 X"]) {
			expectInvalid(orderWith({ shipTo: shipToIn("CA", { state: "ON", zip }) }), "ship_to.zip");
		}
	});

	it("takes every shape of UK postcode, space optional, any case", () => {
		for (const zip of ["SW1A 1AA", "sw1a1aa", "EC1A 1BB", "W1A 0AX", "M1 1AE", "B33 8TH", "CR2 6XH", "DN55 1PT"]) {
			expect(accepted(orderWith({ shipTo: shipToIn("GB", { zip }) })).ship_to.zip).toBe(zip);
		}
	});

	it("refuses a malformed UK postcode, and GIR 0AA, which the postcode library does not list", () => {
		for (const zip of ["SW1A", "12345", "SW1A 1A", "SW1A  1AA", "SW1A-1AA", "GIR 0AA"]) {
			const error = expectInvalid(orderWith({ shipTo: shipToIn("GB", { zip }) }), "ship_to.zip");
			expect(error.message).toContain("UK postcode");
		}
	});

	it("takes other countries' postcodes as free text (a wrong format there is a warning, not a refusal)", () => {
		const cases: [string, string][] = [
			["DE", "10115"],
			["JP", "100-0001"],
			["NL", "1011 AB"],
			["BR", "01310-100"],
			["DE", "1011"],
			["JP", "1000001"],
		];
		for (const [country, zip] of cases) {
			expect(accepted(orderWith({ shipTo: shipToIn(country, { zip }) })).ship_to.zip).toBe(zip);
		}
	});
});

describe("ship_to.email and ship_to.phone", () => {
	it("takes a plausible email address, trimmed, up to 254 characters", () => {
		expect(accepted(orderWith({ shipTo: { email: " Ada.Lovelace+prints@Example.co.uk " } })).ship_to.email).toBe(
			"Ada.Lovelace+prints@Example.co.uk",
		);
		const longest = `${"a".repeat(64)}@${"b".repeat(185)}.com`;
		expect(longest).toHaveLength(254);
		expect(accepted(orderWith({ shipTo: { email: longest } })).ship_to.email).toBe(longest);
	});

	it("refuses an implausible or over-long email address", () => {
		const tooLong = `${"a".repeat(64)}@${"b".repeat(186)}.com`;
		for (const email of ["ada", "ada@", "@example.com", "ada@example", "ada lovelace@example.com", "", tooLong]) {
			expectInvalid(orderWith({ shipTo: { email } }), "ship_to.email");
		}
	});

	it("takes 5 to 30 digits, spaces and + - ( ) .", () => {
		for (const phone of ["+1 (212) 555-0100", "020 7946 0958", "12345", "+44.20.7946.0958", "1".repeat(30)]) {
			expect(accepted(orderWith({ shipTo: { phone } })).ship_to.phone).toBe(phone);
		}
	});

	it("refuses a phone number too short, too long, with other characters or without digits", () => {
		for (const phone of ["1234", "1".repeat(31), "call me", "+1 212 555 0100 ext 5", "-----", ""]) {
			expectInvalid(orderWith({ shipTo: { phone } }), "ship_to.phone");
		}
	});
});

describe("items", () => {
	it("takes 1 to 50 items", () => {
		expect(accepted(orderWith({ items: Array.from({ length: 50 }, () => VALID_ITEM) })).items).toHaveLength(50);
	});

	it("refuses no items or more than 50 with a 422 on items", () => {
		expectInvalid(orderWith({ items: [] }), "items");
		expectInvalid(orderWith({ items: Array.from({ length: 51 }, () => VALID_ITEM) }), "items");
		expectInvalid(orderWith({ top: { items: VALID_ITEM } }), "items");
	});

	it("takes print_file_id alone or print_file_url alone", () => {
		expect(accepted(orderWith()).items[0]?.print_file_id).toBe("pf_7cQm2x");
		const byUrl = { print_file_url: "https://files.example.com/art.tif?sig=abc", width_in: 8, height_in: 10 };
		expect(accepted(orderWith({ items: [byUrl] })).items[0]?.print_file_url).toBe(byUrl.print_file_url);
	});

	it("refuses both file fields, or neither, with a 422 on the item", () => {
		const both = expectInvalid(
			orderWith({ item: { print_file_url: "https://files.example.com/art.tif" } }),
			"items[0]",
		);
		expect(both.message).toBe("items[0]: must have print_file_id or print_file_url, not both");
		const neither = expectInvalid(orderWith({ items: [VALID_ITEM, { width_in: 8, height_in: 10 }] }), "items[1]");
		expect(neither.message).toBe("items[1]: must have one of print_file_id or print_file_url");
	});

	it("refuses a print_file_id that is empty or over 64 characters", () => {
		expectInvalid(orderWith({ item: { print_file_id: "" } }), "items[0].print_file_id");
		expectInvalid(orderWith({ item: { print_file_id: "p".repeat(65) } }), "items[0].print_file_id");
		expect(accepted(orderWith({ item: { print_file_id: "p".repeat(64) } })).items[0]?.print_file_id).toHaveLength(64);
	});

	it("refuses a print_file_url that is relative or over 2048 characters", () => {
		const tooLong = `https://files.example.com/${"a".repeat(2049 - "https://files.example.com/".length)}`;
		for (const print_file_url of ["art.tif", "/files/art.tif", tooLong]) {
			expectInvalid(orderWith({ items: [{ print_file_url, width_in: 8, height_in: 10 }] }), "items[0].print_file_url");
		}
	});
});

describe("items: sizes, quantity, frame and mat", () => {
	it("takes any size above 0 up to 1000 inches, whatever the catalog offers", () => {
		for (const [width_in, height_in] of [
			[0.5, 0.5],
			[12.5, 18],
			[50, 60],
			[1000, 1000],
		]) {
			const item = accepted(orderWith({ item: { width_in, height_in } })).items[0];
			expect(item).toMatchObject({ width_in, height_in });
		}
	});

	it("refuses a size of 0, below 0, above 1000 or as a string, with a 422 on it", () => {
		for (const field of ["width_in", "height_in"]) {
			for (const value of [0, -1, 1001, "12"]) {
				expectInvalid(orderWith({ item: { [field]: value } }), `items[0].${field}`);
			}
		}
	});

	it("a missing size is a 400 naming it", () => {
		expectMissing(orderWith({ item: { width_in: undefined } }), "items[0].width_in");
		expectMissing(orderWith({ items: [VALID_ITEM, { ...VALID_ITEM, height_in: undefined }] }), "items[1].height_in");
	});

	it("quantity defaults to 1 and takes whole numbers 1 to 100", () => {
		expect(accepted(orderWith()).items[0]?.quantity).toBe(1);
		expect(accepted(orderWith({ item: { quantity: 1 } })).items[0]?.quantity).toBe(1);
		expect(accepted(orderWith({ item: { quantity: 100 } })).items[0]?.quantity).toBe(100);
	});

	it("refuses a quantity of 0, 101, 1.5 or a string with a 422", () => {
		for (const quantity of [0, 101, 1.5, -1, "2"]) {
			expectInvalid(orderWith({ item: { quantity } }), "items[0].quantity");
		}
	});

	it("takes any slug-shaped frame or mat, known to the catalog or not", () => {
		for (const slug of ["oak-slim", "black", "no-such-frame-2", "9"]) {
			const item = accepted(orderWith({ item: { frame: slug, mat: slug } })).items[0];
			expect(item).toMatchObject({ frame: slug, mat: slug });
		}
		expect(accepted(orderWith({ item: { frame: "f".repeat(64) } })).items[0]?.frame).toHaveLength(64);
	});

	it("refuses a frame or mat that is not slug-shaped, empty or over 64 characters", () => {
		for (const field of ["frame", "mat"]) {
			for (const value of ["Oak", "-oak", "oak slim", "oak_slim", "", "f".repeat(65), 7]) {
				expectInvalid(orderWith({ item: { [field]: value } }), `items[0].${field}`);
			}
		}
	});
});

describe("mass assignment", () => {
	it("refuses status, tracking, id, account_id or any other unknown field at the top with a 422 naming it", () => {
		for (const field of ["status", "tracking", "id", "account_id", "created_at", "hold_reason"]) {
			const error = expectInvalid(orderWith({ top: { [field]: "x" } }), field);
			expect(error.message).toContain("cannot be set");
		}
	});

	it("refuses an unknown field inside an item or ship_to, naming its path", () => {
		expectInvalid(orderWith({ item: { status: "shipped" } }), "items[0].status");
		expectInvalid(orderWith({ item: { id: "itm_1" } }), "items[0].id");
		expectInvalid(orderWith({ items: [VALID_ITEM, { ...VALID_ITEM, effective_dpi: 300 }] }), "items[1].effective_dpi");
		expectInvalid(orderWith({ shipTo: { street: "Main St" } }), "ship_to.street");
	});
});

describe("canonicalOrderRequest", () => {
	const base = orderWith({
		top: { callback_url: "https://partner.example.com/hooks" },
		shipTo: { address2: "Suite 3200", email: "ada@example.com" },
		item: { frame: "oak-slim" },
	});
	const canonicalOf = (body: unknown): string => canonicalOrderRequest(accepted(body));

	it("sorts keys at every depth and omits absent optional fields", () => {
		const parsed = JSON.parse(canonicalOf(orderWith())) as Json;
		expect(Object.keys(parsed)).toEqual(["external_id", "items", "ship_to"]);
		expect(Object.keys(parsed.ship_to as Json)).toEqual(["address1", "city", "country", "name", "state", "zip"]);
		expect(parsed.items).toEqual([{ height_in: 20, print_file_id: "pf_7cQm2x", quantity: 1, width_in: 16 }]);
	});

	it("is the same whatever the key order", () => {
		const reversed = (object: Json): Json => Object.fromEntries(Object.entries(object).reverse());
		const shuffled = reversed({
			...base,
			ship_to: reversed(base.ship_to as Json),
			items: (base.items as Json[]).map(reversed),
		});
		expect(JSON.stringify(shuffled)).not.toBe(JSON.stringify(base));
		expect(canonicalOf(shuffled)).toBe(canonicalOf(base));
	});

	it("is the same with or without an explicit quantity of 1", () => {
		expect(canonicalOf(orderWith({ item: { quantity: 1 } }))).toBe(canonicalOf(orderWith()));
	});

	it("is the same across normalisations: country and state case, blanks around address text", () => {
		const normalised = orderWith({ shipTo: { country: "us", state: "ny", name: "  Ada Lovelace " } });
		expect(canonicalOf(normalised)).toBe(canonicalOf(orderWith()));
	});

	it("differs when any field differs", () => {
		const variants: Json[] = [
			{ ...base, external_id: "PO-1002" },
			{ ...base, callback_url: "https://partner.example.com/hooks2" },
			orderWith({ shipTo: { address2: "Suite 3200", email: "ada@example.com" }, item: { frame: "oak-slim" } }),
			orderWith({ top: { callback_url: "https://partner.example.com/hooks" }, item: { frame: "oak-slim" } }),
			...["name", "address1", "address2", "city"].map((field) =>
				orderWith({
					top: { callback_url: "https://partner.example.com/hooks" },
					shipTo: { address2: "Suite 3200", email: "ada@example.com", [field]: "Other" },
					item: { frame: "oak-slim" },
				}),
			),
			{ ...base, ship_to: { ...(base.ship_to as Json), state: "NJ", zip: "07030" } },
			{ ...base, ship_to: { ...(base.ship_to as Json), zip: "10119" } },
			{ ...base, ship_to: { ...(base.ship_to as Json), phone: "+1 212 555 0100" } },
			{ ...base, ship_to: { ...(base.ship_to as Json), email: "ada2@example.com" } },
			{ ...base, ship_to: shipToIn("DE", { zip: "10115" }) },
			{ ...base, items: [{ ...VALID_ITEM, frame: "oak-slim", quantity: 2 }] },
			{ ...base, items: [{ ...VALID_ITEM, frame: "walnut" }] },
			{ ...base, items: [{ ...VALID_ITEM, frame: "oak-slim", mat: "white" }] },
			{ ...base, items: [{ ...VALID_ITEM, frame: "oak-slim", width_in: 20, height_in: 16 }] },
			{ ...base, items: [{ ...VALID_ITEM, frame: "oak-slim", print_file_id: "pf_other" }] },
			{ ...base, items: [{ print_file_url: "https://files.example.com/a.tif", width_in: 16, height_in: 20 }] },
			{ ...base, items: [{ ...VALID_ITEM, frame: "oak-slim" }, VALID_ITEM] },
			{ ...base, items: [VALID_ITEM, { ...VALID_ITEM, frame: "oak-slim" }] },
		];
		const canonicals = [base, ...variants].map(canonicalOf);
		expect(new Set(canonicals).size).toBe(canonicals.length);
	});
});
