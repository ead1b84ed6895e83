/** The worked example of docs/pricing.md is what the API answers: its request and its numbers are read from the page itself. */
import { describe, expect, it } from "vitest";
import pricingPage from "../../docs/pricing.md?raw";
import type { Quote } from "../../src/quotes/schema.ts";
import { createPartner, send } from "../helpers.ts";

/** The body of the first fenced block after `heading` whose info string is `info`. */
function fencedBlock(text: string, heading: string, info: string): string {
	const from = text.indexOf(heading);
	expect(from).toBeGreaterThanOrEqual(0);
	const open = text.indexOf(`\`\`\`${info}\n`, from);
	expect(open).toBeGreaterThanOrEqual(0);
	const start = open + info.length + 4;
	return text.slice(start, text.indexOf("```", start));
}

type WorkedExample = {
	unit_price: Quote["items"][number]["unit_price"];
	package: Quote["shipping_options"][number]["packages"][number];
	express: { cost: number; delivery_days: { min: number; max: number } };
	total_with_express: number;
};

describe("the worked example of docs/pricing.md", () => {
	it("is what POST /v1/quotes answers, number for number", async () => {
		const request = JSON.parse(fencedBlock(pricingPage, "## A worked example", "json")) as unknown;
		const expected = JSON.parse(
			fencedBlock(pricingPage, "## A worked example", "json worked-example"),
		) as WorkedExample;
		const response = await send("POST", "/v1/quotes", (await createPartner()).keys.live.key, request);
		expect(response.status).toBe(201);
		const quote = (await response.json()) as Quote;
		expect(quote.items[0]?.unit_price).toEqual(expected.unit_price);
		const express = quote.shipping_options.find((option) => option.method === "express");
		expect(express?.packages).toEqual([expected.package]);
		expect({ cost: express?.cost, delivery_days: express?.delivery_days }).toEqual(expected.express);
		expect(quote.totals.by_method.express?.total).toBe(expected.total_with_express);
	});
});
