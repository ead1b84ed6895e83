/** The migration that brings endpoint URLs stored before normalisation to the normal form, as far as SQL can. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { normalisedUrl } from "../../src/http/outbound-url.ts";
import { newId } from "../../src/ids.ts";
import { createPartner } from "../helpers.ts";

/** The migration's statements, run again over rows written as the service wrote them before it. */
async function migrate(): Promise<void> {
	const migration = env.TEST_MIGRATIONS.find((each) => each.name.includes("normalised_endpoint_urls"));
	if (migration === undefined) throw new Error("no normalised_endpoint_urls migration");
	for (const query of migration.queries) await env.DB.prepare(query).run();
}

/** Endpoint rows as typed, before URLs were normalised; their ids in the same order. */
async function legacyRows(accountId: string, urls: readonly string[]): Promise<string[]> {
	const ids = urls.map(() => newId("whe"));
	await env.DB.batch(
		urls.map((url, index) =>
			env.DB.prepare(
				`INSERT INTO webhook_endpoints (id, account_id, mode, url, events, description, created_at)
				 VALUES (?1, ?2, 'live', ?3, 'order.shipped', NULL, ?4)`,
			).bind(ids[index], accountId, url, new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString()),
		),
	);
	return ids;
}

async function urlsOf(ids: readonly string[]): Promise<string[]> {
	const urls: string[] = [];
	for (const id of ids) {
		const row = await env.DB.prepare("SELECT url FROM webhook_endpoints WHERE id = ?1")
			.bind(id)
			.first<{ url: string }>();
		urls.push(row?.url ?? "(gone)");
	}
	return urls;
}

describe("migration: normalised webhook endpoint URLs", () => {
	it("writes plain spellings exactly as normalisedUrl does, and never changes which URL a row names", async () => {
		const partner = await createPartner();
		const plain = [
			"HTTPS://Hooks.Example.COM/Orders/In",
			"https://a.example/x#frag",
			"https://b.example/x?#frag",
			"https://c.example/x?",
			"https://d.example:443/x",
			"http://e.example:80/x",
			"https://f.example:8443/x",
			"https://g.example",
			"https://h.example?a=1",
			"https://i.example:/x",
			"https://j.example/x?a=1#f",
			"https://k.example/x??",
		];
		// What plain text edits cannot bring all the way; each must still name the same URL afterwards.
		const exotic = [
			"https://l.example/./x",
			"HTTPS://2130706433/x#f",
			"https://M.example/%7e",
			"https://[::FFFF:8.8.8.8]/x",
			"https://Bücher.example/x",
			"https:n.example/x",
			"https:\\\\o.example\\x",
			"https:///p.example/x",
		];
		const ids = await legacyRows(partner.account.id, [...plain, ...exotic]);
		await migrate();
		const after = await urlsOf(ids);
		expect(after.slice(0, plain.length)).toEqual(plain.map((url) => normalisedUrl(url)));
		for (const [index, url] of [...plain, ...exotic].entries()) {
			expect(normalisedUrl(after[index] ?? ""), url).toBe(normalisedUrl(url));
		}
		// Running it again changes nothing.
		await migrate();
		expect(await urlsOf(ids)).toEqual(after);
	});

	it("leaves a row as it was when its normal form is another row's of the same account and mode", async () => {
		const partner = await createPartner();
		const other = await createPartner("Other Gallery");
		const [kept, clash] = await legacyRows(partner.account.id, [
			"https://hooks.example/x",
			"HTTPS://HOOKS.EXAMPLE/x#f",
		]);
		const [elsewhere] = await legacyRows(other.account.id, ["HTTPS://HOOKS.EXAMPLE/x#f"]);
		await migrate();
		const [keptUrl, clashUrl, elsewhereUrl] = await urlsOf([kept ?? "", clash ?? "", elsewhere ?? ""]);
		expect(keptUrl).toBe("https://hooks.example/x");
		// The fragment could go (that spelling was free); the case could not, so that edit was skipped.
		expect(clashUrl).toBe("HTTPS://HOOKS.EXAMPLE/x");
		expect(elsewhereUrl).toBe("https://hooks.example/x");
	});
});
