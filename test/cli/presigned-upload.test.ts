/**
 * The R2 presigned upload path end to end, as `npm start` runs it: a real `wrangler dev` with
 * UPLOAD_METHOD=r2-presigned against wrangler's local R2 S3 endpoint, and real `curl -T` uploads.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import UPNG from "upng-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../scripts/lib/accounts.ts";
import { type DevServer, freePort, startDevServer } from "../../scripts/lib/dev-server.ts";
import { presignedUploadVars } from "../../scripts/lib/local-uploads.ts";
import { migrateFreshFolder } from "../../scripts/lib/migrated-template.ts";
import type { NewAccount } from "../../src/admin/provisioning.ts";

const run = promisify(execFile);
/** Short, so the expiry test need not wait long; uploads in the other tests start at once. */
const URL_LIFETIME_SECONDS = 5;

let folder = "";
let server: DevServer | undefined;
let partner: NewAccount;

type Ticket = { id: string; upload_url: string; upload_headers: Record<string, string> };

function origin(): string {
	if (server === undefined) throw new Error("dev server not started");
	return server.origin;
}

async function requestUpload(body: Record<string, unknown>): Promise<Ticket> {
	const response = await fetch(`${origin()}/v1/print-files`, {
		method: "POST",
		headers: { Authorization: `Bearer ${partner.keys.live.key}`, "Content-Type": "application/json" },
		body: JSON.stringify(body),
	});
	expect(response.status).toBe(201);
	return (await response.json()) as Ticket;
}

async function readPrintFile(id: string): Promise<Record<string, unknown>> {
	const response = await fetch(`${origin()}/v1/print-files/${id}`, {
		headers: { Authorization: `Bearer ${partner.keys.live.key}` },
	});
	expect(response.status).toBe(200);
	return (await response.json()) as Record<string, unknown>;
}

/** `curl -T file url [-H ...]`, returning the HTTP status. */
async function curlUpload(file: string, url: string, headers: Record<string, string> = {}): Promise<number> {
	const headerArgs = Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
	const { stdout } = await run("curl", [
		"-sS",
		"-o",
		"/dev/null",
		"-w",
		"%{http_code}",
		...headerArgs,
		"-T",
		file,
		url,
	]);
	return Number(stdout);
}

async function pngFile(name: string, width: number, height: number): Promise<string> {
	const rgba = new Uint8Array(width * height * 4).fill(90);
	const file = path.join(folder, name);
	await writeFile(file, new Uint8Array(UPNG.encode([rgba.buffer], width, height, 0)));
	return file;
}

beforeAll(async () => {
	folder = await mkdtemp(path.join(tmpdir(), "fps-presigned-"));
	await migrateFreshFolder(folder);
	partner = await createAccount({ remote: false, persistTo: folder }, "Presigned Upload Partner");
	const port = await freePort();
	server = await startDevServer({
		port,
		persistTo: folder,
		vars: {
			UPLOAD_URL_TTL_SECONDS: String(URL_LIFETIME_SECONDS),
			...presignedUploadVars(`http://127.0.0.1:${port}`),
		},
	});
});

afterAll(async () => {
	await server?.stop();
	await rm(folder, { recursive: true, force: true });
});

describe("R2 presigned uploads (UPLOAD_METHOD=r2-presigned)", () => {
	it("upload_url is a presigned URL on R2's S3 endpoint that curl -T with the upload_headers accepts; the file is then inspected", async () => {
		const ticket = await requestUpload({ content_type: "image/png" });
		const url = new URL(ticket.upload_url);
		expect(url.pathname).toMatch(/^\/cdn-cgi\/local\/r2\/s3\/framed-print-files\/print-files\/live\//);
		expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);

		expect(ticket.upload_headers["If-None-Match"]).toBe("*");
		const file = await pngFile("plain.png", 64, 48);
		expect(await curlUpload(file, ticket.upload_url, ticket.upload_headers)).toBe(200);
		expect(await readPrintFile(ticket.id)).toMatchObject({
			status: "ready",
			format: "png",
			width_px: 64,
			height_px: 48,
		});
	});

	it("a second upload with the upload_headers (If-None-Match: *) is refused by R2 with 412", async () => {
		const ticket = await requestUpload({ content_type: "image/png" });
		const file = await pngFile("twice.png", 20, 10);
		expect(await curlUpload(file, ticket.upload_url, ticket.upload_headers)).toBe(200);
		const other = await pngFile("other.png", 30, 30);
		expect(await curlUpload(other, ticket.upload_url, ticket.upload_headers)).toBe(412);
		expect(await readPrintFile(ticket.id)).toMatchObject({ width_px: 20, height_px: 10 });
	});

	it("a second plain PUT without If-None-Match (as curl -T sends it) cannot replace the file: the precondition is signed", async () => {
		const ticket = await requestUpload({ content_type: "image/png" });
		const file = await pngFile("checked.png", 20, 10);
		expect(await curlUpload(file, ticket.upload_url, ticket.upload_headers)).toBe(200);
		expect(await readPrintFile(ticket.id)).toMatchObject({ status: "ready", width_px: 20, height_px: 10 });
		const swapped = await pngFile("swapped.png", 4000, 4000);
		expect(await curlUpload(swapped, ticket.upload_url)).toBe(403);
		expect(await curlUpload(swapped, ticket.upload_url, { "Content-Type": "image/png" })).toBe(403);
		expect(await readPrintFile(ticket.id)).toMatchObject({ status: "ready", width_px: 20, height_px: 10 });
	});

	it("a tampered URL is refused by R2 with 403", async () => {
		const ticket = await requestUpload({ content_type: "image/png" });
		const url = new URL(ticket.upload_url);
		const signature = url.searchParams.get("X-Amz-Signature") ?? "";
		url.searchParams.set("X-Amz-Signature", `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`);
		expect(await curlUpload(await pngFile("tampered.png", 8, 8), url.toString())).toBe(403);
		expect(await readPrintFile(ticket.id)).toMatchObject({ status: "awaiting_upload" });
	});

	it("with a declared size_bytes, an upload of another size is refused by R2 with 403", async () => {
		const file = await pngFile("sized.png", 16, 16);
		const ticket = await requestUpload({ content_type: "image/png", size_bytes: 10 });
		// curl sends the file's real length, which is not the one signed into the URL.
		expect(await curlUpload(file, ticket.upload_url, { "If-None-Match": "*" })).toBe(403);
		expect(await readPrintFile(ticket.id)).toMatchObject({ status: "awaiting_upload" });
	});

	it("an expired URL is refused by R2 with 403", async () => {
		const ticket = await requestUpload({ content_type: "image/png" });
		// The only wait in the suite: the URL must really expire on R2's clock.
		await new Promise((resolve) => setTimeout(resolve, (URL_LIFETIME_SECONDS + 1.5) * 1000));
		expect(await curlUpload(await pngFile("late.png", 8, 8), ticket.upload_url, ticket.upload_headers)).toBe(403);
		expect(await readPrintFile(ticket.id)).toMatchObject({ status: "awaiting_upload" });
	});
});
