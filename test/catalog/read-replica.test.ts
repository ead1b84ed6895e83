import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readCatalog } from "../../src/catalog/store.ts";

describe("the catalog's read from D1", () => {
	it("goes through a session any read replica may answer (first-unconstrained), and reads the whole catalog", async () => {
		const constraints: unknown[] = [];
		const sessions: D1DatabaseSession[] = [];
		const spy: Pick<D1Database, "withSession"> = {
			withSession: (constraint) => {
				constraints.push(constraint);
				const session = env.DB.withSession(constraint);
				sessions.push(session);
				return session;
			},
		};
		// Only withSession is offered: a query straight on the database would fail here.
		const { catalog } = await readCatalog(spy as D1Database);

		expect(constraints).toEqual(["first-unconstrained"]);
		expect(catalog.frames.length).toBeGreaterThan(0);
		expect(catalog.mats.length).toBeGreaterThan(0);
		// The session saw its batch through: it holds the bookmark of what it read.
		expect(typeof sessions[0]?.getBookmark()).toBe("string");
	});
});
