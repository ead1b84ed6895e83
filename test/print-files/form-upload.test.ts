/**
 * A print file posted in a console's form: stored under the owner's key, uploaded and then inspected
 * like an API upload, readable through the API; empty, oversized and non-image files are refused with
 * words to show the person, and nothing is stored for them.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_FORM_UPLOAD_BYTES, storeFormUpload } from "../../src/print-files/form-upload.ts";
import { api, createPartner } from "../helpers.ts";
import { sharpPng } from "./upload-helpers.ts";

describe("print files uploaded through a console form", () => {
	it("stores the file for its owner and mode; the API then reads it as ready with its pixel size", async () => {
		const partner = await createPartner();
		const owner = { accountId: partner.account.id, mode: "test" as const };
		const png = sharpPng();
		const stored = await storeFormUpload(env, owner, new File([png], "harbour.png", { type: "" }));
		if (!stored.ok) throw new Error(stored.message);
		expect(stored.file).toMatchObject({ content_type: "image/png", filename: "harbour.png", status: "processing" });
		const read = await api(`/v1/print-files/${stored.file.id}`, { key: partner.keys.test.key });
		expect(read.status).toBe(200);
		expect(await read.json()).toMatchObject({ status: "ready", size_bytes: png.length });
		const otherMode = await api(`/v1/print-files/${stored.file.id}`, { key: partner.keys.live.key });
		expect(otherMode.status).toBe(404);
	});

	it("refuses an empty file, a file over 64 MiB and a file that is not TIFF, PNG or JPEG, storing nothing", async () => {
		const partner = await createPartner();
		const owner = { accountId: partner.account.id, mode: "live" as const };
		const empty = await storeFormUpload(env, owner, new File([], "empty.png"));
		expect(empty).toEqual({ ok: false, message: expect.stringContaining("empty") });
		const huge = new File([new Uint8Array(MAX_FORM_UPLOAD_BYTES + 1)], "huge.png", { type: "image/png" });
		expect(await storeFormUpload(env, owner, huge)).toEqual({ ok: false, message: expect.stringContaining("64 MiB") });
		const pdf = new File([new Uint8Array([37, 80, 68, 70])], "print.pdf", { type: "application/pdf" });
		expect(await storeFormUpload(env, owner, pdf)).toEqual({
			ok: false,
			message: expect.stringContaining("TIFF, PNG or JPEG"),
		});
		const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM print_files WHERE account_id = ?1")
			.bind(owner.accountId)
			.first<{ n: number }>();
		expect(rows?.n).toBe(0);
	});
});
