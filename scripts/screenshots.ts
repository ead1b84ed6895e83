/**
 * `npm run screenshots`: runs the browser tests with SCREENSHOTS_DIR=docs, so they also write the
 * pictures of docs/operator-console.md (docs/ops-queue.png, docs/packing-slip.png). A script rather than an inline
 * `VAR=value` so that it works in every shell, Windows' included.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { PROJECT_ROOT } from "./lib/wrangler.ts";

const vitest = path.join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs");
const result = spawnSync(process.execPath, [vitest, "run", "--project", "browser"], {
	cwd: PROJECT_ROOT,
	stdio: "inherit",
	env: { ...process.env, SCREENSHOTS_DIR: process.env.SCREENSHOTS_DIR ?? "docs" },
});
if (result.error !== undefined) throw result.error;
process.exit(result.status ?? 1);
