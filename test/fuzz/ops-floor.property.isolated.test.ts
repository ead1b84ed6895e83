/**
 * The floor's routes under fuzzing (issue 14): the print file download, work tickets, the queue's
 * search and filters, and the shipments import, through the API and the console. Whatever arrives,
 * the answer is never a 5xx; the API's 4xx is the error envelope and the console's is a page.
 */
import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { consoleRequest, type Operator, signedInOperator } from "../console/console-helpers.ts";
import { api, createKeyWithScopes } from "../helpers.ts";
import { createOrder, orderBody, partnerWithFile, settleValidation } from "../orders/order-helpers.ts";
import { checkResponse } from "./fuzz-checks.ts";

const SEED = 20261122;
const NUM_RUNS = 40;

let ops: string;
let order: Order;
let file: string;
let operator: Operator;

beforeAll(async () => {
	const partner = await partnerWithFile();
	file = partner.file;
	order = await settleValidation(partner.key, (await createOrder(partner.key, orderBody(file))).id);
	ops = await createKeyWithScopes(["ops"]);
	operator = await signedInOperator();
});

/** A path segment: the real one, empty, or any text, percent-encoded. */
function segment(real: () => string): fc.Arbitrary<string> {
	return fc.oneof(
		{ weight: 2, arbitrary: fc.constant(null).map(() => real()) },
		fc.string({ maxLength: 80 }).map(encodeURIComponent),
		fc.string({ unit: "grapheme", maxLength: 20 }).map(encodeURIComponent),
		fc.constantFrom("ord_", "pf_", "%00", "..", "x".repeat(300)),
	);
}

/** A query string: real keys with any values, or anything at all. */
const queries = fc.oneof(
	fc
		.dictionary(
			fc.constantFrom("q", "account_id", "status", "mode", "limit", "cursor", "item_id", "paper"),
			fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom("live", "test", "in_production", "0", "51", "-1", "1e9")),
			{ maxKeys: 4 },
		)
		.map((entries) => new URLSearchParams(entries).toString()),
	fc.string({ maxLength: 60 }),
);

/** CSV-like text: the real header with rows of any fields, or anything at all. */
const csvBodies = fc.oneof(
	fc
		.array(
			fc.array(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('"', '""', ",", "\r\n", "ord_x")), {
				maxLength: 6,
			}),
			{
				maxLength: 8,
			},
		)
		.map((rows) => ["order_id,carrier,tracking_number,tracking_url", ...rows.map((row) => row.join(","))].join("\n")),
	fc.string({ maxLength: 200 }),
	fc.uint8Array({ maxLength: 200 }).map((bytes) => new TextDecoder().decode(bytes)),
);

describe("the floor's API routes under fuzzing", () => {
	it("GET /v1/ops/print-files/{id}/download: never 5xx, every 4xx the envelope", async () => {
		await fc.assert(
			fc.asyncProperty(
				segment(() => file),
				queries,
				async (id, query) => {
					const response = await api(`/v1/ops/print-files/${id}/download?${query}`, { key: ops });
					await checkResponse(response.status === 200 ? new Response("ok", { status: 200 }) : response);
					if (response.status === 200) await response.body?.cancel();
				},
			),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	});

	it("GET /v1/ops/orders/{id}/work-ticket and /v1/ops/work-tickets: never 5xx, every 4xx the envelope", async () => {
		await fc.assert(
			fc.asyncProperty(
				segment(() => order.id),
				queries,
				async (id, query) => {
					await checkResponse(await api(`/v1/ops/orders/${id}/work-ticket`, { key: ops }));
					await checkResponse(await api(`/v1/ops/work-tickets?${query}`, { key: ops }));
					await checkResponse(await api(`/v1/ops/orders?${query}`, { key: ops }));
				},
			),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	});

	it("GET /v1/ops/orders?q= of any text up to its 128 characters: never 5xx, every 4xx the envelope", async () => {
		// Long text above all: D1 refuses a LIKE pattern over 50 bytes, so a search must never build one.
		const searches = fc.oneof(
			fc.string({ unit: "grapheme", minLength: 40, maxLength: 128 }),
			fc.string({ unit: "binary", minLength: 20, maxLength: 64 }),
			fc.string({ unit: fc.constantFrom("%", "_", "\\", "x", "🖼", " "), minLength: 25, maxLength: 128 }),
		);
		await fc.assert(
			fc.asyncProperty(searches, fc.constantFrom("", "&status=in_production", "&mode=test"), async (q, more) => {
				await checkResponse(await api(`/v1/ops/orders?q=${encodeURIComponent(q)}${more}`, { key: ops }));
			}),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	});

	it("POST /v1/ops/shipments/import and its preview: never 5xx, every 4xx the envelope", async () => {
		await fc.assert(
			fc.asyncProperty(
				csvBodies,
				fc.constantFrom("text/csv", "text/csv; charset=utf-8", "application/json", "text/plain", ""),
				fc.constantFrom("/v1/ops/shipments/import", "/v1/ops/shipments/import/preview"),
				async (body, type, path) => {
					await checkResponse(
						await api(path, {
							key: ops,
							method: "POST",
							body,
							headers: { "Content-Type": type },
						}),
					);
				},
			),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	});
});

/**
 * A confirm form carrying `csv` as the preview does: with the mark its preview page gave it, so the
 * confirm imports it, or (every other length, or when the preview offered no confirm) with a mark
 * that does not match.
 */
function confirmForm(csv: string, previewPage: string): FormData {
	const form = new FormData();
	form.set("_csrf", operator.csrf);
	form.set("content", btoa(String.fromCharCode(...new TextEncoder().encode(csv))));
	const mark = /name="mark" value="([^"]*)"/.exec(previewPage)?.[1];
	form.set("mark", csv.length % 2 === 0 && mark !== undefined ? mark : "0".repeat(43));
	return form;
}

describe("the floor's console pages under fuzzing", () => {
	it("work tickets, downloads, the queue's search, the import and its confirm: never 5xx", async () => {
		await fc.assert(
			fc.asyncProperty(
				segment(() => order.id),
				queries,
				csvBodies,
				async (id, query, csv) => {
					const form = new FormData();
					form.set("_csrf", operator.csrf);
					form.set("file", new File([csv], "labels.csv", { type: "text/csv" }));
					const preview = await consoleRequest("/ops/shipments/import", {
						cookie: operator.cookie,
						method: "POST",
						body: form,
					});
					const previewPage = await preview.text();
					if (preview.status >= 500) throw new Error(`5xx: ${preview.url} ${previewPage.slice(0, 300)}`);
					const responses = [
						await consoleRequest(`/ops/orders/${id}/work-ticket`, { cookie: operator.cookie }),
						await consoleRequest(`/ops/work-tickets?${query}`, { cookie: operator.cookie }),
						await consoleRequest(`/ops/orders?${query}`, { cookie: operator.cookie }),
						await consoleRequest(`/ops/print-files/${id}/download?${query}`, { cookie: operator.cookie }),
						await consoleRequest("/ops/shipments/import/confirm", {
							cookie: operator.cookie,
							method: "POST",
							body: confirmForm(csv, previewPage),
						}),
					];
					for (const response of responses) {
						const text = await response.text();
						if (response.status >= 500) throw new Error(`5xx: ${response.url} ${text.slice(0, 300)}`);
					}
				},
			),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	}, 60_000);
});
