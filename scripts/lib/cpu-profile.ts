/**
 * Summing up a V8 CPU profile (the DevTools Protocol's Profiler.Profile) as `npm run bench:profile`
 * prints it: self time by function and by source file, and the total time of the service's functions,
 * with a bundle's lines mapped back to the files they came from. Pure: the profile and the bundle's
 * text in, the figures out.
 */
import path from "node:path";
import { z } from "zod";

/** The parts of a CPU profile (the DevTools Protocol's Profiler.Profile) the summary reads. */
export const ProfileSchema = z.object({
	nodes: z.array(
		z.object({
			id: z.number(),
			children: z.array(z.number()).optional(),
			callFrame: z.object({
				functionName: z.string(),
				scriptId: z.string(),
				url: z.string(),
				lineNumber: z.number(),
				columnNumber: z.number(),
			}),
		}),
	),
	startTime: z.number(),
	endTime: z.number(),
	samples: z.array(z.number()).optional(),
	timeDeltas: z.array(z.number()).optional(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** Where a line of a bundle came from: the source file and the line's place in that file's part of the bundle. */
export type SourceLine = { file: string; line: number };

export type SelfTime = { name: string; microseconds: number };

/** A frame's name: the function and its file (and, for an anonymous function, its line in that file's part of the bundle). */
function frameName(frame: Profile["nodes"][number]["callFrame"], linesOf: Map<string, SourceLine[]>) {
	const source = linesOf.get(frame.scriptId)?.[frame.lineNumber];
	const file = source?.file ?? (frame.url === "" ? "(V8 and runtime)" : frame.url);
	const name =
		frame.functionName === "" ? `(anonymous, line ${(source?.line ?? frame.lineNumber) + 1})` : frame.functionName;
	return { file, name: `${name}  ${file}` };
}

/**
 * The profile's self time by function and by source file, and the total time (its own and its callees')
 * of each function of the service's own code, `src/`: where a runtime call (a D1 query, a Durable Object
 * call, a Response) shows up under the code that made it. Largest first.
 */
export function summarise(profile: Profile, linesOf: Map<string, SourceLine[]>) {
	const byNode = new Map<number, number>();
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	// Each sample's time is the gap to the next one (the last sample has none).
	samples.forEach((nodeId, index) => {
		const next = deltas[index + 1] ?? 0;
		byNode.set(nodeId, (byNode.get(nodeId) ?? 0) + next);
	});
	const parentOf = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
	const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
	const byFunction = new Map<string, number>();
	const byFile = new Map<string, number>();
	const inclusive = new Map<string, number>();
	let busy = 0;
	let idle = 0;
	for (const node of profile.nodes) {
		const micros = byNode.get(node.id) ?? 0;
		if (micros === 0) continue;
		if (node.callFrame.functionName === "(idle)") {
			idle += micros;
			continue;
		}
		busy += micros;
		const { file, name } = frameName(node.callFrame, linesOf);
		byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
		byFile.set(file, (byFile.get(file) ?? 0) + micros);
		// Each of the service's functions on this stack once, however deep its recursion.
		const onStack = new Set<string>();
		for (let at: number | undefined = node.id; at !== undefined; at = parentOf.get(at)) {
			const frame = nodes.get(at)?.callFrame;
			if (frame === undefined) break;
			const named = frameName(frame, linesOf);
			if (named.file.startsWith("src/")) onStack.add(named.name);
		}
		for (const name of onStack) inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
	}
	const sorted = (map: Map<string, number>): SelfTime[] =>
		[...map.entries()]
			.map(([name, microseconds]) => ({ name, microseconds }))
			.sort((a, b) => b.microseconds - a.microseconds);
	return { busy, idle, byFunction: sorted(byFunction), byFile: sorted(byFile), inclusive: sorted(inclusive) };
}

/**
 * The source file of each line of a bundle (and the line's place in that file's part of it): esbuild
 * starts every module of a bundle that is not minified with a `// path/to/file.ts` comment line.
 * Lines before the first such comment are the bundle's own, named by `url`'s last part.
 */
export function sourceLinesOf(scriptSource: string, url: string): SourceLine[] {
	let current = url === "" ? "(no url)" : path.basename(url);
	let startsAt = 0;
	return scriptSource.split("\n").map((text, index) => {
		const marker = /^\/\/ ((?:src|node_modules|\.\.\/)\S*\.[cm]?[jt]sx?)$/.exec(text);
		if (marker?.[1] !== undefined) {
			// Dependencies come through node_modules, wherever the folder really lives.
			current = marker[1].replace(/^(\.\.\/)+/, "").replace(/^.*?(node_modules\/)/, "$1");
			startsAt = index;
		}
		return { file: current, line: index - startsAt };
	});
}
