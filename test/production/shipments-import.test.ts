/** Shipping in bulk: `POST /v1/ops/shipments/import` (text/csv) and the console's upload. */
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { alertOf, consoleRequest, htmlOf, signedInOperator } from "../console/console-helpers.ts";
import { api, createKeyWithScopes, createPartner, expectError } from "../helpers.ts";
import {
	createOrder,
	eventTypes,
	opsMove,
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

	it("a partner key is refused with 403", async () => {
		const partner = await createPartner();
		await expectError(
			await postCsv(partner.keys.live.key, "order_id,carrier,tracking_number,tracking_url\n"),
			"forbidden",
		);
	});
});

describe("the console's Ship in bulk", () => {
	it("uploads a CSV with the form token and shows each row's result", async () => {
		const operator = await signedInOperator();
		const { ready, held } = await floor();
		const csv = [
			"order_id,carrier,tracking_number,tracking_url",
			trackingRow(ready[0]?.id ?? "", "1Z400"),
			trackingRow(held.id, "1Z401"),
		].join("\n");
		const form = new FormData();
		form.set("_csrf", operator.csrf);
		form.set("file", new File([csv], "labels.csv", { type: "text/csv" }));
		const response = await consoleRequest("/ops/shipments/import", {
			cookie: operator.cookie,
			method: "POST",
			body: form,
		});
		const html = await htmlOf(response, 200);
		expect(html).toContain("1 shipped, 0 already shipped, 1 refused.");
		expect(html).toMatch(/<tr data-line="2" data-outcome="shipped">/);
		expect(html).toMatch(/<tr data-line="3" data-outcome="refused">/);

		const withoutToken = new FormData();
		withoutToken.set("file", new File([csv], "labels.csv", { type: "text/csv" }));
		const refused = await consoleRequest("/ops/shipments/import", {
			cookie: operator.cookie,
			method: "POST",
			body: withoutToken,
		});
		expect(refused.status).toBe(403);
	});

	it("a file without the needed columns is a 422 page saying which", async () => {
		const operator = await signedInOperator();
		const form = new FormData();
		form.set("_csrf", operator.csrf);
		form.set("file", new File(["order,carrier\n"], "labels.csv", { type: "text/csv" }));
		const html = await htmlOf(
			await consoleRequest("/ops/shipments/import", { cookie: operator.cookie, method: "POST", body: form }),
			422,
		);
		expect(alertOf(html)).toContain("must name the columns");
	});
});
