/**
 * The last step of `npm test`: runs `npm run test:browser` when Debian's Chromium is installed, and
 * otherwise says so in one line and passes, so a developer without Chromium can still run the rest.
 * In CI (CI set) a missing Chromium fails instead: `.ci/run` installs it, so CI always runs them.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM_PATH } from "./lib/chromium.ts";
import { isCi } from "./lib/ci.ts";
import { PROJECT_ROOT } from "./lib/wrangler.ts";

const INSTALL_HINT = "sudo apt-get install -y --no-install-recommends chromium fonts-liberation fonts-dejavu-core";

if (!existsSync(CHROMIUM_PATH)) {
	if (isCi()) {
		console.error(`Browser tests: ${CHROMIUM_PATH} is missing, and CI must run them (install it: ${INSTALL_HINT}).`);
		process.exit(1);
	}
	console.log(
		`Browser tests skipped: no Chromium at ${CHROMIUM_PATH}; to run them, install Debian's package: ${INSTALL_HINT}`,
	);
	process.exit(0);
}

// Under npm, npm_execpath is npm's own script, so npm runs on this Node on every platform without a shell.
const npmCli = process.env.npm_execpath;
const result =
	npmCli === undefined
		? spawnSync("npm", ["run", "test:browser"], {
				cwd: PROJECT_ROOT,
				stdio: "inherit",
				shell: process.platform === "win32",
			})
		: spawnSync(process.execPath, [npmCli, "run", "test:browser"], { cwd: PROJECT_ROOT, stdio: "inherit" });
if (result.error !== undefined) throw result.error;
process.exit(result.status ?? 1);
