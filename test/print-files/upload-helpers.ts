import { expect } from "vitest";
import { api, send } from "../helpers.ts";
import { encodePng, patchIhdr } from "../imaging/fixtures/png.ts";

/** A real PNG of the given pixel size (upng-js, checked whole). */
export function smallPng(width: number, height: number): Uint8Array {
	return encodePng(width, height);
}

/**
 * A real 48 × 48 PNG whose header claims `widthPx` × `heightPx`: the inspector reads headers only,
 * and encoding a 2400 × 3000 image takes seconds.
 */
export function pngClaiming(widthPx: number, heightPx: number): Uint8Array {
	return patchIhdr(encodePng(48, 48), { width: widthPx, height: heightPx });
}

/** A PNG claiming 2400 × 3000 px: 300 DPI at 8 × 10 in. */
export function sharpPng(): Uint8Array {
	return pngClaiming(2400, 3000);
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

/** Uploads `bytes` through the print-file flow (POST /v1/print-files, then the signed PUT); the file's id. */
export async function uploadImage(key: string, bytes: Uint8Array, contentType: string): Promise<string> {
	const ticket = await requestUpload(key, { content_type: contentType });
	const upload = await putBytes(ticket.upload_url, bytes, ticket.upload_headers);
	expect(upload.status).toBe(200);
	return ticket.id;
}

/** An uploaded, inspected print file of the account, checked to be ready (the PNG's header says its size). */
export async function uploadedFile(key: string, png: Uint8Array): Promise<string> {
	const id = await uploadImage(key, png, "image/png");
	const file = await api(`/v1/print-files/${id}`, { key });
	expect(((await file.json()) as { status: string }).status).toBe("ready");
	return id;
}
