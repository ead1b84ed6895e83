/** How `npm run bench:profile` sums up a V8 CPU profile (scripts/lib/cpu-profile.ts), on profiles built by hand. */
import { describe, expect, it } from "vitest";
import { type Profile, sourceLinesOf, summarise } from "../../scripts/lib/cpu-profile.ts";

/** A bundle of two modules of the service and one dependency, as esbuild writes it (not minified). */
const BUNDLE = [
	"var __name = () => {};", // 0: the bundle's own prelude
	"// ../main/node_modules/hono/dist/context.js", // 1
	"var Context = class {};", // 2
	"// src/orders/store.ts", // 3
	"async function findOrder(db, id) {", // 4
	"  return db.batch([]);", // 5
	"}", // 6
	"// src/orders/routes.ts", // 7
	"var handler = async (c) => findOrder(c.env.DB, 'x');", // 8
].join("\n");

function frame(functionName: string, scriptId: string, lineNumber: number, url = "") {
	return { functionName, scriptId, url, lineNumber, columnNumber: 0 };
}

/**
 * A call tree root → handler (routes.ts) → findOrder (store.ts) → fetch (native), and root → (idle).
 * Samples: handler 1, findOrder 2, fetch 4, idle 3 (each sample's time is the gap to the next one, 100 µs).
 */
const PROFILE: Profile = {
	nodes: [
		{ id: 1, children: [2, 5], callFrame: frame("(root)", "0", -1) },
		{ id: 2, children: [3], callFrame: frame("", "7", 8, "file:///tmp/dev/index.js") },
		{ id: 3, children: [4], callFrame: frame("findOrder", "7", 4, "file:///tmp/dev/index.js") },
		{ id: 4, children: [], callFrame: frame("fetch", "0", -1) },
		{ id: 5, children: [], callFrame: frame("(idle)", "0", -1) },
	],
	startTime: 0,
	endTime: 1_100,
	// The first sample's delta is from the start; the last one's time is unknown and not counted.
	samples: [2, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5],
	timeDeltas: [0, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100],
};

describe("sourceLinesOf", () => {
	it("names each bundle line by the module comment above it, dependencies from node_modules on, wherever the folder lives", () => {
		const lines = sourceLinesOf(BUNDLE, "file:///tmp/dev/index.js");
		expect(lines.map((line) => line.file)).toEqual([
			"index.js",
			"node_modules/hono/dist/context.js",
			"node_modules/hono/dist/context.js",
			"src/orders/store.ts",
			"src/orders/store.ts",
			"src/orders/store.ts",
			"src/orders/store.ts",
			"src/orders/routes.ts",
			"src/orders/routes.ts",
		]);
		// Each line's place in its module's part of the bundle, from the comment.
		expect(lines[5]).toEqual({ file: "src/orders/store.ts", line: 2 });
	});
});

describe("summarise", () => {
	const summary = summarise(PROFILE, new Map([["7", sourceLinesOf(BUNDLE, "file:///tmp/dev/index.js")]]));

	it("counts each sample's time to the next one, and keeps idle apart from busy", () => {
		// handler 100 + findOrder 200 + fetch 400 busy; idle 4 samples but the last has no time: 300.
		expect(summary.busy).toBe(700);
		expect(summary.idle).toBe(300);
	});

	it("gives self time by function, native calls under the runtime, largest first, anonymous ones by their line", () => {
		expect(summary.byFunction).toEqual([
			{ name: "fetch  (V8 and runtime)", microseconds: 400 },
			{ name: "findOrder  src/orders/store.ts", microseconds: 200 },
			{ name: "(anonymous, line 2)  src/orders/routes.ts", microseconds: 100 },
		]);
	});

	it("gives self time by source file", () => {
		expect(summary.byFile).toEqual([
			{ name: "(V8 and runtime)", microseconds: 400 },
			{ name: "src/orders/store.ts", microseconds: 200 },
			{ name: "src/orders/routes.ts", microseconds: 100 },
		]);
	});

	it("gives the service's functions their total time: their own and everything they called", () => {
		expect(summary.inclusive).toEqual([
			{ name: "(anonymous, line 2)  src/orders/routes.ts", microseconds: 700 },
			{ name: "findOrder  src/orders/store.ts", microseconds: 600 },
		]);
	});
});
