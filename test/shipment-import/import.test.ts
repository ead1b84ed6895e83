/** Shipping in bulk: `POST /v1/ops/shipments/import` (text/csv) and the console's upload. */
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/ids.ts";
import type { Order } from "../../src/orders/response.ts";
import { MAX_IMPORT_BYTES } from "../../src/shipment-import/csv-file.ts";
import {
	alertOf,
	consoleRequest,
	htmlOf,
	type Operator,
	signedInOperator,
	textOf,
} from "../console/console-helpers.ts";
import { api, createKeyWithScopes, createPartner, expectError } from "../helpers.ts";
import {
	createOrder,
	eventTypes,
	opsMove,
	opsMoveOk,
	orderBody,
	partnerWithFile,
	readOrder,
	settleValidation,
} from "../orders/order-helpers.ts";

type Report = {
	rows: { line: number; order_id: string | null; external_id: string | null; outcome: string; message: string }[];
	shipped: number;
	already_shipped: number;
	refused: number;
};

function postCsv(key: string, csv: string, type = "text/csv"): Promise<Response> {
	return api("/v1/ops/shipments/import", { key, method: "POST", headers: { "Content-Type": type }, body: csv });
}

async function importCsv(key: string, csv: string): Promise<Report> {
	const response = await postCsv(key, csv);
	if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
	return (await response.json()) as Report;
}

/** Three live orders of one partner in production, one on hold. */
async function floor() {
	const { key, file } = await partnerWithFile();
	const ready: Order[] = [];
	for (let index = 0; index < 3; index++) {
		const order = await createOrder(key, orderBody(file));
		ready.push(await settleValidation(key, order.id));
	}
	const held = await settleValidation(
		key,
		(await createOrder(key, orderBody(file, {}, { frame: "no-such-frame" }))).id,
	);
	return { key, ready, held, ops: await createKeyWithScopes(["ops"]) };
}

function trackingRow(reference: string, number: string): string {
	return `${reference},UPS,${number},https://www.ups.com/track?tracknum=${number}`;
}

describe("POST /v1/ops/shipments/import", () => {
	it("ships three orders and refuses one on hold, row by row; the same file again changes nothing", async () => {
		const { key, ready, held, ops } = await floor();
		const [first, second, third] = ready;
		const csv = [
			"Order Number,Carrier,Tracking Number,Tracking URL",
			trackingRow(first?.external_id ?? "", "1Z001"),
			trackingRow(second?.external_id ?? "", "1Z002"),
			trackingRow(held.external_id, "1Z003"),
			trackingRow(third?.external_id ?? "", "1Z004"),
		].join("\r\n");
		const report = await importCsv(ops, csv);
		expect(report).toMatchObject({ shipped: 3, already_shipped: 0, refused: 1 });
		expect(report.rows.map((row) => [row.line, row.outcome])).toEqual([
			[2, "shipped"],
			[3, "shipped"],
			[4, "refused"],
			[5, "shipped"],
		]);
		expect(report.rows[2]?.message).toContain("on_hold");
		for (const order of ready) {
			const now = await readOrder(key, order.id);
			expect(now.status).toBe("shipped");
			expect((await eventTypes(order.id)).filter((type) => type === "order.shipped")).toHaveLength(1);
		}
		expect((await readOrder(key, ready[0]?.id ?? "")).tracking).toEqual({
			carrier: "UPS",
			number: "1Z001",
			url: "https://www.ups.com/track?tracknum=1Z001",
		});
		expect((await readOrder(key, held.id)).status).toBe("on_hold");

		const again = await importCsv(ops, csv);
		expect(again).toMatchObject({ shipped: 0, already_shipped: 3, refused: 1 });
		for (const order of ready) {
			expect((await eventTypes(order.id)).filter((type) => type === "order.shipped")).toHaveLength(1);
		}
	});

	it("a shipped order with other tracking, an unknown order, a bad URL and a short row are refused with the reason", async () => {
		const { ready, ops } = await floor();
		const [first, second] = ready;
		await importCsv(ops, `order_id,carrier,tracking_number,tracking_url\n${trackingRow(first?.id ?? "", "1Z100")}`);
		const report = await importCsv(
			ops,
			[
				"order_id,carrier,tracking_number,tracking_url",
				trackingRow(first?.id ?? "", "1Z999"),
				trackingRow("ord_nothing", "1Z101"),
				`${second?.id},UPS,1Z102,not a url`,
				`${second?.id},UPS`,
			].join("\n"),
		);
		expect(report.rows.map((row) => row.outcome)).toEqual(["refused", "refused", "refused", "refused"]);
		expect(report.rows.map((row) => row.message)).toEqual([
			expect.stringContaining("this row's tracking differs"),
			"No order ord_nothing.",
			expect.stringContaining("tracking_url:"),
			"This row has 2 fields; the header has 4.",
		]);
		expect(
			(await api(`/v1/ops/orders?q=${second?.id}`, { key: ops }).then((r) => r.json())) as { data: Order[] },
		).toMatchObject({
			data: [{ status: "in_production" }],
		});
	});

	it("a semicolon-separated file without tracking_url ships with the carriers' pages; an unknown carrier's row is refused", async () => {
		const { key, ready, ops } = await floor();
		const [first, second, third] = ready;
		const report = await importCsv(
			ops,
			[
				"Order ID;Carrier;Tracking Number",
				`${first?.id};FedEx;794698765432`,
				`${second?.id};"Harbour; Couriers";HC-1`,
				`${third?.id};ups;1Z760`,
			].join("\r\n"),
		);
		expect(report.rows.map((row) => [row.line, row.outcome, row.message])).toEqual([
			[2, "shipped", "Shipped with FedEx 794698765432."],
			[
				3,
				"refused",
				'tracking_url: is needed for carrier "Harbour; Couriers": only UPS, USPS, FedEx, DHL tracking URLs follow from the number.',
			],
			[4, "shipped", "Shipped with ups 1Z760."],
		]);
		expect((await readOrder(key, first?.id ?? "")).tracking?.url).toBe(
			"https://www.fedex.com/fedextrack/?trknbr=794698765432",
		);
		expect((await readOrder(key, third?.id ?? "")).tracking?.url).toBe("https://www.ups.com/track?tracknum=1Z760");
		expect((await readOrder(key, second?.id ?? "")).status).toBe("in_production");
	});

	it("POST /v1/ops/shipments/import/preview answers what each row would do, and changes nothing", async () => {
		const { key, ready, held, ops } = await floor();
		const [first, second] = ready;
		const csv = [
			"order_id;carrier;tracking_number",
			`${first?.id};UPS;1Z770`,
			`${first?.id};UPS;1Z770`,
			`${first?.id};UPS;1Z771`,
			`${held.id};UPS;1Z772`,
			`${second?.id};Harbour Couriers;HC-2`,
		].join("\n");
		const previewCsv = (body: string) =>
			api("/v1/ops/shipments/import/preview", {
				key: ops,
				method: "POST",
				headers: { "Content-Type": "text/csv" },
				body,
			});
		const response = await previewCsv(csv);
		expect(response.status).toBe(200);
		const preview = (await response.json()) as { rows: { action: string; message: string }[] };
		expect(preview).toMatchObject({ ship: 1, already_shipped: 1, refused: 3 });
		expect(preview.rows.map((row) => [row.action, row.message])).toEqual([
			["ship", "Ship with UPS 1Z770."],
			["already_shipped", "Line 2 ships it with this tracking."],
			["refused", "Line 2 ships this order with UPS 1Z770; this row's tracking differs."],
			["refused", "Cannot ship an order that is on_hold."],
			[
				"refused",
				'tracking_url: is needed for carrier "Harbour Couriers": only UPS, USPS, FedEx, DHL tracking URLs follow from the number.',
			],
		]);
		expect((await readOrder(key, first?.id ?? "")).status).toBe("in_production");
		expect(await eventTypes(first?.id ?? "")).not.toContain("order.shipped");
		await expectError(await previewCsv("order,carrier\n"), "validation_error", "file");
	});

	it("two rows for one order: the first ships it, the second (the same tracking) is already shipped", async () => {
		const { ready, ops } = await floor();
		const row = trackingRow(ready[0]?.id ?? "", "1Z200");
		const report = await importCsv(ops, `order_id,carrier,tracking_number,tracking_url\n${row}\n${row}\n`);
		expect(report.rows.map((entry) => entry.outcome)).toEqual(["shipped", "already_shipped"]);
	});

	it("four overlapping imports of one file: each order ships once, every other row is already_shipped", async () => {
		const { ready, ops } = await floor();
		const csv = [
			"order_id,carrier,tracking_number,tracking_url",
			...ready.map((order, index) => trackingRow(order.id, `1Z50${index}`)),
		].join("\n");
		const reports = await Promise.all([1, 2, 3, 4].map(() => importCsv(ops, csv)));
		for (const [index, order] of ready.entries()) {
			const outcomes = reports.map((report) => report.rows[index]);
			expect(outcomes.map((row) => row?.outcome).sort()).toEqual([
				"already_shipped",
				"already_shipped",
				"already_shipped",
				"shipped",
			]);
			expect((await eventTypes(order.id)).filter((type) => type === "order.shipped")).toHaveLength(1);
		}
		for (const report of reports) expect(report.refused).toBe(0);
	});

	it("imports beside one-step ships with the same tracking: each order ships once, the losers answer as a repeat does", async () => {
		const { key, ready, ops } = await floor();
		const tracking = (index: number) => {
			const number = `1Z60${index}`;
			return { carrier: "UPS", number, url: `https://www.ups.com/track?tracknum=${number}` };
		};
		const csv = [
			"order_id,carrier,tracking_number,tracking_url",
			...ready.map((order, index) => trackingRow(order.id, tracking(index).number)),
		].join("\n");
		const [reports, singles] = await Promise.all([
			Promise.all([importCsv(ops, csv), importCsv(ops, csv)]),
			Promise.all(ready.map((order, index) => opsMove(ops, order.id, "ship", tracking(index)))),
		]);
		for (const [index, order] of ready.entries()) {
			const single = singles[index];
			const outcomes = reports.map((report) => report.rows[index]?.outcome);
			// Exactly one of the three ships the order; an import's loser is already_shipped, the ship route's
			// loser the 409 a repeated ship gets.
			const winners = outcomes.filter((outcome) => outcome === "shipped").length + (single?.status === 200 ? 1 : 0);
			expect(winners).toBe(1);
			expect(outcomes.every((outcome) => outcome === "shipped" || outcome === "already_shipped")).toBe(true);
			if (single !== undefined && single.status !== 200) {
				const error = await expectError(single, "conflict");
				expect(error.message).toBe("Cannot ship an order that is shipped. (current status: shipped)");
			}
			expect((await readOrder(key, order.id)).tracking).toEqual(tracking(index));
			expect((await eventTypes(order.id)).filter((type) => type === "order.shipped")).toHaveLength(1);
		}
	});

	it("an external_id two partners use is refused as ambiguous; test orders are not matched by external_id", async () => {
		const one = await partnerWithFile();
		const two = await partnerWithFile();
		const shared = `SHARED-${crypto.randomUUID().slice(0, 8)}`;
		for (const { key, file } of [one, two]) {
			await settleValidation(key, (await createOrder(key, orderBody(file, { external_id: shared }))).id);
		}
		const ops = await createKeyWithScopes(["ops"]);
		const report = await importCsv(
			ops,
			`external_id,carrier,tracking_number,tracking_url\n${trackingRow(shared, "1Z300")}`,
		);
		expect(report.rows[0]).toMatchObject({
			outcome: "refused",
			message: expect.stringContaining("use the order_id column"),
		});
	});

	it("a file without the needed columns, not UTF-8, not CSV, or over the row bound is refused whole", async () => {
		const { ops } = await floor();
		await expectError(await postCsv(ops, "order,carrier\nord_1,UPS\n"), "validation_error", "file");
		await expectError(
			await postCsv(ops, "order_id,carrier,tracking_number,tracking_url\n", "application/json"),
			"bad_request",
		);
		const latin1 = new Uint8Array([0x6f, 0x72, 0x64, 0xe9, 0x0a]);
		await expectError(
			await api("/v1/ops/shipments/import", {
				key: ops,
				method: "POST",
				headers: { "Content-Type": "text/csv" },
				body: latin1,
			}),
			"bad_request",
		);
		const many = `order_id,carrier,tracking_number,tracking_url\n${"ord_x,UPS,1Z,https://t.example\n".repeat(5_001)}`;
		const error = await expectError(await postCsv(ops, many), "validation_error", "file");
		expect(error.message).toContain("at most 5000");
	});

	it("a row with broken quoting refuses the whole file, 422 shipments_csv_invalid naming its line; nothing ships", async () => {
		const { key, ready, ops } = await floor();
		const [first, second] = ready;
		const csv = [
			"order_id;carrier;tracking_number",
			`${first?.id ?? ""};"Parcel\nCo";1Z101`,
			`${second?.id ?? ""};"UPS"X;1Z102`,
		].join("\r\n");
		for (const path of ["/v1/ops/shipments/import", "/v1/ops/shipments/import/preview"]) {
			const refused = await api(path, { key: ops, method: "POST", headers: { "Content-Type": "text/csv" }, body: csv });
			const error = await expectError(refused, "validation_error", "file");
			expect(error.code).toBe("shipments_csv_invalid");
			expect(error.message).toMatch(/^Line 4: a quoted field goes on after its closing quote/);
		}
		expect((await readOrder(key, first?.id ?? "")).status).toBe("in_production");
	});

	it("a partner key is refused with 403", async () => {
		const partner = await createPartner();
		await expectError(
			await postCsv(partner.keys.live.key, "order_id,carrier,tracking_number,tracking_url\n"),
			"forbidden",
		);
	});
});

/** The console's upload: the preview page it answers with. */
async function previewPage(operator: Operator, csv: string, status = 200): Promise<string> {
	const form = new FormData();
	form.set("_csrf", operator.csrf);
	form.set("file", new File([csv], "labels.csv", { type: "text/csv" }));
	return htmlOf(
		await consoleRequest("/ops/shipments/import", { cookie: operator.cookie, method: "POST", body: form }),
		status,
	);
}

/** The hidden fields of the preview's confirm form. */
function confirmFieldsOf(html: string): { content: string; mark: string } {
	const content = /name="content" value="([^"]*)"/.exec(html)?.[1];
	const mark = /name="mark" value="([^"]*)"/.exec(html)?.[1];
	if (content === undefined || mark === undefined) throw new Error("no confirm form on the page");
	return { content, mark };
}

/** Posts a confirm form as the browser does (multipart, with the form token unless told otherwise). */
function postConfirm(
	operator: Operator,
	fields: { content: string; mark: string },
	csrf: string | null = operator.csrf,
	headers: Record<string, string> = {},
) {
	const form = new FormData();
	if (csrf !== null) form.set("_csrf", csrf);
	form.set("content", fields.content);
	form.set("mark", fields.mark);
	return consoleRequest("/ops/shipments/import/confirm", {
		cookie: operator.cookie,
		method: "POST",
		body: form,
		headers,
	});
}

/** Each previewed row's line and action, in page order. */
function previewActionsOf(html: string): [number, string][] {
	return [...html.matchAll(/<tr data-line="(\d+)" data-action="(\w+)">/g)].map((match) => [
		Number(match[1]),
		match[2] ?? "",
	]);
}

/** The result's summary: its tone (ok, partial, failed) and its text. */
function summaryOf(html: string): { tone: string; text: string } {
	const match = /<div role="status" class="[^"]*" data-tone="(\w+)">([\s\S]*?)<\/div>/.exec(html);
	if (match === null) throw new Error("no summary on the page");
	return { tone: match[1] ?? "", text: textOf(match[2] ?? "") };
}

function occurrences(text: string, part: string): number {
	return text.split(part).length - 1;
}

const HEADER = "order_id,carrier,tracking_number,tracking_url";

type PreviewRows = {
	rows: { line: number; action: string; units: { item_id: string; quantity: number }[] | null; message: string }[];
};

/** POST /v1/ops/shipments/import/preview: every row's action. */
async function previewOf(key: string, csv: string): Promise<PreviewRows> {
	const response = await api("/v1/ops/shipments/import/preview", {
		key,
		method: "POST",
		headers: { "Content-Type": "text/csv" },
		body: csv,
	});
	expect(response.status).toBe(200);
	return (await response.json()) as PreviewRows;
}

/** A live order in production of two framed units (one item) and an unframed print (another). */
async function twoItemOrder(key: string, file: string): Promise<{ order: Order; framed: string; print: string }> {
	const framed = orderBody(file, {}, { quantity: 2 });
	const print = { print_file_id: file, width_in: 8, height_in: 10, quantity: 1 };
	const created = await createOrder(key, { ...framed, items: [...framed.items, print] });
	const order = await settleValidation(key, created.id);
	expect(order.status).toBe("in_production");
	return { order, framed: order.items[0]?.id ?? "", print: order.items[1]?.id ?? "" };
}

describe("the import's item_ids column", () => {
	it("a row with item_ids is one shipment of the units it names; a row without ships what remains; the preview shows each row's units", async () => {
		const { key, file } = await partnerWithFile();
		const ops = await createKeyWithScopes(["ops"]);
		const { order, framed, print } = await twoItemOrder(key, file);
		const csv = [
			"order_id;carrier;tracking_number;item_ids",
			`${order.id};UPS;1Z999AA10000000001;${framed}:1`,
			`${order.id};UPS;1Z999AA10000000002;"${framed}, ${print}"`,
		].join("\n");
		const preview = await previewOf(ops, csv);
		expect(preview.rows.map((row) => [row.action, row.units])).toEqual([
			["ship", [{ item_id: framed, quantity: 1 }]],
			[
				"ship",
				[
					{ item_id: framed, quantity: 1 },
					{ item_id: print, quantity: 1 },
				],
			],
		]);
		expect(preview.rows[0]?.message).toBe(`Ship 1 × item 1 (${framed}) with UPS 1Z999AA10000000001.`);
		expect((await readOrder(key, order.id)).shipments).toEqual([]);

		const report = await importCsv(ops, csv);
		expect(report.rows.map((row) => row.outcome)).toEqual(["shipped", "shipped"]);
		const shipped = await readOrder(key, order.id);
		expect(shipped.status).toBe("shipped");
		expect(shipped.shipments.map((shipment) => shipment.items)).toEqual([
			[{ item_id: framed, quantity: 1 }],
			[
				{ item_id: framed, quantity: 1 },
				{ item_id: print, quantity: 1 },
			],
		]);
		expect(shipped.tracking?.number).toBe("1Z999AA10000000001");
		// The same file again ships nothing twice.
		const again = await importCsv(ops, csv);
		expect(again.rows.map((row) => row.outcome)).toEqual(["already_shipped", "already_shipped"]);
		expect((await readOrder(key, order.id)).shipments).toHaveLength(2);
	});

	it("after a partial row, a row without item_ids ships every unit that remains, in the preview and the import", async () => {
		const { key, file } = await partnerWithFile();
		const ops = await createKeyWithScopes(["ops"]);
		const { order, framed, print } = await twoItemOrder(key, file);
		const csv = [
			"order_id,carrier,tracking_number,item_ids",
			`${order.id},UPS,1Z999AA10000000011,${print}`,
			`${order.id},UPS,1Z999AA10000000012,`,
		].join("\n");
		const preview = await previewOf(ops, csv);
		expect(preview.rows.map((row) => row.units)).toEqual([
			[{ item_id: print, quantity: 1 }],
			[{ item_id: framed, quantity: 2 }],
		]);
		expect((await importCsv(ops, csv)).shipped).toBe(2);
		const shipped = await readOrder(key, order.id);
		expect(shipped.fulfillment).toEqual({ units: 3, shipped_units: 3, delivered_units: 0 });
		// Imported again: the second row's label is a shipment of the order, so it is already shipped.
		expect((await importCsv(ops, csv)).rows.map((row) => row.outcome)).toEqual(["already_shipped", "already_shipped"]);
	});

	it("a whole-order row with the label of a partial shipment is refused as reused, and what remains does not ship", async () => {
		const { key, file } = await partnerWithFile();
		const ops = await createKeyWithScopes(["ops"]);
		const { order, print } = await twoItemOrder(key, file);
		const csv = [
			"order_id,carrier,tracking_number,item_ids",
			`${order.id},UPS,1Z999AA10000000031,${print}`,
			`${order.id},UPS,1Z999AA10000000031,`,
		].join("\n");
		const preview = await previewOf(ops, csv);
		expect(preview.rows.map((row) => row.action)).toEqual(["ship", "refused"]);
		expect(preview.rows[1]?.message).toContain("a label ships its units once");
		const report = await importCsv(ops, csv);
		expect(report.rows.map((row) => row.outcome)).toEqual(["shipped", "refused"]);
		expect(report.rows[1]?.message).toContain("a label ships its units once");
		const after = await readOrder(key, order.id);
		expect(after.status).toBe("in_production");
		expect(after.fulfillment.shipped_units).toBe(1);
	});

	it("bad ids, another order's items, over-shipping and a label reused for other units are refused by row, and nothing ships", async () => {
		const { key, file } = await partnerWithFile();
		const ops = await createKeyWithScopes(["ops"]);
		const { order, framed, print } = await twoItemOrder(key, file);
		const other = await twoItemOrder(key, file);
		const csv = [
			"order_id,carrier,tracking_number,item_ids",
			`${order.id},UPS,1Z999AA10000000021,itm_nope`,
			`${order.id},UPS,1Z999AA10000000022,${other.framed}`,
			`${order.id},UPS,1Z999AA10000000023,${framed}:3`,
			`${order.id},UPS,1Z999AA10000000024,not-an-item`,
			`${order.id},UPS,1Z999AA10000000025,${framed}:0`,
			`${order.id},UPS,1Z999AA10000000026,"${framed};${framed}:1"`,
			`${order.id},UPS,1Z999AA10000000027,${"x".repeat(5000)}`,
			`${order.id},UPS,1Z999AA10000000028,${print}`,
			`${order.id},UPS,1Z999AA10000000028,${framed}:1`,
		].join("\n");
		const report = await importCsv(ops, csv);
		const byLine = new Map(report.rows.map((row) => [row.line, row]));
		expect(report.rows.map((row) => row.outcome)).toEqual([...Array(7).fill("refused"), "shipped", "refused"]);
		expect(byLine.get(2)?.message).toBe("item_ids: itm_nope is not an item of this order.");
		expect(byLine.get(3)?.message).toBe(`item_ids: ${other.framed} is not an item of this order.`);
		expect(byLine.get(4)?.message).toBe(`item_ids: ${framed} has 2 units left to ship; 3 asked.`);
		expect(byLine.get(5)?.message).toContain('"not-an-item" is not an item id');
		expect(byLine.get(6)?.message).toContain("ships nothing");
		expect(byLine.get(7)?.message).toContain("named twice");
		expect(byLine.get(8)?.message.length).toBeLessThan(200);
		expect(byLine.get(10)?.message).toContain("a label ships its units once");
		expect((await readOrder(key, order.id)).shipments.map((shipment) => shipment.items)).toEqual([
			[{ item_id: print, quantity: 1 }],
		]);
		expect((await readOrder(key, other.order.id)).shipments).toEqual([]);
	});

	it("the console's preview lists the units each row would ship", async () => {
		const operator = await signedInOperator();
		const { key, file } = await partnerWithFile();
		const { order, framed } = await twoItemOrder(key, file);
		const csv = `order_id,carrier,tracking_number,item_ids\n${order.id},UPS,1Z999AA10000000031,${framed}:2\n`;
		const page = await previewPage(operator, csv);
		expect(textOf(page)).toContain(`2 units: 2 × ${framed}`);
		expect((await readOrder(key, order.id)).shipments).toEqual([]);
	});
});

describe("the console's Ship in bulk: preview, then confirm", () => {
	it("an upload is a preview of every row that changes nothing: no order ships, no event is sent", async () => {
		const operator = await signedInOperator();
		const { key, ready, held } = await floor();
		const [first, second] = ready;
		const html = await previewPage(
			operator,
			[
				HEADER,
				trackingRow(first?.id ?? "", "1Z700"),
				trackingRow(held.id, "1Z701"),
				`${second?.id},Harbour Couriers,HC-1,`,
				`${second?.id},DHL,JD0146,`,
			].join("\n"),
		);
		expect(previewActionsOf(html)).toEqual([
			[2, "ship"],
			[3, "refused"],
			[4, "refused"],
			[5, "ship"],
		]);
		expect(textOf(html)).toContain("4 rows: 2 would ship, 0 already shipped, 2 refused.");
		expect(html).toContain("Cannot ship an order that is on_hold.");
		expect(textOf(html)).toContain(
			'tracking_url: is needed for carrier "Harbour Couriers": only UPS, USPS, FedEx, DHL tracking URLs follow from the number.',
		);
		expect(html).toContain(
			"https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&amp;tracking-id=JD0146",
		);
		expect(html).toContain("Confirm: ship 2 orders");
		for (const order of [...ready, held]) {
			expect((await readOrder(key, order.id)).status).toBe(order.status);
			expect(await eventTypes(order.id)).not.toContain("order.shipped");
		}
	});

	it("confirm ships exactly what was previewed, and the summary is green only when every row was applied", async () => {
		const operator = await signedInOperator();
		const { key, ready } = await floor();
		const [first, second] = ready;
		const csv = [HEADER, trackingRow(first?.id ?? "", "1Z710"), `${second?.id},USPS,9400710,`].join("\n");
		const html = await htmlOf(await postConfirm(operator, confirmFieldsOf(await previewPage(operator, csv))), 200);
		expect(summaryOf(html)).toEqual({ tone: "ok", text: "All 2 rows applied: 2 shipped now, 0 already shipped." });
		expect((await readOrder(key, first?.id ?? "")).tracking?.number).toBe("1Z710");
		expect((await readOrder(key, second?.id ?? "")).tracking).toEqual({
			carrier: "USPS",
			number: "9400710",
			url: "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400710",
		});
		expect((await readOrder(key, ready[2]?.id ?? "")).status).toBe("in_production");
	});

	it("a confirm replayed ships nothing twice: its rows are reported as already shipped, and the summary stays green", async () => {
		const operator = await signedInOperator();
		const { ready } = await floor();
		const csv = [HEADER, ...ready.map((order, index) => trackingRow(order.id, `1Z72${index}`))].join("\n");
		const fields = confirmFieldsOf(await previewPage(operator, csv));
		const [once, twice] = [await postConfirm(operator, fields), await postConfirm(operator, fields)];
		expect(summaryOf(await htmlOf(once, 200)).text).toBe("All 3 rows applied: 3 shipped now, 0 already shipped.");
		const replay = await htmlOf(twice, 200);
		expect(summaryOf(replay)).toEqual({ tone: "ok", text: "All 3 rows applied: 0 shipped now, 3 already shipped." });
		expect(replay).toContain("Already shipped with UPS 1Z720: nothing changed.");
		for (const order of ready) {
			expect((await eventTypes(order.id)).filter((type) => type === "order.shipped")).toHaveLength(1);
		}
	});

	it("a row whose order moved between preview and confirm is refused at confirm, and the summary is amber", async () => {
		const operator = await signedInOperator();
		const { key, ready, ops } = await floor();
		const [first, second] = ready;
		const csv = [HEADER, trackingRow(first?.id ?? "", "1Z730"), trackingRow(second?.id ?? "", "1Z731")].join("\n");
		const preview = await previewPage(operator, csv);
		expect(previewActionsOf(preview)).toEqual([
			[2, "ship"],
			[3, "ship"],
		]);
		await opsMoveOk(ops, second?.id ?? "", "hold", { message: "Glass cracked on the bench" });
		const html = await htmlOf(await postConfirm(operator, confirmFieldsOf(preview)), 200);
		const summary = summaryOf(html);
		expect(summary.tone).toBe("partial");
		expect(summary.text).toContain("1 of 2 rows applied, 1 refused.");
		expect(summary.text).toContain(`Line 3 (${second?.external_id}): Cannot ship an order that is on_hold.`);
		expect((await readOrder(key, first?.id ?? "")).status).toBe("shipped");
		expect((await readOrder(key, second?.id ?? "")).status).toBe("on_hold");
	});

	it("the summary says N of M rows applied, K refused, lists each refusal once, and is red when none was applied", async () => {
		const operator = await signedInOperator();
		const { ready, held, ops } = await floor();
		const reason = "Cannot ship an order that is on_hold.";
		const some = await previewPage(
			operator,
			[HEADER, trackingRow(ready[0]?.id ?? "", "1Z740"), trackingRow(held.id, "1Z741"), "ord_nothing,UPS,1Z742,"].join(
				"\n",
			),
		);
		const html = await htmlOf(await postConfirm(operator, confirmFieldsOf(some)), 200);
		const summary = summaryOf(html);
		expect(summary.tone).toBe("partial");
		expect(summary.text).toContain("1 of 3 rows applied, 2 refused.");
		expect(occurrences(textOf(html), reason)).toBe(1);
		expect(occurrences(textOf(html), "No order ord_nothing.")).toBe(1);
		expect(html).not.toMatch(/data-outcome="refused"/);

		// A file whose one row's order is canceled between preview and confirm: nothing applied, a red summary.
		const lone = await previewPage(operator, [HEADER, trackingRow(ready[1]?.id ?? "", "1Z750")].join("\n"));
		await opsMoveOk(ops, ready[1]?.id ?? "", "cancel");
		expect(summaryOf(await htmlOf(await postConfirm(operator, confirmFieldsOf(lone)), 200))).toEqual({
			tone: "failed",
			text: `0 of 1 row applied, 1 refused.Line 2 (${ready[1]?.external_id}): Cannot ship an order that is canceled.`,
		});
	});
});

describe("the console's Ship in bulk: refusals", () => {
	it("an upload or a confirm without the form token, with another session's, or from another site is a 403, and nothing ships", async () => {
		const operator = await signedInOperator();
		const { key, ready } = await floor();
		const csv = [HEADER, trackingRow(ready[0]?.id ?? "", "1Z400")].join("\n");
		const withoutToken = new FormData();
		withoutToken.set("file", new File([csv], "labels.csv", { type: "text/csv" }));
		const upload = await consoleRequest("/ops/shipments/import", {
			cookie: operator.cookie,
			method: "POST",
			body: withoutToken,
		});
		expect(upload.status).toBe(403);
		const fields = confirmFieldsOf(await previewPage(operator, csv));
		expect((await postConfirm(operator, fields, null)).status).toBe(403);
		expect((await postConfirm(operator, fields, "not-the-token")).status).toBe(403);
		const other = await signedInOperator();
		expect((await postConfirm(operator, fields, other.csrf)).status).toBe(403);
		const fromElsewhere = await postConfirm(operator, fields, operator.csrf, {
			Origin: "https://elsewhere.example",
			"Sec-Fetch-Site": "cross-site",
		});
		expect(fromElsewhere.status).toBe(403);
		expect((await readOrder(key, ready[0]?.id ?? "")).status).toBe("in_production");
	});

	it("a confirm whose file is not the one this session previewed is a 422 page, and nothing ships", async () => {
		const operator = await signedInOperator();
		const other = await signedInOperator();
		const { key, ready } = await floor();
		const previewed = [HEADER, trackingRow(ready[0]?.id ?? "", "1Z410")].join("\n");
		const swapped = [HEADER, trackingRow(ready[1]?.id ?? "", "1Z411")].join("\n");
		const { mark } = confirmFieldsOf(await previewPage(operator, previewed));
		const content = btoa(swapped);
		const otherSessions = confirmFieldsOf(await previewPage(other, previewed));
		for (const fields of [
			{ content, mark },
			// A mark is not the file's hash: a page or script cannot make one for another file.
			{ content, mark: await sha256Hex(swapped) },
			{ content: "%%%not base64", mark },
			{ content: "", mark: "" },
			// Another session's preview of the very same file.
			otherSessions,
		]) {
			const html = await htmlOf(await postConfirm(operator, fields), 422);
			expect(alertOf(html)).toBe("This confirm does not carry the file that was previewed: upload the file again.");
		}
		for (const order of ready.slice(0, 2)) expect((await readOrder(key, order.id)).status).toBe("in_production");
	});

	it("a file of 5,000 rows, the most taken, previews every row on one page and its confirm carries the whole file", async () => {
		const operator = await signedInOperator();
		const { ready } = await floor();
		const rows = Array.from({ length: 4_999 }, (_, index) => `ord_none${index};UPS;1Z${index};`);
		const csv = [
			"order_id;carrier;tracking_number;tracking_url",
			trackingRow(ready[0]?.id ?? "", "1Z800").replaceAll(",", ";"),
			...rows,
		].join("\n");
		const html = await previewPage(operator, csv);
		expect(previewActionsOf(html)).toHaveLength(5_000);
		expect(textOf(html)).toContain("5,000 rows: 1 would ship, 0 already shipped, 4,999 refused.");
		const fields = confirmFieldsOf(html);
		expect(new TextDecoder().decode(Uint8Array.from(atob(fields.content), (c) => c.charCodeAt(0)))).toBe(csv);
	}, 60_000);

	it("a file just under the 4 MiB bound previews and confirms; a larger one is refused as a page", async () => {
		const operator = await signedInOperator();
		const { key, ready } = await floor();
		const row = `${trackingRow(ready[0]?.id ?? "", "1Z810")},`;
		const header = `${HEADER},note\n`;
		const padding = "x".repeat(MAX_IMPORT_BYTES - 2_048 - header.length - row.length);
		const csv = `${header}${row}${padding}\n`;
		const preview = await previewPage(operator, csv);
		expect(previewActionsOf(preview)).toEqual([[2, "ship"]]);
		const html = await htmlOf(await postConfirm(operator, confirmFieldsOf(preview)), 200);
		expect(summaryOf(html).tone).toBe("ok");
		expect((await readOrder(key, ready[0]?.id ?? "")).status).toBe("shipped");
		const tooBig = await previewPage(operator, `${csv}${"y".repeat(4_096)}\n`, 400);
		expect(alertOf(tooBig)).toBe("The file is larger than 4 MiB: split it.");
	}, 60_000);

	it("a row's text is shown as text: markup in the file is escaped on the preview", async () => {
		const operator = await signedInOperator();
		const html = await previewPage(
			operator,
			`external_id,carrier,tracking_number\n"<script>alert(1)</script>",<b>UPS</b>,<img src=x onerror=alert(2)>\n`,
		);
		expect(html).not.toMatch(/<script>alert|<b>UPS|<img src=x/);
		expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
	});

	it("a file without the needed columns is a 422 page naming the columns found and expected", async () => {
		const operator = await signedInOperator();
		const html = await previewPage(operator, "Order;Carrier\n", 422);
		expect(alertOf(html)).toBe(
			'The header row is missing order_id or external_id and tracking_number. Read as semicolon-separated, it has the columns "Order", "Carrier"; the import needs order_id or external_id, carrier and tracking_number, and tracking_url unless the carrier\'s page follows from the number.',
		);
	});
});
