import { expect } from "vitest";
import { sharpPng } from "./upload-helpers.ts";

/** The partner's file server of the tests (test/outbound/partner-hosts.ts): bytes PUT there are ordered by URL. */
export const FILE_HOST = "https://files.partner.example";

/** A URL on the partner's file server that redirects to `target`. */
export function redirectTo(target: string): string {
	return `${FILE_HOST}/redirect?to=${encodeURIComponent(target)}`;
}

/**
 * Helpers that store files on the partner's file server under `/<folder>/`: each test file keeps to a
 * folder of its own, so a URL in a failure says which file stored it.
 */
export function partnerFileServer(folder: string) {
	/** Stores bytes under a fresh path and returns their `print_file_url`. */
	async function hostFile(bytes: Uint8Array, name = "print.png"): Promise<string> {
		const path = `/${folder}/${crypto.randomUUID()}/${name}`;
		expect((await fetch(`${FILE_HOST}${path}`, { method: "PUT", body: bytes })).status).toBe(201);
		return `${FILE_HOST}${path}`;
	}
	/** Stores a sharp PNG (300 DPI at 8 × 10 in) and returns its `print_file_url`. */
	function sharpFileUrl(): Promise<string> {
		return hostFile(sharpPng());
	}
	return { hostFile, sharpFileUrl };
}
