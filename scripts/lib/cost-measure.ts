/**
 * What `npm run bench:cost` measures against a running `wrangler dev` with COST_TRACE on: each route
 * once warm, read from its `X-Cost` header; each cron job alone, through the tracer's cron entry; and a
 * queue batch, read from the `cost_trace` line it logs (src/dev-tools/).
 */
import type { NewAccount } from "../../src/admin/provisioning.ts";
import { CRON_BATCHES, type CronJobName } from "./cost-seed.ts";
import type { DevServer } from "./dev-server.ts";
import { scenarioShipTo } from "./scenario.ts";

/** What one call cost, as X-Cost (or the logged line) says. */
export type Cost = {
	d1: number;
	do: number;
	r2: number;
	queue: number;
	innerD1: number;
	rowsRead: number;
	rowsWritten: number;
	/** Every call, side-by-side ones included: "d1:5,do:3,r2:0,queue:1". */
	calls: string;
};

export function parseCost(header: string | null): Cost {
	if (header === null) throw new Error("no X-Cost header: is COST_TRACE on?");
	const fields = new Map(
		header
			.split(";")
			.map((pair) => pair.split("="))
			.filter((pair): pair is [string, string] => pair.length === 2 && pair[0] !== undefined && pair[1] !== undefined),
	);
	const number = (name: string) => Number(fields.get(name) ?? Number.NaN);
	return {
		d1: number("d1"),
		do: number("do"),
		r2: number("r2"),
		queue: number("queue"),
		innerD1: number("inner_d1"),
		rowsRead: number("rows_read"),
		rowsWritten: number("rows_written"),
		calls: fields.get("calls") ?? "",
	};
}

export type Call = { name: string; status: number; cost: Cost };

/** The ops account's key and a partner's keys, kept across sizes. */
export type Keys = { partner: NewAccount; ops: string; admin: string };

async function json<T>(response: Response, expected: number): Promise<T> {
	const text = await response.text();
	if (response.status !== expected)
		throw new Error(`expected ${expected}, got ${response.status}: ${text.slice(0, 500)}`);
	return JSON.parse(text) as T;
}

/**
 * Measures every route once warm; returns the calls in table order. `statementMonth` (`YYYY-MM`) is the
 * month whose statement is read: the first seeded one, so a year of history may pile up after it.
 */
export async function measureRoutes(
	server: DevServer,
	keys: Keys,
	size: number,
	fileId: string,
	statementMonth: string,
): Promise<Call[]> {
	const origin = server.origin;
	const partnerKey = keys.partner.keys.live.key;
	const auth = { Authorization: `Bearer ${partnerKey}` };
	const jsonHeaders = { ...auth, "Content-Type": "application/json" };
	const ops = { Authorization: `Bearer ${keys.ops}` };
	const admin = { Authorization: `Bearer ${keys.admin}` };
	const calls: Call[] = [];

	/** Calls `request()` twice (warm-up, then measured), or once when `once`. */
	async function measure(
		name: string,
		request: () => Promise<Response>,
		options: { once?: boolean; expect?: number } = {},
	): Promise<Response> {
		if (options.once !== true) await (await request()).arrayBuffer();
		const response = await request();
		const cost = parseCost(response.headers.get("X-Cost"));
		if (response.status !== (options.expect ?? 200)) {
			throw new Error(`${name}: ${response.status} ${(await response.text()).slice(0, 500)}`);
		}
		calls.push({ name, status: response.status, cost });
		return response;
	}
	const get =
		(url: string, headers: Record<string, string> = auth) =>
		() =>
			fetch(`${origin}${url}`, { headers });
	/** A request with a JSON body, as the partner unless other headers are given. */
	const sendJson =
		(method: string, url: string, body: unknown, headers: Record<string, string> = auth) =>
		() =>
			fetch(`${origin}${url}`, {
				method,
				headers: { ...headers, "Content-Type": "application/json" },
				body: JSON.stringify(body),
			});

	// Targets among the seeded orders of the measured partner (account 0), found without measuring.
	const onHold = (
		await json<{ data: { id: string; items: { id: string }[] }[] }>(
			await fetch(`${origin}/v1/orders?status=on_hold&limit=1`, { headers: auth }),
			200,
		)
	).data[0];
	const inProduction = (
		await json<{ data: { id: string; external_id: string }[] }>(
			await fetch(`${origin}/v1/orders?status=in_production&limit=2`, { headers: auth }),
			200,
		)
	).data;
	const event = (
		await json<{ data: { id: string }[] }>(
			await fetch(`${origin}/v1/events?delivery_status=delivered&limit=1`, { headers: auth }),
			200,
		)
	).data[0];
	const cancelTarget = inProduction[0];
	const readTarget = inProduction[1];
	const onHoldItem = onHold?.items[0];
	if (onHold === undefined || onHoldItem === undefined || cancelTarget === undefined || readTarget === undefined) {
		throw new Error("the seeded partner has no on-hold or in-production orders");
	}
	if (event === undefined) throw new Error("the seeded partner has no events");

	const item = { print_file_id: fileId, width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" };
	const shipTo = scenarioShipTo("Cost Bench Buyer");
	let sequence = 0;
	const createBody = () => {
		sequence += 1;
		return JSON.stringify({ external_id: `COST-${size}-${process.pid}-${sequence}`, ship_to: shipTo, items: [item] });
	};

	await measure("GET /v1/health", get("/v1/health", {}));
	await measure("GET /v1/catalog", get("/v1/catalog"));
	await measure("GET /v1/price-book", get("/v1/price-book"));
	await measure(
		"POST /v1/quotes",
		() =>
			fetch(`${origin}/v1/quotes`, {
				method: "POST",
				headers: jsonHeaders,
				body: JSON.stringify({ ship_to: shipTo, items: [item] }),
			}),
		{ expect: 201 },
	);
	await measure("GET /v1/orders/{id}", get(`/v1/orders/${readTarget.id}`));
	await measure(
		"GET /v1/orders/by-external-id/{id}",
		get(`/v1/orders/by-external-id/${encodeURIComponent(readTarget.external_id)}`),
	);
	await measure("GET /v1/orders (a page of 20)", get("/v1/orders?limit=20"));
	await measure("GET /v1/orders?status=on_hold (a page of 5)", get("/v1/orders?status=on_hold&limit=5"));
	const created = await measure(
		"POST /v1/orders",
		() => fetch(`${origin}/v1/orders`, { method: "POST", headers: jsonHeaders, body: createBody() }),
		{ expect: 201 },
	);
	const createdOrder = (await created.json()) as { id: string; items: { id: string }[] };
	const createdItem = createdOrder.items[0];
	if (createdItem === undefined) throw new Error("the created order has no item");
	await measure(
		"PUT /v1/admin/accounts/{id}/settings",
		// The default (no edit window), so the created order still goes to the floor at once.
		sendJson("PUT", `/v1/admin/accounts/${keys.partner.account.id}/settings`, { edit_window_minutes: 0 }, admin),
		{ once: true },
	);
	await measure(
		"PATCH /v1/orders/{id} (metadata)",
		sendJson("PATCH", `/v1/orders/${readTarget.id}`, { metadata: { bench_ref: `COST-${size}` } }),
		{ once: true },
	);
	// The on-hold order may still change its recipient; the item's fix below then sends it to validation.
	await measure(
		"PATCH /v1/orders/{id} (recipient, on hold)",
		sendJson("PATCH", `/v1/orders/${onHold.id}`, { ship_to: scenarioShipTo(`Cost Bench Recipient ${size}`) }),
		{ once: true },
	);
	await measure(
		"PATCH /v1/orders/{id}/items/{item_id}",
		() =>
			fetch(`${origin}/v1/orders/${onHold.id}/items/${onHoldItem.id}`, {
				method: "PATCH",
				headers: jsonHeaders,
				body: JSON.stringify({ print_file_id: fileId }),
			}),
		{ once: true },
	);
	await measure(
		"POST /v1/orders/{id}/cancel",
		() => fetch(`${origin}/v1/orders/${cancelTarget.id}/cancel`, { method: "POST", headers: auth }),
		{ once: true },
	);
	await measure("GET /v1/events (a page of 20)", get("/v1/events?limit=20"));
	await measure("GET /v1/events?delivery_status=failed", get("/v1/events?delivery_status=failed&limit=20"));
	await measure("GET /v1/events?type=order.on_hold", get("/v1/events?type=order.on_hold&limit=20"));
	await measure(
		"POST /v1/events/{id}/redeliver",
		() => fetch(`${origin}/v1/events/${event.id}/redeliver`, { method: "POST", headers: auth }),
		{ once: true },
	);
	await measure("GET /v1/ops/orders (a page of 50)", get("/v1/ops/orders", ops));
	await measure("GET /v1/ops/orders?status=on_hold", get("/v1/ops/orders?status=on_hold", ops));
	await measure(
		"GET /v1/ops/orders?account_id=&status=on_hold (a page of 5)",
		get(`/v1/ops/orders?account_id=${keys.partner.account.id}&status=on_hold&limit=5`, ops),
	);
	await measure(
		"GET /v1/ops/orders?q=<external id>",
		get(`/v1/ops/orders?q=${encodeURIComponent(readTarget.external_id)}`, ops),
	);
	await measure(
		"GET /v1/ops/orders?q=<partner name>",
		get(`/v1/ops/orders?q=${encodeURIComponent("Seed Partner 000")}`, ops),
	);

	// The created order, once validated (it has a real file in R2), for the floor's views of one order.
	await waitForStatus(origin, auth, createdOrder.id, "in_production");
	await measure("GET /v1/ops/orders/{id}", get(`/v1/ops/orders/${createdOrder.id}`, ops));
	await measure("GET /v1/ops/orders/{id}/work-ticket", get(`/v1/ops/orders/${createdOrder.id}/work-ticket`, ops));

	await measure("POST /v1/addresses/check", () =>
		fetch(`${origin}/v1/addresses/check`, {
			method: "POST",
			headers: jsonHeaders,
			body: JSON.stringify({ ship_to: shipTo, shipping_method: "standard" }),
		}),
	);
	const csv = `order_id,carrier,tracking_number\n${readTarget.id},UPS,1Z999AA10123456784\n`;
	await measure("POST /v1/ops/shipments/import/preview", () =>
		fetch(`${origin}/v1/ops/shipments/import/preview`, {
			method: "POST",
			headers: { ...ops, "Content-Type": "text/csv" },
			body: csv,
		}),
	);
	const shipped = await measure(
		"POST /v1/ops/orders/{id}/shipments",
		() =>
			fetch(`${origin}/v1/ops/orders/${createdOrder.id}/shipments`, {
				method: "POST",
				headers: { ...ops, "Content-Type": "application/json" },
				body: JSON.stringify({ carrier: "UPS", number: `1ZCOST${size}` }),
			}),
		{ once: true, expect: 201 },
	);
	const shipment = (await shipped.json()) as { id: string };
	await measure(
		"POST /v1/ops/shipments/{id}/deliver",
		() => fetch(`${origin}/v1/ops/shipments/${shipment.id}/deliver`, { method: "POST", headers: ops }),
		{ once: true },
	);

	const cookie = await signIn(origin, keys.ops);
	const session = { Cookie: cookie };
	await measure("GET /ops/orders (console queue)", get("/ops/orders", session));
	await measure("GET /ops/orders/{id} (console order page)", get(`/ops/orders/${createdOrder.id}`, session));

	// Claims: the created order is delivered now, with its shipment, so it may be claimed as the wrong item.
	await measure(
		"GET /v1/orders/{id}/actions (delivered, with shipments)",
		get(`/v1/orders/${createdOrder.id}/actions`),
	);
	const claimed = await measure(
		"POST /v1/orders/{id}/claims",
		sendJson("POST", `/v1/orders/${createdOrder.id}/claims`, {
			reason: "wrong_item",
			items: [{ item_id: createdItem.id, quantity: 1 }],
			description: "A landscape came instead of the portrait.",
		}),
		{ once: true, expect: 201 },
	);
	const claim = (await claimed.json()) as { id: string };
	await measure("GET /v1/orders/{id}/claims", get(`/v1/orders/${createdOrder.id}/claims`));
	await measure("GET /v1/claims/{id}", get(`/v1/claims/${claim.id}`));
	await measure("GET /v1/claims (a page of 20)", get("/v1/claims?limit=20"));
	await measure("GET /v1/ops/claims (a page of 20)", get("/v1/ops/claims?limit=20", ops));
	await measure("GET /ops/claims (console claims)", get("/ops/claims", session));
	await measure("GET /ops/claims/{id} (console claim page)", get(`/ops/claims/${claim.id}`, session));
	await measure(
		"POST /v1/ops/claims/{id}/approve",
		sendJson("POST", `/v1/ops/claims/${claim.id}/approve`, { remedy: "refund" }, ops),
		{ once: true },
	);

	// The ledger: the first seeded month's statement, as JSON and as CSV, and an adjustment by the service team.
	await measure("GET /v1/statements/{YYYY-MM}", get(`/v1/statements/${statementMonth}`));
	await measure(
		"GET /v1/statements/{YYYY-MM} (CSV)",
		get(`/v1/statements/${statementMonth}`, { ...auth, Accept: "text/csv" }),
	);
	await measure(
		"POST /v1/admin/accounts/{id}/adjustments",
		sendJson(
			"POST",
			`/v1/admin/accounts/${keys.partner.account.id}/adjustments`,
			{ mode: "live", amount_cents: -2500, memo: "Goodwill credit for a late shipment" },
			admin,
		),
		{ once: true, expect: 201 },
	);

	// Thumbnails: the uploaded file's is made by the THUMBNAILS queue's consumer under wrangler dev.
	await waitForThumbnail(origin, auth, fileId);
	await measure("GET /v1/print-files/{id}", get(`/v1/print-files/${fileId}`));
	await measure("GET /v1/print-files/{id}/thumbnail", get(`/v1/print-files/${fileId}/thumbnail`));
	await measure("GET /v1/ops/print-files/{id}/thumbnail", get(`/v1/ops/print-files/${fileId}/thumbnail`, ops));

	// Framed previews: each drawn once, then the same again from its cached PNG (the steady cost). A
	// preview's cache key is its content, so the width differs at each size for the first call to draw.
	const preview = sendJson("POST", "/v1/previews", { ...item, width_px: 200 + Math.round(size / 1000) });
	await measure("POST /v1/previews (first draw)", preview, { once: true });
	await measure("POST /v1/previews (cached repeat)", preview, { once: true });
	const itemPreview = get(
		`/v1/orders/${createdOrder.id}/items/${createdItem.id}/preview?width_px=${400 + Math.round(size / 1000)}`,
	);
	await measure("GET /v1/orders/{id}/items/{item_id}/preview (first draw)", itemPreview, { once: true });
	await measure("GET /v1/orders/{id}/items/{item_id}/preview (cached repeat)", itemPreview, { once: true });
	return calls;
}

/** Waits, at most a minute, for the print file's thumbnail to be made; fails saying so when it is not. */
async function waitForThumbnail(origin: string, headers: Record<string, string>, id: string): Promise<void> {
	const deadline = Date.now() + 60_000;
	let status = "unknown";
	while (Date.now() < deadline) {
		const file = await json<{ thumbnail: { status: string; reason: string | null } }>(
			await fetch(`${origin}/v1/print-files/${id}`, { headers }),
			200,
		);
		status = file.thumbnail.status;
		if (status === "ready") return;
		if (status === "unavailable")
			throw new Error(`print file ${id}'s thumbnail is unavailable: ${file.thumbnail.reason}`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(
		`print file ${id}'s thumbnail was not ready within 60 s (still ${status}): is the THUMBNAILS queue's consumer running under wrangler dev?`,
	);
}

async function waitForStatus(
	origin: string,
	headers: Record<string, string>,
	id: string,
	status: string,
): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		const order = await json<{ status: string }>(await fetch(`${origin}/v1/orders/${id}`, { headers }), 200);
		if (order.status === status) return;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`order ${id} did not reach ${status}`);
}

async function signIn(origin: string, key: string): Promise<string> {
	const response = await fetch(`${origin}/ops/sign-in`, {
		method: "POST",
		headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, "Sec-Fetch-Site": "same-origin" },
		body: new URLSearchParams({ key }).toString(),
		redirect: "manual",
	});
	const pair = response.headers.getSetCookie()[0]?.split(";")[0];
	if (response.status !== 303 || pair === undefined) throw new Error(`sign-in failed: ${response.status}`);
	return pair;
}

/** Each cron job's name in the tables, by the name the tracer's cron entry runs it under. */
export const CRON_JOB_LABELS: Record<CronJobName, string> = {
	"restart-stalled-orders": "restart stalled orders",
	"sweep-deliveries": "deliveries sweep",
	"sweep-thumbnails": "thumbnails sweep",
	"charge-released-orders": "charge sweep",
	"archive-events": "events archive",
	"expire-print-files": "print-file retention",
};

/** How many items a job's answer says it took: a count, or the retention sweep's files expired and kept. */
function itemsTaken(result: unknown): number {
	if (typeof result === "number") return result;
	const run = result as { expired?: unknown; postponed?: unknown };
	if (typeof run.expired === "number" && typeof run.postponed === "number") return run.expired + run.postponed;
	throw new Error(`a cron job answered ${JSON.stringify(result)}`);
}

/**
 * Runs each cron job alone through the tracer's entry (`POST /__cost-trace/cron/{job}`), twice at the
 * same instant `at`: with its one seeded batch due, then with nothing due. Then the first webhook queue
 * batch the deliveries sweep's messages made, read from the log. Returns the rows, and each run that did
 * not take what was due (a batch, then nothing) as a problem.
 */
export async function measureCronJobs(
	server: DevServer,
	lines: string[],
	at: Date,
): Promise<{ calls: Call[]; problems: string[] }> {
	const calls: Call[] = [];
	const problems: string[] = [];
	let queueStart = lines.length;
	for (const [job, batch] of Object.entries(CRON_BATCHES) as [CronJobName, number][]) {
		if (job === "sweep-deliveries") queueStart = lines.length;
		for (const [expected, name] of [
			[batch, `cron: ${CRON_JOB_LABELS[job]} (a batch of ${batch} due)`],
			[0, `cron: ${CRON_JOB_LABELS[job]} (nothing due)`],
		] as const) {
			const response = await fetch(`${server.origin}/__cost-trace/cron/${job}?at=${at.toISOString()}`, {
				method: "POST",
			});
			const cost = parseCost(response.headers.get("X-Cost"));
			const answer = await json<{ result: unknown }>(response, 200);
			const taken = itemsTaken(answer.result);
			if (taken !== expected) problems.push(`${name}: took ${taken}, expected ${expected}`);
			calls.push({ name, status: response.status, cost });
		}
	}
	const queue = await loggedQueueBatch(lines, queueStart);
	if (queue?.cost !== undefined) {
		calls.push({ name: `queue batch (${queue.messages ?? "?"} messages)`, status: 0, cost: parseCost(queue.cost) });
	} else {
		problems.push("the webhook queue logged no batch within 30 s of the deliveries sweep");
	}
	return { calls, problems };
}

/** The first webhook queue batch's logged cost after line `after`, waiting at most 30 s for it. */
async function loggedQueueBatch(
	lines: string[],
	after: number,
): Promise<{ cost?: string; messages?: number } | undefined> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		const found = lines
			.slice(after)
			.map((line) => {
				try {
					return JSON.parse(line) as { cost_trace?: string; cost?: string; messages?: number };
				} catch {
					return {};
				}
			})
			.find(
				(entry) => entry.cost_trace?.startsWith("queue:framed-print-webhooks") && !entry.cost_trace.endsWith("-dlq"),
			);
		if (found !== undefined) return found;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	return undefined;
}
