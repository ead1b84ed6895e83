/**
 * The cost tracer's routes (its totals and its cron entry) exist only with COST_TRACE on (the
 * workers-traced project, the cost benches); this project runs the Worker as deployed, where they must
 * not answer.
 */
import { describe, expect, it } from "vitest";
import { BILLED_PATH } from "../../src/dev-tools/billing.ts";
import { CRON_JOB_PATH } from "../../src/dev-tools/traced-entry.ts";
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

describe(`POST ${CRON_JOB_PATH}{job}`, () => {
	it("is a 404 route_not_found without COST_TRACE, for every job and with any key, and runs nothing", async () => {
		const partner = await createPartner();
		for (const job of ["archive-events", "expire-print-files", "restart-stalled-orders"]) {
			for (const key of [undefined, partner.keys.live.key]) {
				const response = await api(`${CRON_JOB_PATH}${job}?at=2026-11-24T09:30:00Z`, {
					method: "POST",
					...(key === undefined ? {} : { key }),
				});
				expect(response.headers.get("X-Cost")).toBeNull();
				expect((await expectError(response, "not_found")).code).toBe("route_not_found");
			}
		}
	});
});
