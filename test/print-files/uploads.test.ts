import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PrintFile } from "../../src/print-files/schema.ts";
import { signUpload, verifyUpload } from "../../src/print-files/upload-signature.ts";
import { R2PresignedIssuer } from "../../src/print-files/upload-url.ts";
import { api, createPartner, expectError } from "../helpers.ts";
import { putBytes, requestUpload, smallPng } from "./upload-helpers.ts";

const SECRET = "test-upload-signing-secret-0123456789";

async function freshTicket() {
	const partner = await createPartner();
	return { partner, ticket: await requestUpload(partner.keys.live.key) };
}

function withParam(uploadUrl: string, name: string, value: string | null): string {
	const url = new URL(uploadUrl);
	if (value === null) url.searchParams.delete(name);
	else url.searchParams.set(name, value);
	return url.toString();
}

describe("PUT /v1/uploads/{id} (the worker's signed upload route)", () => {
	it("stores the bytes in R2 under the file's key, without an API key", async () => {
		const { ticket } = await freshTicket();
		const png = smallPng(40, 40);
		const response = await putBytes(ticket.upload_url, png, ticket.upload_headers);
		expect(response.status).toBe(200);
		const body = (await response.json()) as PrintFile;
		expect(body).toMatchObject({ id: ticket.id, status: "processing", size_bytes: png.byteLength });
		const row = await env.DB.prepare("SELECT r2_key FROM print_files WHERE id = ?1")
			.bind(ticket.id)
			.first<{ r2_key: string }>();
		const stored = await env.PRINT_FILES.get(row?.r2_key ?? "");
		expect(new Uint8Array((await stored?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(png);
	});

	it("refuses a second upload to the same file with a 409 and keeps the first bytes", async () => {
		const { partner, ticket } = await freshTicket();
		const first = smallPng(48, 36);
		expect((await putBytes(ticket.upload_url, first)).status).toBe(200);
		await expectError(await putBytes(ticket.upload_url, smallPng(50, 50)), "conflict");
		const file = (await (
			await api(`/v1/print-files/${ticket.id}`, { key: partner.keys.live.key })
		).json()) as PrintFile;
		expect([file.width_px, file.height_px]).toEqual([48, 36]);
	});

	it("two racing uploads to one file: exactly one is stored", async () => {
		const { ticket } = await freshTicket();
		const results = await Promise.all([
			putBytes(ticket.upload_url, smallPng(24, 24)),
			putBytes(ticket.upload_url, smallPng(25, 25)),
		]);
		expect(results.map((response) => response.status).sort()).toEqual([200, 409]);
	});

	it("refuses an expired URL with a 403, even with a valid signature", async () => {
		const { ticket } = await freshTicket();
		const past = Math.floor(Date.now() / 1000) - 1;
		const url = withParam(
			withParam(ticket.upload_url, "expires", String(past)),
			"sig",
			await signUpload(SECRET, ticket.id, past),
		);
		const error = await expectError(await putBytes(url, smallPng(24, 24)), "forbidden");
		expect(error.message).toContain("expired");
	});

	it("refuses a tampered URL with a 403: signature, expiry or id changed, or signature missing", async () => {
		const { ticket } = await freshTicket();
		const sig = new URL(ticket.upload_url).searchParams.get("sig") ?? "";
		const flipped = `${sig.slice(0, -1)}${sig.endsWith("0") ? "1" : "0"}`;
		const later = String(Number(new URL(ticket.upload_url).searchParams.get("expires")) + 3600);
		const other = await requestUpload((await createPartner()).keys.live.key);
		const otherPath = new URL(ticket.upload_url);
		otherPath.pathname = `/v1/uploads/${other.id}`;
		for (const url of [
			withParam(ticket.upload_url, "sig", flipped),
			withParam(ticket.upload_url, "expires", later),
			otherPath.toString(),
			withParam(ticket.upload_url, "sig", null),
		]) {
			await expectError(await putBytes(url, smallPng(24, 24)), "forbidden");
		}
		const row = await env.DB.prepare("SELECT status FROM print_files WHERE id = ?1")
			.bind(other.id)
			.first<{ status: string }>();
		expect(row?.status).toBe("awaiting_upload");
	});

	it("refuses an upload whose size differs from the declared size_bytes", async () => {
		const partner = await createPartner();
		const ticket = await requestUpload(partner.keys.live.key, { content_type: "image/png", size_bytes: 10 });
		const error = await expectError(await putBytes(ticket.upload_url, new Uint8Array(20)), "bad_request");
		expect(error.message).toContain("declared");
	});

	it("refuses a body without Content-Length", async () => {
		const { ticket } = await freshTicket();
		const url = new URL(ticket.upload_url);
		const stream = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(smallPng(24, 24));
				controller.close();
			},
		});
		const response = await api(`${url.pathname}${url.search}`, { method: "PUT", body: stream });
		const error = await expectError(response, "bad_request");
		expect(error.message).toContain("Content-Length");
	});

	it("refuses a file over the 512 MiB cap before reading it", async () => {
		const { ticket } = await freshTicket();
		const url = new URL(ticket.upload_url);
		const oversize = 512 * 1024 * 1024 + 1;
		const stream = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(new Uint8Array(16));
				controller.close();
			},
		});
		const response = await api(`${url.pathname}${url.search}`, {
			method: "PUT",
			body: stream,
			headers: { "Content-Length": String(oversize) },
		});
		const error = await expectError(response, "bad_request");
		expect(error.message).toContain("512 MiB");
	});
});

describe("upload signatures", () => {
	it("verify only the id and expiry they were made for, with the secret they were made with", async () => {
		const sig = await signUpload(SECRET, "pf_a", 2_000_000_000);
		expect(await verifyUpload(SECRET, "pf_a", 2_000_000_000, sig)).toBe(true);
		expect(await verifyUpload(SECRET, "pf_b", 2_000_000_000, sig)).toBe(false);
		expect(await verifyUpload(SECRET, "pf_a", 2_000_000_001, sig)).toBe(false);
		expect(await verifyUpload("another-secret", "pf_a", 2_000_000_000, sig)).toBe(false);
		expect(await verifyUpload(SECRET, "pf_a", 2_000_000_000, "zz")).toBe(false);
	});
});

describe("R2PresignedIssuer", () => {
	const issuer = new R2PresignedIssuer({
		endpoint: "https://account.r2.cloudflarestorage.com/",
		bucket: "framed-print-files",
		accessKeyId: "AKIDEXAMPLE",
		secretAccessKey: "secret",
	});

	it("signs a query-string PUT to the file's key in the bucket, for the URL's lifetime, over the host and If-None-Match: *", async () => {
		const target = await issuer.issue({
			id: "pf_x",
			r2Key: "print-files/live/acct_1/pf_x",
			contentType: "image/png",
			declaredSizeBytes: null,
			expiresAt: new Date(Date.now() + 3_600_000),
		});
		const url = new URL(target.url);
		expect(url.origin + url.pathname).toBe(
			"https://account.r2.cloudflarestorage.com/framed-print-files/print-files/live/acct_1/pf_x",
		);
		expect(url.searchParams.get("X-Amz-Expires")).toBe("3600");
		// The precondition is signed: the URL cannot be used to replace the bytes once they are stored.
		expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("host;if-none-match");
		expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
		expect(target.headers).toEqual({ "Content-Type": "image/png", "If-None-Match": "*" });
	});

	it("also signs Content-Length when the size was declared, so another size is refused by R2", async () => {
		const target = await issuer.issue({
			id: "pf_y",
			r2Key: "k",
			contentType: "image/tiff",
			declaredSizeBytes: 1234,
			expiresAt: new Date(Date.now() + 600_000),
		});
		expect(new URL(target.url).searchParams.get("X-Amz-SignedHeaders")).toBe("content-length;host;if-none-match");
		expect(target.headers["Content-Length"]).toBe("1234");
	});
});
