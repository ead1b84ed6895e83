/**
 * Debian's Chromium driven by playwright-core, for the browser tests and the docs' screenshots.
 * playwright-core never downloads a browser: it drives the one the system package installed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Where Debian's `chromium` package puts the browser; `.ci/run` installs it when it is missing. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * The machine has no network but loopback: these keep Chromium from reaching out on its own
 * (updates, sync, field trials, QUIC probes), and `--no-sandbox` lets it run as root in CI.
 */
export const CHROMIUM_ARGS: readonly string[] = [
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--no-first-run",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-quic",
];

export type ChromiumSession = {
	context: BrowserContext;
	/** Closes the browser and deletes its profile folder; safe to call twice. */
	close(): Promise<void>;
};

/**
 * Launches Chromium on a fresh profile in a temporary folder (so no state leaks between runs) with
 * a viewport of the given size.
 */
export async function launchChromium(viewport: { width: number; height: number }): Promise<ChromiumSession> {
	const profile = await mkdtemp(path.join(tmpdir(), "fps-chromium-"));
	let context: BrowserContext;
	try {
		// A persistent context is how playwright takes a profile folder (it refuses --user-data-dir in args).
		context = await chromium.launchPersistentContext(profile, {
			executablePath: CHROMIUM_PATH,
			headless: true,
			args: [...CHROMIUM_ARGS],
			viewport,
			locale: "en-US",
			timezoneId: "UTC",
		});
	} catch (error) {
		await rm(profile, { recursive: true, force: true });
		throw error;
	}
	// Every page here is local and server-rendered: anything slower than this is a failure, not a slow load.
	context.setDefaultTimeout(15_000);
	let closed = false;
	return {
		context,
		close: async () => {
			if (closed) return;
			closed = true;
			try {
				await context.close();
			} finally {
				await rm(profile, { recursive: true, force: true });
			}
		},
	};
}
