/**
 * The changelog is by dated release and in step with the package: its newest release is package.json's
 * version, releases run newest first with dates that never go forward, each says what broke under /v1
 * (or "none"), and every release docs/versioning.md lists as breaking has a breaking entry there.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const ROOT = path.join(import.meta.dirname, "..", "..");
const changelog = readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8");
const versioning = readFileSync(path.join(ROOT, "docs", "versioning.md"), "utf8");
const packageVersion = z
	.object({ version: z.string() })
	.parse(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"))).version;

type Release = { version: string; date: string; body: string };

/**
 * The `## X.Y.Z — YYYY-MM-DD: title` sections, in the file's order, each with its text. A first
 * `## Unreleased` section, what has landed since the newest release, is not a release.
 */
function releases(): Release[] {
	const sections = changelog
		.split(/^## /m)
		.slice(1)
		.filter((section, index) => !(index === 0 && /^Unreleased\n/.test(section)));
	return sections.map((section) => {
		const heading = /^(\d+\.\d+\.\d+) — (\d{4}-\d{2}-\d{2}): \S/.exec(section);
		if (heading === null)
			throw new Error(`a CHANGELOG section is not "X.Y.Z — YYYY-MM-DD: title": ## ${section.split("\n")[0]}`);
		return { version: heading[1] ?? "", date: heading[2] ?? "", body: section };
	});
}

function compareVersions(a: string, b: string): number {
	const [x, y] = [a.split(".").map(Number), b.split(".").map(Number)];
	for (let index = 0; index < 3; index++) {
		const difference = (x[index] ?? 0) - (y[index] ?? 0);
		if (difference !== 0) return difference;
	}
	return 0;
}

describe("CHANGELOG.md", () => {
	it("has only dated releases, and its newest is package.json's version", () => {
		const all = releases();
		expect(all.length).toBeGreaterThan(0);
		expect(all[0]?.version).toBe(packageVersion);
	});

	it("lists releases newest first, with dates that never go forward", () => {
		const all = releases();
		for (let index = 1; index < all.length; index++) {
			const [newer, older] = [all[index - 1], all[index]];
			if (newer === undefined || older === undefined) continue;
			expect(compareVersions(newer.version, older.version), `${newer.version} before ${older.version}`).toBeGreaterThan(
				0,
			);
			expect(newer.date >= older.date, `${newer.version} (${newer.date}) before ${older.version} (${older.date})`).toBe(
				true,
			);
		}
	});

	it("says in each release since 0.2.0 what broke under /v1, or none", () => {
		for (const release of releases().filter((candidate) => compareVersions(candidate.version, "0.2.0") >= 0)) {
			expect(release.body, release.version).toMatch(/^\*\*Breaking under \/v1:\*\*/m);
		}
	});

	it("has a breaking entry for every release docs/versioning.md lists as breaking", () => {
		const listed = [...versioning.matchAll(/^\| (\d+\.\d+\.\d+) +\|/gm)].map((match) => match[1]);
		expect(listed.length).toBeGreaterThan(0);
		const byVersion = new Map(releases().map((release) => [release.version, release.body]));
		for (const version of listed) {
			const body = byVersion.get(version ?? "");
			expect(body, `${version} is in docs/versioning.md but not in CHANGELOG.md`).toBeDefined();
			expect(body ?? "", version).not.toMatch(/^\*\*Breaking under \/v1:\*\* none/m);
		}
	});
});
