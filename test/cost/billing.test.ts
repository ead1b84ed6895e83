/**
 * The billed totals the dollar bench prices (src/dev-tools/billing.ts): each binding call and each
 * invocation counted in the unit Cloudflare bills it in. This project runs with COST_TRACE=1, so the
 * Worker's default export is the traced one.
 */

import {
	createExecutionContext,
	createMessageBatch,
	createScheduledController,
	getQueueResult,
	runDurableObjectAlarm,
	runInDurableObject,
	waitOnExecutionContext,
} from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
	BILLED_PATH,
	type Billed,
	billedBetween,
	billedSoFar,
	queueOperationsOf,
	r2OperationClass,
} from "../../src/dev-tools/billing.ts";
import { tracedEnv } from "../../src/dev-tools/traced-bindings.ts";
import { costTracedWorker } from "../../src/dev-tools/traced-entry.ts";
import worker from "../../src/index.ts";
import type { DeliveryMessage } from "../../src/webhooks/enqueue.ts";
import { createPartner } from "../helpers.ts";

/** The Worker's billed totals, as the bench reads them. */
async function billedByWorker(): Promise<Billed> {
	const response = await exports.default.fetch(new Request(`https://api.test${BILLED_PATH}`));
	return (await response.json()) as Billed;
}

/** The billed units that changed while `work` ran, in this isolate. */
async function billedDuring(work: () => Promise<unknown>): Promise<Partial<Billed>> {
	const before = billedSoFar();
	await work();
	const difference = billedBetween(before, billedSoFar());
	return Object.fromEntries(Object.entries(difference).filter(([, count]) => count !== 0));
}

const traced = () => tracedEnv(env, () => undefined);

describe("R2 operations by class", () => {
	it("names put, list and multipart creation class A, get and head class B, delete free", () => {
		expect(["put", "list", "createMultipartUpload"].map(r2OperationClass)).toEqual(["A", "A", "A"]);
		expect(["get", "head"].map(r2OperationClass)).toEqual(["B", "B"]);
		expect(r2OperationClass("delete")).toBe("free");
		expect(r2OperationClass("resumeMultipartUpload")).toBeNull();
	});

	it("counts a put as one class A operation and a get and a head as one class B each", async () => {
		const bucket = traced().PRINT_FILES;
		expect(await billedDuring(() => bucket.put("billing/one", "bytes"))).toEqual({ r2ClassA: 1 });
		expect(await billedDuring(async () => (await bucket.get("billing/one"))?.text())).toEqual({ r2ClassB: 1 });
		expect(await billedDuring(() => bucket.head("billing/one"))).toEqual({ r2ClassB: 1 });
	});

	it("counts a get of a missing object as class B, a list as class A and a delete as free", async () => {
		const bucket = traced().PRINT_FILES;
		expect(await billedDuring(() => bucket.get("billing/missing"))).toEqual({ r2ClassB: 1 });
		expect(await billedDuring(() => bucket.list({ prefix: "billing/" }))).toEqual({ r2ClassA: 1 });
		expect(await billedDuring(() => bucket.delete("billing/one"))).toEqual({ r2Free: 1 });
	});
});

describe("queue operations", () => {
	it("bills a message one operation per 64 KB, its 100 bytes of metadata included", () => {
		expect(queueOperationsOf({ print_file_id: "pf_1", etag: "e" })).toBe(1);
		expect(queueOperationsOf("x".repeat(63_900))).toBe(1);
		expect(queueOperationsOf("x".repeat(63_901))).toBe(2);
		expect(queueOperationsOf(new Uint8Array(128_000))).toBe(3);
	});

	it("counts a send as one write and a batch of three as three", async () => {
		// Malformed thumbnail messages: the consumer, if it runs, drops them.
		const queue = traced().THUMBNAILS;
		expect(await billedDuring(() => queue.send({ billing: "one" }))).toEqual({ queueWrites: 1 });
		expect(
			await billedDuring(() => queue.sendBatch([{ body: { n: 1 } }, { body: { n: 2 } }, { body: { n: 3 } }])),
		).toEqual({ queueWrites: 3 });
	});

	it("counts a consumed batch as one invocation, a read per message and a delete per message not retried", async () => {
		const batch = createMessageBatch<DeliveryMessage>(
			"framed-print-thumbnails",
			// Neither names a file: both are dropped (acknowledged), so both are deleted.
			[1, 2].map((index) => ({
				id: `billing-${index}`,
				timestamp: new Date(),
				attempts: 1,
				body: { print_file_id: `pf_missing_${index}`, etag: "none" } as unknown as DeliveryMessage,
			})),
		);
		const ctx = createExecutionContext();
		const billed = await billedDuring(async () => {
			await worker.queue(batch, env, ctx);
			await getQueueResult(batch, ctx);
		});
		expect(billed).toMatchObject({ queueInvocations: 1, queueReads: 2, queueDeletes: 2 });
	});

	it("counts a retried message as read but not deleted, and a batch that throws as nothing deleted", async () => {
		// A consumer that retries its first message and acknowledges the rest, then one that fails whole:
		// the tracer's wrapper is what is under test, so the consumers are the smallest that do each.
		const retryingFirst = costTracedWorker<unknown>({
			fetch: () => new Response(null, { status: 404 }),
			queue: (batch) => batch.messages[0]?.retry(),
			scheduled: () => undefined,
		});
		const failing = costTracedWorker<unknown>({
			fetch: () => new Response(null, { status: 404 }),
			queue: () => {
				throw new Error("consumer failed");
			},
			scheduled: () => undefined,
		});
		const batchOf = (size: number) =>
			createMessageBatch<unknown>(
				"framed-print-thumbnails",
				Array.from({ length: size }, (_, index) => ({
					id: `retry-${index}`,
					timestamp: new Date(),
					attempts: 1,
					body: { n: index },
				})),
			);
		const retried = await billedDuring(() =>
			Promise.resolve(retryingFirst.queue(batchOf(3), env, createExecutionContext())),
		);
		expect(retried).toMatchObject({ queueInvocations: 1, queueReads: 3, queueDeletes: 2 });
		const failed = await billedDuring(() =>
			Promise.resolve(failing.queue(batchOf(2), env, createExecutionContext())).catch(() => undefined),
		);
		expect(failed).toEqual({ queueInvocations: 1, queueReads: 2 });
	});
});

describe("Worker invocations", () => {
	it("counts each incoming fetch once and the totals route not at all", async () => {
		const before = await billedByWorker();
		await exports.default.fetch(new Request("https://api.test/v1/health"));
		const after = await billedByWorker();
		expect(after.workerRequests - before.workerRequests).toBe(1);
	});

	it("counts a request's limiter call as a Durable Object request and its D1 rows", async () => {
		const partner = await createPartner();
		const before = await billedByWorker();
		const response = await exports.default.fetch(
			new Request("https://api.test/v1/orders?limit=1", {
				headers: { Authorization: `Bearer ${partner.keys.live.key}` },
			}),
		);
		expect(response.status).toBe(200);
		const difference = billedBetween(before, await billedByWorker());
		expect(difference.doRequests).toBe(1);
		expect(difference.d1RowsRead).toBeGreaterThan(0);
	});

	it("counts a Durable Object's alarm as one request when it runs", async () => {
		const stub = env.ORDER_MACHINE.get(env.ORDER_MACHINE.idFromName("billing-alarm"));
		// An alarm set on an object with no order: it runs, finds nothing to move, and is still billed.
		await runInDurableObject(stub, (_machine, state) => state.storage.setAlarm(Date.now() + 60_000));
		const billed = await billedDuring(async () => expect(await runDurableObjectAlarm(stub)).toBe(true));
		expect(billed.doAlarms).toBe(1);
	});

	it("counts a cron run as one invocation", async () => {
		const ctx = createExecutionContext();
		const billed = await billedDuring(async () => {
			await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
			await waitOnExecutionContext(ctx);
		});
		expect(billed.cronInvocations).toBe(1);
	});
});
