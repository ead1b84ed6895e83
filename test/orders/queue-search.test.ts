/**
 * The floor's queue search (`GET /v1/ops/orders?q=`) at every length the API allows, and a name
 * search that matches more partners than it covers. Storage is per test file: these are all the
 * partners and orders there are.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { api, createKeyWithScopes, createPartner, expectError } from "../helpers.ts";
import { insertRawOrder } from "./order-helpers.ts";

type QueueAnswer = {
	data: Order[];
	next_cursor: string | null;
	partner_search: { partners: number; more_partners: boolean } | null;
};

const FILE_URL = "https://files.partner.example/queue-search/print.png";

let opsKey: string;

beforeAll(async () => {
	opsKey = await createKeyWithScopes(["ops"]);
});

async function queue(query: Record<string, string>): Promise<QueueAnswer> {
	const response = await api(`/v1/ops/orders?${new URLSearchParams({ limit: "100", ...query })}`, { key: opsKey });
	const text = await response.text();
	expect(response.status, text.slice(0, 500)).toBe(200);
	return JSON.parse(text) as QueueAnswer;
}

async function idsFound(q: string, query: Record<string, string> = {}): Promise<string[]> {
	return (await queue({ q, ...query })).data.map((order) => order.id);
}

/** A live order of `accountId`'s in production, written straight to D1, created `minutes` after a fixed start. */
async function orderOf(accountId: string, options: { externalId?: string; minutes?: number } = {}): Promise<string> {
	const now = new Date(Date.parse("2026-02-02T08:00:00.000Z") + (options.minutes ?? 0) * 60_000);
	const order = await insertRawOrder({ accountId, mode: "live" }, "in_production", FILE_URL, {
		...(options.externalId === undefined ? {} : { externalId: options.externalId }),
		now,
	});
	return order.id;
}

describe("GET /v1/ops/orders?q= at every length the API allows", () => {
	it("a 61-character external id is found by search", async () => {
		const partner = await createPartner("Long Numbers Gallery");
		const externalId = `PO-${"7".repeat(58)}`;
		expect(externalId).toHaveLength(61);
		const id = await orderOf(partner.account.id, { externalId });
		expect(await idsFound(externalId)).toEqual([id]);
	});

	it("a 128-character external id of any non-control Unicode, % and _ included, is found by search", async () => {
		const partner = await createPartner("Unicode Numbers Gallery");
		const head = "Bestellung-Ü_100%-日本語-";
		const externalId = head + "🖼".repeat((128 - head.length) / 2);
		expect(externalId).toHaveLength(128);
		const id = await orderOf(partner.account.id, { externalId });
		expect(await idsFound(externalId)).toEqual([id]);
		expect(await idsFound(externalId, { account_id: partner.account.id })).toEqual([id]);
	});

	it("an external id with spaces at its ends is found as the partner sent it, and trimmed", async () => {
		const partner = await createPartner("Spaced Numbers Gallery");
		const spaced = await orderOf(partner.account.id, { externalId: " PO 2001 " });
		const plain = await orderOf(partner.account.id, { externalId: "PO 2001", minutes: 1 });
		expect(await idsFound(" PO 2001 ")).toEqual([spaced, plain]);
		expect(await idsFound("PO 2001")).toEqual([plain]);
	});

	it("a search over 48 bytes answers 200, not a 500: 49 × x, 25 × %, 13 emoji, 128 characters", async () => {
		for (const q of [
			"x".repeat(49),
			"%".repeat(25),
			"_".repeat(25),
			"🖼".repeat(13),
			"\\".repeat(64),
			"y".repeat(128),
		]) {
			expect((await queue({ q })).data).toEqual([]);
		}
	});

	it("a long part of a long partner name finds its orders, % and _ taken literally", async () => {
		const name = `The Harbour Museum Store & Framing Workshop, 50% off_prints, Ünïcødé 🖼 ${"ø".repeat(100)}`;
		const partner = await createPartner(name);
		const other = await createPartner("The Harbour Museum Store & Framing Workshop, 50% of prints");
		const id = await orderOf(partner.account.id);
		await orderOf(other.account.id);
		const part = name.slice(4, 124);
		expect(await idsFound(part)).toEqual([id]);
		// Any case, as before: ASCII letters fold.
		expect(await idsFound("HARBOUR MUSEUM STORE & FRAMING WORKSHOP, 50% OFF_PRINTS")).toEqual([id]);
		expect(await idsFound("50% off_prints")).toEqual([id]);
		expect(await idsFound("50_ off%prints")).toEqual([]);
	});

	it("a search over 128 characters is a 422 naming q", async () => {
		await expectError(await api(`/v1/ops/orders?q=${"x".repeat(129)}`, { key: opsKey }), "validation_error", "q");
	});
});

describe("GET /v1/ops/orders?q= matching more partners than a name search covers", () => {
	const SHARED = "Shared Name Framers";
	/** The partners, in name order: `Shared Name Framers 001` to `104`. */
	const partners: string[] = [];
	/** The orders, one each of partners 1, 30, 60, 101 and 104 (by name), oldest first. */
	const orders: { partner: number; id: string }[] = [];

	beforeAll(async () => {
		const created = new Date().toISOString();
		const statements = [];
		// Inserted in reverse so that neither rowid nor insertion order is name order.
		for (let index = 104; index >= 1; index--) {
			const id = `acct_shared${String(1000 - index).padStart(4, "0")}`;
			partners[index - 1] = id;
			statements.push(
				env.DB.prepare("INSERT INTO accounts (id, name, created_at) VALUES (?1, ?2, ?3)").bind(
					id,
					`${SHARED} ${String(index).padStart(3, "0")}`,
					created,
				),
			);
		}
		await env.DB.batch(statements);
		for (const [minutes, partner] of [104, 1, 60, 30, 101].entries()) {
			orders.push({ partner, id: await orderOf(partners[partner - 1] ?? "", { minutes }) });
		}
	});

	it("searches the first 100 partners by name, oldest order first, and says more partners match", async () => {
		const answer = await queue({ q: "shared name" });
		const covered = orders.filter((order) => order.partner <= 100).map((order) => order.id);
		expect(answer.data.map((order) => order.id)).toEqual(covered);
		expect(answer.partner_search).toEqual({ partners: 100, more_partners: true });
	});

	it("says no more match when every matching partner is searched", async () => {
		// `… 100` to `… 104`: five partners, two with an order.
		const answer = await queue({ q: `${SHARED} 10` });
		const expected = orders.filter((order) => order.partner >= 100).map((order) => order.id);
		expect(answer.data.map((order) => order.id)).toEqual(expected);
		expect(answer.partner_search).toEqual({ partners: 5, more_partners: false });
	});

	it("with account_id, searches that partner's name even when it is past the first 100", async () => {
		const last = orders.find((order) => order.partner === 104);
		const answer = await queue({ q: "shared name", account_id: partners[103] ?? "" });
		expect(answer.data.map((order) => order.id)).toEqual([last?.id]);
		expect(answer.partner_search).toEqual({ partners: 1, more_partners: false });
	});

	it("has no partner_search without q", async () => {
		expect((await queue({})).partner_search).toBeNull();
	});
});
