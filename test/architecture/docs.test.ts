/**
 * The docs stay true to the repository: every folder under src/ has its line in docs/architecture.md,
 * every relative link in the README and in docs/*.md reaches a file (and a heading, when it names
 * one) inside the repository, nothing points at a path outside it, and the README stays a page a
 * newcomer reads in five minutes. Reads files only, so it runs in Node.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..", "..");
const README_MAX_LINES = 300;

/** The Markdown files whose links are checked: the README and every page of docs/. */
function markdownPages(): string[] {
	const docs = readdirSync(path.join(ROOT, "docs"))
		.filter((name) => name.endsWith(".md"))
		.map((name) => path.join("docs", name));
	return ["README.md", ...docs];
}

/** Every folder under `dir` (relative to the repository, with forward slashes), at any depth. */
function foldersUnder(dir: string): string[] {
	return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
		.filter((entry) => entry.isDirectory())
		.map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
		.sort();
}

/** The folders that have no line of their own in `page`: a line starting with the folder, as `src/orders/`. */
function foldersMissingFrom(page: string, folders: readonly string[]): string[] {
	const lineStarts = new Set(page.split("\n").map((line) => /^[\s>*-]*`?([^\s`]+\/)/.exec(line)?.[1]));
	return folders.filter((folder) => !lineStarts.has(`${folder}/`));
}

/** Markdown without its fenced code blocks and inline code, where a `[x](y)` is an example, not a link. */
function withoutCode(markdown: string): string {
	return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The targets of a page's links and images: inline `[x](target)`, `![x](target)` and `[x]: target`. */
function linkTargets(markdown: string): string[] {
	const text = withoutCode(markdown);
	const inline = [...text.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] ?? "");
	const definitions = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/gm)].map((match) => match[1] ?? "");
	return [...inline, ...definitions].map((target) => target.replace(/^<|>$/g, ""));
}

/** Whether a target leaves the repository's files: a web or mail address, or another scheme. */
function isExternal(target: string): boolean {
	return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
	return heading
		.replace(/`/g, "")
		.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, "")
		.replace(/\s/g, "-");
}

/** The anchors a Markdown page offers: one per heading, repeats numbered as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const match of withoutCode(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
		const base = anchorOf(match[1] ?? "");
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

/** What is wrong with each relative link of `page` (a path relative to the repository). */
function brokenLinks(page: string, markdown: string): string[] {
	const problems: string[] = [];
	for (const target of linkTargets(markdown)) {
		if (target === "" || isExternal(target)) continue;
		const [file = "", anchor] = target.split("#", 2);
		const resolved = file === "" ? path.join(ROOT, page) : path.resolve(ROOT, path.dirname(page), decodeURI(file));
		const inside = path.relative(ROOT, resolved);
		if (inside.startsWith("..") || path.isAbsolute(inside)) {
			problems.push(`${page}: ${target} points outside the repository`);
		} else if (!existsSync(resolved)) {
			problems.push(`${page}: ${target} does not exist`);
		} else if (anchor !== undefined && anchor !== "" && resolved.endsWith(".md") && statSync(resolved).isFile()) {
			if (!anchorsOf(readFileSync(resolved, "utf8")).has(anchor)) {
				problems.push(`${page}: ${target} names no heading of ${inside}`);
			}
		}
	}
	return problems;
}

/** Folders never searched for paths outside the repository: installed, generated or local state. */
const NOT_OURS = new Set(["node_modules", ".git", ".wrangler", "coverage", "vendor"]);
const TEXT_FILE = /\.(ts|tsx|js|cjs|mjs|md|json|toml|sql|yaml|yml|txt)$|^run$/;

/** Every text file of the repository, relative to it. */
function repositoryTextFiles(dir = ""): string[] {
	const files: string[] = [];
	for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
		const relative = path.join(dir, entry.name);
		if (entry.isDirectory()) {
			if (!NOT_OURS.has(entry.name)) files.push(...repositoryTextFiles(relative));
		} else if (TEXT_FILE.test(entry.name) && entry.name !== "package-lock.json") {
			files.push(relative);
		}
	}
	return files;
}

describe("the docs", () => {
	it("name every folder under src/ in docs/architecture.md", () => {
		const page = readFileSync(path.join(ROOT, "docs", "architecture.md"), "utf8");
		const folders = foldersUnder("src");
		expect(folders.length).toBeGreaterThan(10);
		expect(foldersMissingFrom(page, folders)).toEqual([]);
	});

	it("link only to files that exist in the repository, and to headings those files have", () => {
		const pages = markdownPages();
		expect(pages.length).toBeGreaterThan(6);
		const problems = pages.flatMap((page) => brokenLinks(page, readFileSync(path.join(ROOT, page), "utf8")));
		expect(problems).toEqual([]);
	});

	it(`keep the README at most ${README_MAX_LINES} lines`, () => {
		const lines = readFileSync(path.join(ROOT, "README.md"), "utf8").replace(/\n$/, "").split("\n");
		expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
	});

	it("and nothing else in the repository points at a path outside it", () => {
		// A clone has only the repository: the folder of shared design notes beside it is not there.
		const outside = /\.\.\/shared\b/;
		const offenders = repositoryTextFiles().filter((file) => outside.test(readFileSync(path.join(ROOT, file), "utf8")));
		expect(offenders).toEqual([]);
	});
});

describe("the docs checks themselves", () => {
	it("find a src/ folder that has no line of its own, even when the page mentions it in passing", () => {
		const page =
			"src/orders/           orders\n- `src/http/`: plumbing\nthe quote's work is in src/quotes/price-quote.ts";
		expect(foldersMissingFrom(page, ["src/orders", "src/http", "src/quotes"])).toEqual(["src/quotes"]);
	});

	it("find links to missing files, missing headings and places outside the repository", () => {
		const page = [
			"[ok](docs/api.md) [dir](src/orders/) ![img](docs/ops-order.png) [web](https://example.com/x.md)",
			"[mail](mailto:a@example.com) [gone](docs/nowhere.md) [up](../elsewhere/spec.md)",
			"[heading](docs/api.md#errors) [no heading](docs/api.md#no-such-heading) `[code](docs/missing.md)`",
		].join("\n");
		expect(brokenLinks("README.md", page)).toEqual([
			"README.md: docs/nowhere.md does not exist",
			"README.md: ../elsewhere/spec.md points outside the repository",
			"README.md: docs/api.md#no-such-heading names no heading of docs/api.md",
		]);
	});

	it("turn headings into GitHub's anchors", () => {
		expect(anchorOf("Where to put a new route, table, event or setting")).toBe(
			"where-to-put-a-new-route-table-event-or-setting",
		);
		expect(anchorOf("Responses' headers, and the reference page")).toBe("responses-headers-and-the-reference-page");
		expect(anchorOf("8. Staging")).toBe("8-staging");
		expect(anchorOf("`npm test`")).toBe("npm-test");
	});
});
