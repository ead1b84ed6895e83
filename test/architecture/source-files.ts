/** The repository's checks on the code read its TypeScript sources; this is the one list of them. */
import { readdir } from "node:fs/promises";
import path from "node:path";

/** Every .ts and .tsx file under `dir`, declaration files left out. */
export async function sourceFiles(dir: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true, recursive: true });
	return entries
		.filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts"))
		.map((entry) => path.join(entry.parentPath, entry.name));
}
