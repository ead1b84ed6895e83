import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_PRINT_FILE_BYTES, printFileNow } from "../../src/print-files/inspection.ts";
import { findPrintFileById, type PrintFileRow } from "../../src/print-files/store.ts";
import { createPartner } from "../helpers.ts";
import { putBytes, requestUpload, smallPng } from "./upload-helpers.ts";

async function uploadedFile(): Promise<PrintFileRow> {
	const partner = await createPartner();
	const ticket = await requestUpload(partner.keys.live.key);
	await putBytes(ticket.upload_url, smallPng(30, 20), ticket.upload_headers);
	const row = await findPrintFileById(env.DB, ticket.id);
	if (row === null) throw new Error("file row missing");
	return row;
}

/** The real bucket with one method replaced: fault injection for what R2 cannot be made to do here. */
function bucketWith(overrides: Partial<Pick<R2Bucket, "get" | "head">>): R2Bucket {
	return Object.assign(Object.create(env.PRINT_FILES) as R2Bucket, {
		head: (key: string) => env.PRINT_FILES.head(key),
		get: (key: string, options?: R2GetOptions) => env.PRINT_FILES.get(key, options),
		...overrides,
	});
}

describe("printFileNow, on a file not inspected yet", () => {
	it("leaves a file that is not in R2 yet as it is", async () => {
		const partner = await createPartner();
		const ticket = await requestUpload(partner.keys.live.key);
		const row = await findPrintFileById(env.DB, ticket.id);
		if (row === null) throw new Error("file row missing");
		const after = await printFileNow(env, row);
		expect(after).toEqual(row);
	});

	it("records nothing when R2 fails to serve the bytes, so the next read inspects again", async () => {
		const row = await uploadedFile();
		const failing = { ...env, PRINT_FILES: bucketWith({ get: () => Promise.reject(new Error("R2 is unavailable")) }) };
		await expect(printFileNow(failing, row)).rejects.toThrow(/could not be read/);
		expect((await findPrintFileById(env.DB, row.id))?.inspected_at).toBeNull();

		const retried = await printFileNow(env, row);
		expect(retried).toMatchObject({ status: "ready", width_px: 30, height_px: 20 });
	});

	it("marks an object over 512 MiB invalid without reading it (a presigned upload R2 could not cap)", async () => {
		const row = await uploadedFile();
		let reads = 0;
		const oversized = {
			...env,
			PRINT_FILES: bucketWith({
				head: async (key: string) => {
					const real = await env.PRINT_FILES.head(key);
					// Only the fields printFileNow reads; a 512 MiB object is more than this test should write.
					return real === null
						? null
						: ({
								key: real.key,
								size: MAX_PRINT_FILE_BYTES + 1,
								etag: real.etag,
								uploaded: real.uploaded,
							} as unknown as R2Object);
				},
				get: () => {
					reads += 1;
					return Promise.resolve(null);
				},
			}),
		};
		const after = await printFileNow(oversized, row);
		expect(after).toMatchObject({
			status: "invalid",
			invalid_reason: "file_too_large",
			size_bytes: MAX_PRINT_FILE_BYTES + 1,
		});
		expect(reads).toBe(0);
	});
});
