/**
 * The settings wrangler.toml gives each environment agree with its bindings: WEBHOOK_QUEUE is the
 * queue the producer sends to, WEBHOOK_DEAD_LETTER_QUEUE is that queue's dead-letter queue, and
 * the two differ (the consumer tells them apart by name).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";
import { z } from "zod";

const CONFIG = path.join(import.meta.dirname, "../../wrangler.toml");

/** What the test reads of wrangler's configuration. */
const QueueSettings = z.object({
	vars: z.record(z.string(), z.unknown()),
	queues: z.object({
		producers: z.array(z.object({ binding: z.string(), queue: z.string() })).optional(),
		consumers: z.array(z.object({ queue: z.string(), dead_letter_queue: z.string().optional() })).optional(),
	}),
});

describe("wrangler.toml's queue settings", () => {
	it.each([
		["production", undefined],
		["staging", "staging"],
	])("%s: WEBHOOK_QUEUE is the producer's queue and WEBHOOK_DEAD_LETTER_QUEUE its dead-letter queue", (_, name) => {
		// wrangler's published types do not resolve its Config type here: the fields used are parsed, not assumed.
		const { vars, queues } = QueueSettings.parse(unstable_readConfig({ config: CONFIG, env: name }));
		const producers = queues.producers ?? [];
		const consumers = queues.consumers ?? [];
		const producer = producers.find((queue) => queue.binding === "WEBHOOKS");
		const consumer = consumers.find((queue) => queue.queue === producer?.queue);
		expect(vars.WEBHOOK_QUEUE).toBe(producer?.queue);
		expect(vars.WEBHOOK_DEAD_LETTER_QUEUE).toBe(consumer?.dead_letter_queue);
		expect(vars.WEBHOOK_DEAD_LETTER_QUEUE).not.toBe(vars.WEBHOOK_QUEUE);
	});

	it.each([
		["production", undefined],
		["staging", "staging"],
	])("%s: THUMBNAIL_QUEUE is the THUMBNAILS producer's queue, consumed by this Worker", (_, name) => {
		const { vars, queues } = QueueSettings.parse(unstable_readConfig({ config: CONFIG, env: name }));
		const producer = (queues.producers ?? []).find((queue) => queue.binding === "THUMBNAILS");
		expect(vars.THUMBNAIL_QUEUE).toBe(producer?.queue);
		expect((queues.consumers ?? []).map((queue) => queue.queue)).toContain(vars.THUMBNAIL_QUEUE);
		expect(vars.THUMBNAIL_QUEUE).not.toBe(vars.WEBHOOK_QUEUE);
	});
});
