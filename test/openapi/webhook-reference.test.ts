import { describe, expect, it } from "vitest";
import { OPENAPI_PATH } from "../../src/openapi/document.ts";
import { SENT_EVENT_TYPES } from "../../src/openapi/event-catalog.ts";
import { api } from "../helpers.ts";

type Document = { info: { description: string }; webhooks?: Record<string, unknown> };

async function servedDocument(): Promise<Document> {
	const response = await api(OPENAPI_PATH);
	expect(response.status).toBe(200);
	return (await response.json()) as Document;
}

describe("the served reference documents every webhook that is sent", () => {
	it("has each of the 12 sent events in the document's webhooks, and nothing sent is missing", async () => {
		const document = await servedDocument();
		expect(SENT_EVENT_TYPES).toHaveLength(12);
		expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...SENT_EVENT_TYPES, "ping"].sort());
	});

	it("its introduction's Webhooks paragraph names each of the 12 sent events", async () => {
		const { description } = (await servedDocument()).info;
		const paragraph = description.split("\n\n").find((text) => text.startsWith("**Webhooks.**")) ?? "";
		for (const type of SENT_EVENT_TYPES) expect(paragraph, type).toContain(`\`${type}\``);
	});
});
