/**
 * Whatever order the API accepts, held or not, every floor page that shows it answers 200: the ops
 * view, the console's order page, the packing slip, the work ticket, and the batches of tickets of
 * every status it can be in. Items are generated across every size the schema allows (fractions a
 * bench cannot measure included), known and unknown parts, mats, double mats and fits.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../src/catalog/schema.ts";
import { consoleRequest, type Operator, signedInOperator } from "../console/console-helpers.ts";
import { api, createKeyWithScopes } from "../helpers.ts";
import {
	externalId,
	partnerWithFile,
	postOrder,
	readyFile,
	SHIP_TO,
	settleValidation,
} from "../orders/order-helpers.ts";

const SEED = 20261124;
const NUM_RUNS = 30;

let key: string;
let ops: string;
let operator: Operator;
let catalog: Catalog;
/** A square file big enough for 200 in at 150 DPI, and an ordinary one (300 DPI at 8 × 10 in). */
let files: string[];

beforeAll(async () => {
	const partner = await partnerWithFile();
	key = partner.key;
	files = [await readyFile(key, 30_000, 30_000), partner.file];
	ops = await createKeyWithScopes(["ops"]);
	operator = await signedInOperator();
	catalog = (await (await api("/v1/catalog", { key })).json()) as Catalog;
});

/** Inches as the schema takes them: whole, sixteenths, any double in (0, 1000], and the awkward ones. */
const inches = fc.oneof(
	fc.integer({ min: 1, max: 60 }),
	fc.integer({ min: 1, max: 60 * 16 }).map((sixteenths) => sixteenths / 16),
	fc.double({ min: Number.MIN_VALUE, max: 200, noNaN: true }),
	fc.double({ min: 200, max: 1000, noNaN: true }),
	fc.constantFrom(0.125, 16.3, 1 / 3, 1000, Number.MIN_VALUE, 39.99999999),
);

/** A catalog slug of `kind`, or one the catalog lacks (call once the catalog is read). */
function slugOf(kind: "frames" | "mats" | "glazings" | "papers"): fc.Arbitrary<string> {
	return fc.oneof(
		{ weight: 3, arbitrary: fc.constantFrom(...catalog[kind].map((part) => part.slug)) },
		fc.constantFrom("no-such-part", "x", "a".repeat(64)),
	);
}

/** Eighths of an inch in [min, max]. */
function eighths(min: number, max: number): fc.Arbitrary<number> {
	return fc.integer({ min: min * 8, max: max * 8 }).map((value) => value / 8);
}

/** The framing fields of an item: unframed, framed, matted or double-matted, each part known or not. */
function framings(): fc.Arbitrary<Record<string, unknown>> {
	const framed = fc.record(
		{ frame: slugOf("frames"), glazing: fc.oneof(slugOf("glazings"), fc.constant("none")) },
		{ requiredKeys: ["frame"] },
	);
	const matted = fc
		.tuple(framed, slugOf("mats"), eighths(1, 6), eighths(0, 2), fc.boolean())
		.map(([frame, mat, border, extra, weighted]) => ({
			...frame,
			mat,
			mat_border_in: border,
			...(weighted ? { mat_bottom_border_in: Math.min(8, border + extra) } : {}),
		}));
	const doubled = fc
		.tuple(matted, slugOf("mats"), eighths(0.125, 0.5))
		.map(([mat, inner, reveal]) => ({ ...mat, inner_mat: inner, inner_mat_reveal_in: reveal }));
	return fc.oneof(fc.constant({}), framed, matted, doubled);
}

/** An item the schema takes (a file too small for its size is a 422 at the create: those orders are skipped). */
function items(): fc.Arbitrary<Record<string, unknown>> {
	return fc
		.tuple(
			fc.record({
				print_file_id: fc.constantFrom(...files),
				width_in: inches,
				height_in: inches,
				paper: slugOf("papers"),
				fit: fc.constantFrom("fill", "fit"),
				quantity: fc.integer({ min: 1, max: 100 }),
			}),
			framings(),
		)
		.map(([item, framing]) => ({ ...item, ...framing }));
}

/** What an order may go through after its create: nothing more, or the partner's cancel. */
const afterwards = fc.constantFrom("settle", "cancel");

/** Every floor page of one order, by name, with its status. */
async function pageStatuses(orderId: string): Promise<[string, number, string][]> {
	const pages: [string, Promise<Response>][] = [
		["ops view", api(`/v1/ops/orders/${orderId}`, { key: ops })],
		["API packing slip", api(`/v1/ops/orders/${orderId}/packing-slip`, { key: ops })],
		["API work ticket", api(`/v1/ops/orders/${orderId}/work-ticket`, { key: ops })],
		["console order page", consoleRequest(`/ops/orders/${orderId}`, { cookie: operator.cookie })],
		["console packing slip", consoleRequest(`/ops/orders/${orderId}/packing-slip`, { cookie: operator.cookie })],
		["console work ticket", consoleRequest(`/ops/orders/${orderId}/work-ticket`, { cookie: operator.cookie })],
	];
	const answered: [string, number, string][] = [];
	for (const [name, pending] of pages) {
		const response = await pending;
		answered.push([name, response.status, (await response.text()).slice(0, 300)]);
	}
	return answered;
}

describe("floor pages of every order the API accepts", () => {
	it("every floor page and every batch of tickets answers 200, whatever the items", async () => {
		let accepted = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(items(), { minLength: 1, maxLength: 3 }), afterwards, async (orderItems, next) => {
				const response = await postOrder(key, {
					external_id: externalId("FLOOR"),
					ship_to: SHIP_TO,
					items: orderItems,
				});
				if (response.status !== 201) {
					expect(response.status, await response.text()).toBe(422);
					return;
				}
				accepted += 1;
				const { id } = (await response.json()) as { id: string };
				await settleValidation(key, id);
				if (next === "cancel") await api(`/v1/orders/${id}/cancel`, { key, method: "POST" });
				for (const [name, status, text] of await pageStatuses(id)) {
					expect(status, `${name} of ${JSON.stringify(orderItems)}: ${text}`).toBe(200);
				}
			}),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
		// The property says something only if orders got through the create.
		expect(accepted).toBeGreaterThanOrEqual(NUM_RUNS / 3);
		for (const status of ["on_hold", "in_production", "canceled"]) {
			const query = `status=${status}&limit=50`;
			const batch = await api(`/v1/ops/work-tickets?${query}`, { key: ops });
			expect(batch.status, `API batch ${status}: ${(await batch.text()).slice(0, 300)}`).toBe(200);
			const page = await consoleRequest(`/ops/work-tickets?${query}`, { cookie: operator.cookie });
			expect(page.status, `console batch ${status}`).toBe(200);
			await page.body?.cancel();
		}
	});
});
