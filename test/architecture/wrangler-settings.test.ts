/**
 * The settings wrangler.toml gives each environment agree with its bindings: WEBHOOK_QUEUE is the
 * queue the producer sends to, WEBHOOK_DEAD_LETTER_QUEUE is that queue's dead-letter queue, and
 * the two differ (the consumer tells them apart by name).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unstable_readConfig } from "wrangler";

const CONFIG = path.join(import.meta.dirname, "../../wrangler.toml");

describe("wrangler.toml's queue settings", () => {
	it.each([
		["production", undefined],
		["staging", "staging"],
	])("%s: WEBHOOK_QUEUE is the producer's queue and WEBHOOK_DEAD_LETTER_QUEUE its dead-letter queue", (_, name) => {
		const config = unstable_readConfig({ config: CONFIG, env: name });
		const vars = config.vars as Record<string, string>;
		const producers: { binding: string; queue: string }[] = config.queues.producers ?? [];
		const consumers: { queue: string; dead_letter_queue?: string }[] = config.queues.consumers ?? [];
		const producer = producers.find((queue) => queue.binding === "WEBHOOKS");
		const consumer = consumers.find((queue) => queue.queue === producer?.queue);
		expect(vars.WEBHOOK_QUEUE).toBe(producer?.queue);
		expect(vars.WEBHOOK_DEAD_LETTER_QUEUE).toBe(consumer?.dead_letter_queue);
		expect(vars.WEBHOOK_DEAD_LETTER_QUEUE).not.toBe(vars.WEBHOOK_QUEUE);
	});
});
