/**
 * The cost tracer's totals route exists only with COST_TRACE on (the workers-traced project, the
 * dollar bench); this project runs the Worker as deployed, where it must not answer.
 */
import { describe, expect, it } from "vitest";
import { BILLED_PATH } from "../../src/dev-tools/billing.ts";
import { api, createPartner, expectError } from "../helpers.ts";

describe(BILLED_PATH, () => {
	it("is a 404 route_not_found without COST_TRACE, with or without a key", async () => {
		const partner = await createPartner();
		for (const key of [undefined, partner.keys.live.key]) {
			const response = await api(BILLED_PATH, key === undefined ? {} : { key });
			expect((await expectError(response, "not_found")).code).toBe("route_not_found");
		}
	});
});
