import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import type { Quote } from "../../src/quotes/schema.ts";
import { api } from "../helpers.ts";
import { createOrder, externalId, partnerWithFile, SHIP_TO, settleValidation } from "../orders/order-helpers.ts";
import { FILE_HOST } from "../print-files/file-hosting.ts";
import { quote } from "./quote-helpers.ts";

/**
 * What the largest requests the API accepts store: D1 refuses a row over 1 MB when deployed (the
 * local D1 the tests run on does not), so every row they write is held well under it here.
 */

/** Well under D1's 1 MB a row. */
const ROW_BUDGET_BYTES = 100_000;

/** The bytes of each matching row of `table`, as stored: every column's value as a blob, summed. */
async function rowBytes(table: string, where: string, ...params: string[]): Promise<number[]> {
	const { results: columns } = await env.DB.prepare("SELECT name FROM pragma_table_info(?1)")
		.bind(table)
		.all<{ name: string }>();
	expect(columns.length).toBeGreaterThan(0);
	const sum = columns.map((column) => `COALESCE(length(CAST("${column.name}" AS BLOB)), 0)`).join(" + ");
	const { results } = await env.DB.prepare(`SELECT ${sum} AS bytes FROM ${table} WHERE ${where}`)
		.bind(...params)
		.all<{ bytes: number }>();
	return results.map((row) => row.bytes);
}

/** The largest ship-to the schema takes: every field at its longest. */
const LONGEST_SHIP_TO = {
	name: "N".repeat(100),
	address1: "A".repeat(200),
	address2: "B".repeat(200),
	city: "C".repeat(100),
	state: "ME",
	zip: "04101",
	country: "US",
	phone: `+1 ${"2".repeat(27)}`,
	email: `${"e".repeat(240)}@example.com`,
};

/**
 * 50 different pieces of 100 units each, every part there is: the largest print (40 × 40 in), the
 * widest borders, a double mat, the widest moulding. Each needs freight (its box is above 165 in of
 * length plus girth). The items differ in paper and size so no two are alike.
 */
function largestItems(file: string) {
	const papers = ["archival-matte", "photo-lustre", "cotton-rag"];
	return Array.from({ length: 50 }, (_, index) => ({
		print_file_id: file,
		width_in: 40 - (index % 10),
		height_in: 40 - Math.floor(index / 10),
		quantity: 100,
		frame: "baroque-gold-leaf-350",
		mat: "museum-rag-white-8ply",
		mat_border_in: 6,
		mat_bottom_border_in: 8,
		inner_mat: "museum-rag-black-4ply",
		inner_mat_reveal_in: 0.5,
		glazing: "museum-acrylic",
		paper: papers[index % 3],
		fit: "fit" as const,
	}));
}

describe("the largest quote", () => {
	it("50 × 100 units of 24 × 30 framed to the US: stored well under 1 MB, read back as answered", async () => {
		const { key } = await partnerWithFile();
		const items = Array.from({ length: 50 }, () => ({
			width_in: 24,
			height_in: 30,
			quantity: 100,
			frame: "walnut-flat-125",
		}));
		const given = await quote(key, { ship_to: SHIP_TO, items });
		expect(given.shipping_options.map((option) => option.method)).toEqual(["budget", "standard", "express", "freight"]);
		for (const option of given.shipping_options) expect(option.packages).toHaveLength(5_000);
		const [bytes] = await rowBytes("quotes", "id = ?1", given.id);
		expect(bytes).toBeLessThan(ROW_BUDGET_BYTES);
		const read = await api(`/v1/quotes/${given.id}`, { key });
		expect(read.status).toBe(200);
		expect(await read.json()).toEqual(given);
	});

	it("the largest cart the API accepts, every field at its longest: stored well under 1 MB, read back as answered", async () => {
		const { key, file } = await partnerWithFile({ widthPx: 12_000, heightPx: 12_000 });
		const given = await quote(key, { ship_to: LONGEST_SHIP_TO, items: largestItems(file) });
		expect(given.shipping_options.map((option) => option.method)).toEqual(["freight"]);
		const [bytes] = await rowBytes("quotes", "id = ?1", given.id);
		expect(bytes).toBeLessThan(ROW_BUDGET_BYTES);
		const read = await api(`/v1/quotes/${given.id}`, { key });
		expect(await read.json()).toEqual(given);
	});
});

describe("quotes stored before the compact form", () => {
	it("a quote stored whole still reads as it was answered, and an order against it is charged it", async () => {
		const { partner, key, file } = await partnerWithFile();
		const item = { width_in: 16, height_in: 20, quantity: 3, frame: "walnut-flat-125", mat: "bright-white" };
		const given = await quote(key, { ship_to: SHIP_TO, items: [item, { ...item, quantity: 2, paper: "cotton-rag" }] });
		// The row as quotes were stored until now: the whole answer, every package under every option.
		const whole = { ...given, id: `${given.id}w` };
		await env.DB.prepare(
			`INSERT INTO quotes (id, account_id, mode, price_book_version, created_at, expires_at, body)
			 VALUES (?1, ?2, 'live', ?3, ?4, ?5, ?6)`,
		)
			.bind(
				whole.id,
				partner.account.id,
				whole.price_book_version,
				whole.created_at,
				whole.expires_at,
				JSON.stringify(whole),
			)
			.run();
		const read = await api(`/v1/quotes/${whole.id}`, { key });
		expect(await read.json()).toEqual(whole);
		const order = await createOrder(key, {
			external_id: externalId("WHOLE"),
			ship_to: SHIP_TO,
			quote_id: whole.id,
			items: [
				{ ...item, print_file_id: file },
				{ ...item, quantity: 2, paper: "cotton-rag", print_file_id: file },
			],
		});
		expect(order.costs).toMatchObject({ total: given.totals.by_method.standard?.total, quote_id: whole.id });
		// The compact row of the same quote reads the same.
		const compact =
			(await env.DB.prepare("SELECT body FROM quotes WHERE id = ?1").bind(given.id).first<{ body: string }>())?.body ??
			"";
		expect(JSON.parse(compact)).toHaveProperty("package_runs", [expect.objectContaining({ count: 5 })]);
		expect(await (await api(`/v1/quotes/${given.id}`, { key })).json()).toEqual(given);
	});
});

describe("the largest order", () => {
	it("50 × 100 of the largest framed pieces, against a quote and without: every row it writes is well under 1 MB", async () => {
		const { key, file } = await partnerWithFile({ widthPx: 12_000, heightPx: 12_000 });
		const items = largestItems(file);
		const given: Quote = await quote(key, { ship_to: LONGEST_SHIP_TO, items });
		for (const quoteId of [given.id, undefined]) {
			const order: Order = await createOrder(key, {
				external_id: `${externalId("BIG")}-${"x".repeat(80)}`,
				ship_to: LONGEST_SHIP_TO,
				items,
				...(quoteId === undefined ? {} : { quote_id: quoteId }),
				callback_url: `https://hooks.partner.example/ok/${"p".repeat(1_900)}`,
				gift_message: "G".repeat(300),
			});
			expect(order.costs?.total).toBe(given.totals.by_method.freight?.total);
			const rows = [
				...(await rowBytes("orders", "id = ?1", order.id)),
				...(await rowBytes("order_items", "order_id = ?1", order.id)),
				...(await rowBytes("events", "order_id = ?1", order.id)),
			];
			expect(rows.length).toBeGreaterThanOrEqual(52);
			expect(Math.max(...rows)).toBeLessThan(ROW_BUDGET_BYTES);
		}
	});

	it("50 items held for everything an item can lack: the hold's details, on the order and in its event, stay well under 1 MB", async () => {
		const { key } = await partnerWithFile();
		const unknown = (part: string) => `no-such-${part}-${"x".repeat(64 - part.length - 9)}`;
		const items = Array.from({ length: 50 }, () => ({
			print_file_url: `${FILE_HOST}/status/404/${"p".repeat(2_000)}`,
			width_in: 1_000,
			height_in: 1_000,
			quantity: 100,
			frame: unknown("frame"),
			mat: unknown("mat"),
			inner_mat: unknown("inner-mat"),
			glazing: unknown("glazing"),
			paper: unknown("paper"),
		}));
		const created = await createOrder(key, { external_id: externalId("HELD"), ship_to: LONGEST_SHIP_TO, items });
		// Fifty files to fetch: validation may take more than one round of alarms on a busy machine.
		let held = await settleValidation(key, created.id);
		for (let round = 0; round < 5 && held.status !== "on_hold"; round++) held = await settleValidation(key, created.id);
		expect(held.status).toBe("on_hold");
		expect(held.hold_details).toHaveLength(50 * 8);
		const rows = [
			...(await rowBytes("orders", "id = ?1", held.id)),
			...(await rowBytes("order_items", "order_id = ?1", held.id)),
			...(await rowBytes("events", "order_id = ?1", held.id)),
		];
		expect(Math.max(...rows)).toBeLessThan(ROW_BUDGET_BYTES);
	});
});
