import { describe, expect, it } from "vitest";
import type { LandedCostTable } from "../../src/customs/tables.ts";
import { api, createAdminKey, createPartner, expectError, send } from "../helpers.ts";

function inMinutes(minutes: number): string {
	return new Date(Date.now() + minutes * 60_000).toISOString();
}

async function readTable(key: string, query = ""): Promise<LandedCostTable> {
	const response = await api(`/v1/landed-cost-tables${query}`, { key });
	expect(response.status).toBe(200);
	return (await response.json()) as LandedCostTable;
}

/** The table in force, as a body to publish from `effectiveAt`. */
async function publishable(key: string, effectiveAt = inMinutes(60)) {
	const { version: _version, published_at: _published, effective_at: _effective, ...body } = await readTable(key);
	return { ...body, effective_at: effectiveAt };
}

describe("GET /v1/landed-cost-tables", () => {
	it("serves the seed's July 2026 table now, January's at a time before July, with a live or a test key", async () => {
		const partner = await createPartner();
		const now = await readTable(partner.keys.test.key);
		expect(now.version).toBe(2);
		expect(now.origin).toBe("US");
		expect(now.destinations.DE?.customs?.low_value_duty_per_line).toBe(300);
		const january = await readTable(partner.keys.live.key, "?at=2026-03-01T00:00:00Z");
		expect(january.version).toBe(1);
		expect(january.destinations.DE?.customs?.low_value_duty_per_line).toBeNull();
		expect(await readTable(partner.keys.live.key, "?version=2")).toEqual(now);
		await expectError(await api("/v1/landed-cost-tables"), "unauthorized");
	});

	it("a version or a time before the first table is a 404 on that field", async () => {
		const key = (await createPartner()).keys.live.key;
		const error = await expectError(await api("/v1/landed-cost-tables?version=50", { key }), "not_found", "version");
		expect(error.code).toBe("landed_cost_table_not_found");
		await expectError(await api("/v1/landed-cost-tables?at=2025-12-31T23:59:59Z", { key }), "not_found", "at");
	});
});

describe("POST /v1/admin/landed-cost-tables", () => {
	it("publishes the table whole as the next version from its effective time on", async () => {
		const admin = await createAdminKey();
		const body = await publishable(admin, inMinutes(24 * 60));
		const response = await send("POST", "/v1/admin/landed-cost-tables", admin, body);
		expect(response.status).toBe(201);
		const published = (await response.json()) as LandedCostTable;
		expect(published.version).toBeGreaterThan(2);
		expect(published.destinations).toEqual(body.destinations);
		expect((await readTable(admin)).version).toBe(2);
		expect(await readTable(admin, `?version=${published.version}`)).toEqual(published);
	});

	it("is refused to a partner key", async () => {
		const partner = await createPartner();
		const body = await publishable(partner.keys.live.key);
		await expectError(await send("POST", "/v1/admin/landed-cost-tables", partner.keys.live.key, body), "forbidden");
	});

	it("refuses a table without its origin, an origin with customs, or another destination without customs", async () => {
		const admin = await createAdminKey();
		const body = await publishable(admin);
		const { US: us, ...abroad } = body.destinations;
		const cases: [unknown, string][] = [
			[{ ...body, destinations: abroad }, "destinations"],
			[
				{ ...body, destinations: { ...abroad, US: { ...us, customs: body.destinations.DE?.customs } } },
				"destinations.US.customs",
			],
			[
				{ ...body, destinations: { ...body.destinations, FR: { ...body.destinations.FR, customs: null } } },
				"destinations.FR.customs",
			],
		];
		for (const [table, field] of cases) {
			const error = await expectError(
				await send("POST", "/v1/admin/landed-cost-tables", admin, table),
				"validation_error",
				field,
			);
			expect(error.code).toBe("landed_cost_table_incomplete");
		}
	});

	it("refuses a destination missing a kind's tariff code, a bad tariff code, a rate past 100 % and an unknown country", async () => {
		const admin = await createAdminKey();
		const body = await publishable(admin);
		const de = body.destinations.DE;
		if (de?.customs == null) throw new Error("the seed has Germany's customs");
		const { frame: _frame, ...twoCodes } = de.customs.duty.tariff_codes;
		const withDuty = (duty: object) => ({
			...body,
			destinations: {
				...body.destinations,
				DE: { ...de, customs: { ...de.customs, duty: { ...de.customs?.duty, ...duty } } },
			},
		});
		await expectError(
			await send("POST", "/v1/admin/landed-cost-tables", admin, withDuty({ tariff_codes: twoCodes })),
			"bad_request",
			"destinations.DE.customs.duty.tariff_codes.frame",
		);
		await expectError(
			await send(
				"POST",
				"/v1/admin/landed-cost-tables",
				admin,
				withDuty({ tariff_codes: { ...twoCodes, frame: "frames" } }),
			),
			"validation_error",
			"destinations.DE.customs.duty.tariff_codes.frame",
		);
		await expectError(
			await send(
				"POST",
				"/v1/admin/landed-cost-tables",
				admin,
				withDuty({ rate_bp: { ...de.customs.duty.rate_bp, frame: 10_001 } }),
			),
			"validation_error",
			"destinations.DE.customs.duty.rate_bp.frame",
		);
		const unknown = { ...body, destinations: { ...body.destinations, XX: de } };
		await expectError(
			await send("POST", "/v1/admin/landed-cost-tables", admin, unknown),
			"validation_error",
			"destinations.XX",
		);
	});

	it("refuses an effective time in the past, naming effective_at", async () => {
		const admin = await createAdminKey();
		const body = await publishable(admin, inMinutes(-6));
		const error = await expectError(
			await send("POST", "/v1/admin/landed-cost-tables", admin, body),
			"validation_error",
			"effective_at",
		);
		expect(error.code).toBe("effective_at_out_of_range");
	});
});
