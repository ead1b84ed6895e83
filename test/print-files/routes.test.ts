import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PrintFile } from "../../src/print-files/schema.ts";
import { api, createKeyWithScopes, createPartner, expectError, send } from "../helpers.ts";
import { putBytes, requestUpload, smallPng } from "./upload-helpers.ts";

async function readFile(key: string, id: string): Promise<PrintFile> {
	const response = await api(`/v1/print-files/${id}`, { key });
	expect(response.status).toBe(200);
	return (await response.json()) as PrintFile;
}

describe("POST /v1/print-files", () => {
	it("issues a signed upload URL on the worker route, valid for an hour", async () => {
		const partner = await createPartner();
		const before = Date.now();
		const ticket = await requestUpload(partner.keys.live.key, { content_type: "image/tiff", filename: "harbour.tif" });
		expect(ticket.id).toMatch(/^pf_[0-9A-Za-z]{24}$/);
		expect(ticket.status).toBe("awaiting_upload");
		expect(ticket.upload_method).toBe("PUT");
		expect(ticket.upload_headers).toEqual({ "Content-Type": "image/tiff" });
		const url = new URL(ticket.upload_url);
		expect(url.pathname).toBe(`/v1/uploads/${ticket.id}`);
		expect(url.searchParams.get("sig")).toMatch(/^[0-9a-f]{64}$/);
		const expiresMs = new Date(ticket.expires_at).getTime();
		expect(Number(url.searchParams.get("expires"))).toBe(Math.floor(expiresMs / 1000));
		expect(expiresMs - before).toBeGreaterThanOrEqual(3_599_000);
		expect(expiresMs - before).toBeLessThanOrEqual(3_601_000);
	});

	it("refuses a content type other than TIFF, PNG or JPEG with a 422 on content_type", async () => {
		const partner = await createPartner();
		const response = await send("POST", "/v1/print-files", partner.keys.live.key, { content_type: "image/gif" });
		await expectError(response, "validation_error", "content_type");
	});

	it("a missing content_type is a 400 naming it", async () => {
		const partner = await createPartner();
		const response = await send("POST", "/v1/print-files", partner.keys.live.key, { filename: "a.png" });
		await expectError(response, "bad_request", "content_type");
	});

	it("refuses a declared size over 512 MiB with a 422 on size_bytes", async () => {
		const partner = await createPartner();
		const response = await send("POST", "/v1/print-files", partner.keys.live.key, {
			content_type: "image/png",
			size_bytes: 512 * 1024 * 1024 + 1,
		});
		await expectError(response, "validation_error", "size_bytes");
	});

	it("refuses a file name with a path in it, and unknown fields", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		await expectError(
			await send("POST", "/v1/print-files", key, { content_type: "image/png", filename: "../etc/passwd" }),
			"validation_error",
			"filename",
		);
		await expectError(
			await send("POST", "/v1/print-files", key, { content_type: "image/png", status: "ready" }),
			"validation_error",
			"status",
		);
	});

	it("refuses a file name with a bidirectional control (invoice<U+202E>gnp.exe shows as invoiceexe.png)", async () => {
		const key = (await createPartner()).keys.live.key;
		for (const filename of ["invoice\u202egnp.exe", "art\u2066.png", "scan\u200f.png"]) {
			const error = await expectError(
				await send("POST", "/v1/print-files", key, { content_type: "image/png", filename }),
				"validation_error",
				"filename",
			);
			expect(error.message).toContain("bidirectional");
		}
	});

	it("needs the files:write scope", async () => {
		const key = await createKeyWithScopes(["orders:read"]);
		const response = await send("POST", "/v1/print-files", key, { content_type: "image/png" });
		await expectError(response, "forbidden");
	});
});

describe("GET /v1/print-files/{id}", () => {
	it("shows a file awaiting its upload, with nothing known about it yet", async () => {
		const partner = await createPartner();
		const ticket = await requestUpload(partner.keys.live.key);
		const file = await readFile(partner.keys.live.key, ticket.id);
		expect(file).toMatchObject({
			id: ticket.id,
			status: "awaiting_upload",
			content_type: "image/png",
			format: null,
			width_px: null,
			height_px: null,
			size_bytes: null,
			invalid_reason: null,
			expires_at: ticket.expires_at,
			uploaded_at: null,
		});
	});

	it("inspects an uploaded PNG when first read: ready, with format, pixel size and byte size", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const ticket = await requestUpload(key, { content_type: "image/png", filename: "dunes.png" });
		const png = smallPng(36, 24);
		const upload = await putBytes(ticket.upload_url, png, ticket.upload_headers);
		expect(upload.status).toBe(200);
		expect(((await upload.json()) as PrintFile).status).toBe("processing");

		const file = await readFile(key, ticket.id);
		expect(file).toMatchObject({
			status: "ready",
			filename: "dunes.png",
			format: "png",
			width_px: 36,
			height_px: 24,
			size_bytes: png.byteLength,
			invalid_reason: null,
		});
		expect(file.uploaded_at).not.toBeNull();
	});

	it("inspects once: a second read does not read R2 again", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const ticket = await requestUpload(key);
		await putBytes(ticket.upload_url, smallPng(32, 32), ticket.upload_headers);
		await readFile(key, ticket.id);
		const first = await env.DB.prepare("SELECT inspected_at, inspection_bytes_read FROM print_files WHERE id = ?1")
			.bind(ticket.id)
			.first<{ inspected_at: string; inspection_bytes_read: number }>();
		expect(first?.inspection_bytes_read).toBeGreaterThan(0);
		await readFile(key, ticket.id);
		const second = await env.DB.prepare("SELECT inspected_at FROM print_files WHERE id = ?1")
			.bind(ticket.id)
			.first<{ inspected_at: string }>();
		expect(second?.inspected_at).toBe(first?.inspected_at);
	});

	it("marks a file that is not an image invalid with a clear reason, whatever its declared type", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const ticket = await requestUpload(key, { content_type: "image/png", filename: "notes.png" });
		await putBytes(ticket.upload_url, new TextEncoder().encode("this is a text file, not a PNG\n"));
		const file = await readFile(key, ticket.id);
		expect(file.status).toBe("invalid");
		expect(file.format).toBeNull();
		expect(file.invalid_reason).toBe("unsupported_format");
		expect(file.invalid_message).toBeTruthy();
	});

	it("an expired, never-uploaded file stays awaiting_upload with expires_at in the past", async () => {
		const partner = await createPartner();
		const ticket = await requestUpload(partner.keys.live.key);
		const past = new Date(Date.now() - 60_000).toISOString();
		await env.DB.prepare("UPDATE print_files SET expires_at = ?2 WHERE id = ?1").bind(ticket.id, past).run();
		const file = await readFile(partner.keys.live.key, ticket.id);
		expect(file.status).toBe("awaiting_upload");
		expect(new Date(file.expires_at).getTime()).toBeLessThan(Date.now());
	});

	it("another account's file is a 404", async () => {
		const owner = await createPartner();
		const stranger = await createPartner("Someone Else");
		const ticket = await requestUpload(owner.keys.live.key);
		await expectError(await api(`/v1/print-files/${ticket.id}`, { key: stranger.keys.live.key }), "not_found", "id");
	});

	it("a test key cannot read a live file, nor a live key a test file (404)", async () => {
		const partner = await createPartner();
		const live = await requestUpload(partner.keys.live.key);
		const test = await requestUpload(partner.keys.test.key);
		await expectError(await api(`/v1/print-files/${live.id}`, { key: partner.keys.test.key }), "not_found", "id");
		await expectError(await api(`/v1/print-files/${test.id}`, { key: partner.keys.live.key }), "not_found", "id");
		expect((await api(`/v1/print-files/${test.id}`, { key: partner.keys.test.key })).status).toBe(200);
	});

	it("an unknown id is a 404", async () => {
		const partner = await createPartner();
		await expectError(await api("/v1/print-files/pf_doesnotexist", { key: partner.keys.live.key }), "not_found", "id");
	});
});
