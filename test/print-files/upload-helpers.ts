import { api, send } from "../helpers.ts";
import { encodePng } from "./fixtures/png.ts";

/** A real PNG of the given pixel size (upng-js, checked whole). */
export function smallPng(width: number, height: number): Uint8Array {
	return encodePng(width, height);
}

export type UploadTicket = {
	id: string;
	status: string;
	upload_url: string;
	upload_method: string;
	upload_headers: Record<string, string>;
	expires_at: string;
};

/** POST /v1/print-files and its parsed 201 body. */
export async function requestUpload(key: string, body: Record<string, unknown> = { content_type: "image/png" }) {
	const response = await send("POST", "/v1/print-files", key, body);
	if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${await response.text()}`);
	return (await response.json()) as UploadTicket;
}

/** PUTs bytes to an upload URL of the worker's own route, with the headers it asks for. */
export function putBytes(
	uploadUrl: string,
	bytes: Uint8Array,
	headers: Record<string, string> = {},
): Promise<Response> {
	const url = new URL(uploadUrl);
	return api(`${url.pathname}${url.search}`, { method: "PUT", body: bytes, headers });
}
