/**
 * Cloudflare's list prices on the Workers Paid plan, as the dollar bench (`npm run bench:dollars`)
 * applies them: each with the monthly allowance the plan includes, the page it was read from and the
 * day it was read. Change a price here and every figure the bench prints follows.
 */

/** The day every price below was read from its page. */
export const PRICES_READ_ON = "2026-11-24";

/** One billed unit's price. */
export type Price = {
	/** What is billed, in the page's words. */
	unit: string;
	/** US dollars per `per` units past the allowance. */
	dollars: number;
	per: number;
	/** Units included each month on Workers Paid. */
	includedPerMonth: number;
	/** The page the price and allowance come from. */
	source: string;
};

const WORKERS_PAGE = "https://developers.cloudflare.com/workers/platform/pricing/";
const D1_PAGE = "https://developers.cloudflare.com/d1/platform/pricing/";
const DURABLE_OBJECTS_PAGE = "https://developers.cloudflare.com/durable-objects/platform/pricing/";
const R2_PAGE = "https://developers.cloudflare.com/r2/pricing/";
const QUEUES_PAGE = "https://developers.cloudflare.com/queues/platform/pricing/";

const MILLION = 1_000_000;

/** The Workers Paid plan's monthly minimum, which includes every allowance below. */
export const WORKERS_PAID_MONTHLY_DOLLARS = { dollars: 5, source: WORKERS_PAGE } as const;

export const PRICES = {
	workerRequests: {
		unit: "Worker requests (inbound requests; cron and queue consumer invocations counted as one each)",
		dollars: 0.3,
		per: MILLION,
		includedPerMonth: 10 * MILLION,
		source: WORKERS_PAGE,
	},
	workerCpuMs: {
		unit: "Worker CPU milliseconds",
		dollars: 0.02,
		per: MILLION,
		includedPerMonth: 30 * MILLION,
		source: WORKERS_PAGE,
	},
	d1RowsRead: {
		unit: "D1 rows read",
		dollars: 0.001,
		per: MILLION,
		includedPerMonth: 25_000 * MILLION,
		source: D1_PAGE,
	},
	d1RowsWritten: {
		unit: "D1 rows written",
		dollars: 1,
		per: MILLION,
		includedPerMonth: 50 * MILLION,
		source: D1_PAGE,
	},
	d1StorageGbMonth: { unit: "D1 storage, GB-month", dollars: 0.75, per: 1, includedPerMonth: 5, source: D1_PAGE },
	doRequests: {
		unit: "Durable Object requests (each RPC call, fetch and alarm)",
		dollars: 0.15,
		per: MILLION,
		includedPerMonth: 1 * MILLION,
		source: DURABLE_OBJECTS_PAGE,
	},
	doDurationGbS: {
		unit: "Durable Object duration, GB-s (128 MB per object while active)",
		dollars: 12.5,
		per: MILLION,
		includedPerMonth: 400_000,
		source: DURABLE_OBJECTS_PAGE,
	},
	r2ClassA: {
		unit: "R2 class A operations (put, list, multipart)",
		dollars: 4.5,
		per: MILLION,
		includedPerMonth: 1 * MILLION,
		source: R2_PAGE,
	},
	r2ClassB: {
		unit: "R2 class B operations (get, head)",
		dollars: 0.36,
		per: MILLION,
		includedPerMonth: 10 * MILLION,
		source: R2_PAGE,
	},
	r2StorageGbMonth: {
		unit: "R2 standard storage, GB-month",
		dollars: 0.015,
		per: 1,
		includedPerMonth: 10,
		source: R2_PAGE,
	},
	queueOperations: {
		unit: "Queue operations (each 64 KB written, read or deleted)",
		dollars: 0.4,
		per: MILLION,
		includedPerMonth: 1 * MILLION,
		source: QUEUES_PAGE,
	},
} as const satisfies Record<string, Price>;

/** What `units` cost at list price, before any allowance. */
export function listDollars(price: Price, units: number): number {
	return (units / price.per) * price.dollars;
}

/** A Durable Object's memory as billed for duration: 128 MB, in GB. */
export const DURABLE_OBJECT_GB = 128 / 1000;
