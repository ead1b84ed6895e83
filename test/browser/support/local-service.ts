/**
 * A throwaway local service for one browser test file: a fresh D1/R2/DO folder, a service-team
 * account holding an admin key, and `wrangler dev` on a free loopback port.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { createAccountWithKeys } from "../../../scripts/lib/accounts.ts";
import { type ChromiumSession, launchChromium } from "../../../scripts/lib/chromium.ts";
import { freePort, startDevServer } from "../../../scripts/lib/dev-server.ts";
import { migrateFreshFolder } from "../../../scripts/lib/migrated-template.ts";
import type { D1Target } from "../../../scripts/lib/wrangler.ts";
import { randomBase62 } from "../../../src/ids.ts";

export type LocalService = {
	/** Such as http://127.0.0.1:8787. */
	origin: string;
	adminKey: string;
	/** The service team's account, on which the test issues its ops key through the admin route. */
	teamAccountId: string;
	/** The local D1 the service runs on, for a test that writes a row no route writes yet. */
	database: D1Target;
	/** Stops wrangler and deletes the folder; safe to call twice. */
	stop(): Promise<void>;
};

/** Migrates a fresh folder, creates the admin key, then starts `wrangler dev` on it. */
export async function startLocalService(label: string): Promise<LocalService> {
	const folder = await mkdtemp(path.join(tmpdir(), "fps-browser-"));
	try {
		const target: D1Target = { remote: false, persistTo: folder };
		await migrateFreshFolder(folder);
		// The admin key has to exist before the API can issue anything, so it is written straight to D1 (as npm start does).
		const team = await createAccountWithKeys(target, `${label} service team`, [{ mode: "live", scopes: ["admin"] }]);
		const adminKey = team.keys[0]?.key;
		if (adminKey === undefined) throw new Error("no admin key was issued");
		const server = await startDevServer({
			port: await freePort(),
			persistTo: folder,
			vars: {
				// The contract's development setting: callback_url may point at the loopback receiver.
				ENVIRONMENT: "development",
				UPLOAD_SIGNING_SECRET: randomBase62(43),
				CONSOLE_SESSION_SECRET: randomBase62(43),
			},
		});
		return {
			origin: server.origin,
			adminKey,
			teamAccountId: team.account.id,
			database: target,
			stop: async () => {
				try {
					await server.stop();
				} finally {
					await rm(folder, { recursive: true, force: true });
				}
			},
		};
	} catch (error) {
		await rm(folder, { recursive: true, force: true });
		throw error;
	}
}

/**
 * A Chromium page whose requests to the service's API carry the ops key (a browser cannot type a
 * bearer key; it is added to the API's requests only), and its session to close.
 */
export async function opsBrowserPage(
	service: LocalService,
	opsKey: string,
	viewport: { width: number; height: number },
): Promise<{ chromium: ChromiumSession; page: Page }> {
	const chromium = await launchChromium(viewport);
	const page = await chromium.context.newPage();
	await page.route(`${service.origin}/v1/**`, (route) =>
		route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${opsKey}` } }),
	);
	return { chromium, page };
}

/** `opsBrowserPage`, signed in to the console with the ops key and on the queue. */
export async function signedInFloorPage(
	service: LocalService,
	opsKey: string,
	viewport: { width: number; height: number },
): Promise<{ chromium: ChromiumSession; page: Page }> {
	const opened = await opsBrowserPage(service, opsKey, viewport);
	await opened.page.goto(`${service.origin}/ops/sign-in`);
	await opened.page.getByLabel("API key").fill(opsKey);
	await opened.page.getByRole("button", { name: "Sign in" }).click();
	await opened.page.waitForURL(`${service.origin}/ops/orders`);
	return opened;
}

/** Closes the browser, then stops the service, whatever the first does. */
export async function closeAll(
	chromium: ChromiumSession | undefined,
	service: LocalService | undefined,
): Promise<void> {
	try {
		await chromium?.close();
	} finally {
		await service?.stop();
	}
}
