/** Where the docs' screenshots go when a run asks for them (`npm run screenshots` sets SCREENSHOTS_DIR=docs). */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { PROJECT_ROOT } from "../../../scripts/lib/wrangler.ts";

/** Writes the PNG as `<SCREENSHOTS_DIR>/<name>` when SCREENSHOTS_DIR is set; does nothing otherwise. */
export async function keepScreenshot(name: string, png: Uint8Array): Promise<void> {
	const folder = process.env.SCREENSHOTS_DIR;
	if (folder === undefined || folder === "") return;
	const target = path.resolve(PROJECT_ROOT, folder);
	await mkdir(target, { recursive: true });
	await writeFile(path.join(target, name), png);
}
