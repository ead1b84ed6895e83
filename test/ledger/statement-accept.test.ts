import { describe, expect, it } from "vitest";
import { api, createPartner } from "../helpers.ts";
import { currentMonth } from "./ledger-helpers.ts";

/** The media type GET /v1/statements/{month} answers `accept` with. */
async function answeredType(key: string, accept: string): Promise<string> {
	const response = await api(`/v1/statements/${currentMonth()}`, { key, headers: { Accept: accept } });
	expect(response.status).toBe(200);
	await response.arrayBuffer();
	return (response.headers.get("Content-Type") ?? "").split(";")[0] ?? "";
}

describe("GET /v1/statements/{month}: the answer's type follows Accept's q values", () => {
	it.each([
		["text/csv;q=0.1, application/json", "application/json"],
		["text/csv; q=0.5, application/json; q=0.9", "application/json"],
		["application/json;q=0.2, text/csv", "text/csv"],
		["text/csv;q=0, */*", "application/json"],
		["text/csv", "text/csv"],
		["text/csv, application/json", "text/csv"],
		["text/*", "text/csv"],
		["*/*", "application/json"],
		["", "application/json"],
		["image/png", "application/json"],
	])("Accept: %j is answered as %s", async (accept, type) => {
		const key = (await createPartner()).keys.live.key;
		expect(await answeredType(key, accept)).toBe(type);
	});
});
