import { describe, expect, it } from "vitest";
import { api } from "./helpers.ts";

describe("GET /v1/health", () => {
	it("reports ok when D1 answers, without a key", async () => {
		const response = await api("/v1/health");
		expect(response.status).toBe(200);
		const body = (await response.json()) as { status: string; database: string; time: string };
		expect(body.status).toBe("ok");
		expect(body.database).toBe("ok");
		expect(new Date(body.time).toISOString()).toBe(body.time);
	});

	it("carries a generated request id", async () => {
		const response = await api("/v1/health");
		expect(response.headers.get("X-Request-Id")).toMatch(/^req_[0-9A-Za-z]{24}$/);
	});

	it("echoes a sane incoming request id and replaces an unsafe one", async () => {
		const echoed = await api("/v1/health", { headers: { "X-Request-Id": "partner-trace-42" } });
		expect(echoed.headers.get("X-Request-Id")).toBe("partner-trace-42");
		const replaced = await api("/v1/health", { headers: { "X-Request-Id": "bad id <script>" } });
		expect(replaced.headers.get("X-Request-Id")).toMatch(/^req_/);
	});
});
