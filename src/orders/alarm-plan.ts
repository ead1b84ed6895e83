/**
 * When an order's Durable Object next wakes for it: validation at once, the sandbox's next step after its
 * delay, and the end of the edit window of an order in production (its charge, as the floor gets it).
 */
import { configOf } from "../config.ts";
import { windowEndMs } from "./edit-window.ts";
import { byHand } from "./plan-next.ts";
import type { OrderRow } from "./rows.ts";

/** Time between the sandbox's automatic steps for test-mode orders. */
function sandboxStepMs(env: Env): number {
	return configOf(env).SANDBOX_STEP_SECONDS * 1000;
}

/** The epoch milliseconds of the order's next alarm, or null when nothing waits for one. */
export function nextAlarmAt(env: Env, order: OrderRow, nowMs: number): number | null {
	// Validation runs at once, inside the edit window too: the window holds back the floor, not the checks.
	if (order.status === "validating") return nowMs;
	const testStep =
		order.mode === "test" && !byHand(order) && (order.status === "in_production" || order.status === "shipped");
	// The sandbox plays the floor, which leaves an order alone until its edit window has passed, then
	// starts it, then ships it, a step apart.
	if (testStep) return Math.max(nowMs + sandboxStepMs(env), windowEndMs(order));
	const windowEnd = windowEndMs(order);
	return order.status === "in_production" && windowEnd > nowMs ? windowEnd : null;
}
