/**
 * A fresh local database, migrated, in the time of a copy. `wrangler d1 migrations apply --local`
 * takes about ten seconds; the tests and benchmarks that each start their own `wrangler dev` on a
 * throwaway folder used to run it every time. The first caller migrates a template folder, named by
 * a hash of the migrations, of wrangler.toml (whose `[[d1_databases]]` it migrates, each of them) and of
 * wrangler's version (so a new migration, database or wrangler makes a new template), kept in node_modules/.cache; every caller then copies it into its own folder.
 * Only for new, empty folders: a folder that already holds a database (npm start's) is migrated
 * with `applyMigrations`, which applies what is pending.
 */
import { createHash, randomUUID } from "node:crypto";
import { access, cp, mkdir, readdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { applyMigrations, PROJECT_ROOT } from "./wrangler.ts";

const MIGRATIONS = path.join(PROJECT_ROOT, "migrations");
const CACHE = path.join(PROJECT_ROOT, "node_modules", ".cache", "framed-print-api");

/** The template's name: the migrations' names and text, wrangler.toml's text and the installed wrangler's version. */
async function templateName(): Promise<string> {
	const hash = createHash("sha256");
	const wrangler = JSON.parse(
		await readFile(path.join(PROJECT_ROOT, "node_modules", "wrangler", "package.json"), "utf8"),
	) as { version: string };
	hash.update(`wrangler ${wrangler.version}\n`);
	hash.update(await readFile(path.join(PROJECT_ROOT, "wrangler.toml")));
	for (const name of (await readdir(MIGRATIONS)).filter((file) => file.endsWith(".sql")).sort()) {
		hash.update(`${name}\n`);
		hash.update(await readFile(path.join(MIGRATIONS, name)));
	}
	return `d1-migrated-${hash.digest("hex").slice(0, 16)}`;
}

async function exists(folder: string): Promise<boolean> {
	try {
		await access(folder);
		return true;
	} catch {
		return false;
	}
}

/** The migrated template, made once: built under a private name, then renamed into place (another process may win the race). */
async function template(): Promise<string> {
	const folder = path.join(CACHE, await templateName());
	if (await exists(folder)) return folder;
	await mkdir(CACHE, { recursive: true });
	const building = `${folder}.building-${randomUUID()}`;
	try {
		await applyMigrations({ remote: false, persistTo: building });
		await rename(building, folder);
	} catch (error) {
		// Another process renamed its template into place first: theirs is the same schema.
		if (!(await exists(folder))) throw error;
	} finally {
		await rm(building, { recursive: true, force: true });
	}
	return folder;
}

/** Gives `folder` (new or empty) a local database with every migration applied, as `applyMigrations` would. */
export async function migrateFreshFolder(folder: string): Promise<void> {
	await mkdir(folder, { recursive: true });
	if ((await readdir(folder)).length > 0) {
		throw new Error(`${folder} is not empty: migrate a folder that holds a database with applyMigrations`);
	}
	await cp(await template(), folder, { recursive: true });
}
