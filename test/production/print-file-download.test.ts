/**
 * The floor downloads print files: `GET /v1/ops/print-files/{id}/download` (ops key) and the
 * console's link, streamed from R2 exactly as inspected, named by the order and item.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { findPrintFileById } from "../../src/print-files/store.ts";
import { consoleRequest, signedInOperator } from "../console/console-helpers.ts";
import { api, createKeyWithScopes, expectError } from "../helpers.ts";
import { concat } from "../imaging/fixtures/bytes.ts";
import { pngChunk } from "../imaging/fixtures/png.ts";
import { createOrder, externalId, orderBody, partnerWithFile } from "../orders/order-helpers.ts";
import { pngClaiming, uploadImage } from "../print-files/upload-helpers.ts";

function download(key: string, fileId: string, query = ""): Promise<Response> {
	return api(`/v1/ops/print-files/${fileId}/download${query}`, { key });
}

/** SHA-256 of a stream, hex, without holding it whole. */
async function streamHash(body: ReadableStream<Uint8Array> | null): Promise<{ hash: string; bytes: number }> {
	if (body === null) throw new Error("no body");
	const digest = new crypto.DigestStream("SHA-256");
	let bytes = 0;
	await body
		.pipeThrough(
			new TransformStream<Uint8Array, Uint8Array>({
				transform(chunk, controller) {
					bytes += chunk.byteLength;
					controller.enqueue(chunk);
				},
			}),
		)
		.pipeTo(digest);
	return { hash: hex(await digest.digest), bytes };
}

function hex(buffer: ArrayBuffer): string {
	return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * A PNG claiming 2400 × 3000 px with `megabytes` MB of a pattern in a private ancillary chunk before
 * its IEND: a large file the inspector accepts.
 */
function largePng(megabytes: number): Uint8Array {
	const pattern = new Uint8Array(megabytes * 1_000_000);
	for (let index = 0; index < pattern.length; index += 1) pattern[index] = (index * 31 + (index >> 12)) & 0xff;
	const png = pngClaiming(2400, 3000);
	const iend = png.length - 12;
	return concat(png.subarray(0, iend), pngChunk("prVt", pattern), png.subarray(iend));
}

describe("GET /v1/ops/print-files/{id}/download", () => {
	it("streams a large file byte for byte, named by the order's external id and the item's place", async () => {
		const { key } = await partnerWithFile();
		const bytes = largePng(40);
		const fileId = await uploadImage(key, bytes, "image/png");
		const body = orderBody(fileId, { external_id: externalId("BIG") });
		body.items.push({ ...body.items[0], frame: "gallery-black-125" } as (typeof body.items)[0]);
		const order = await createOrder(key, body);
		const ops = await createKeyWithScopes(["ops"]);

		const response = await download(ops, fileId, `?item_id=${order.items[1]?.id}`);
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toBe("image/png");
		expect(response.headers.get("Content-Length")).toBe(String(bytes.length));
		expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="${body.external_id}_item-2.png"`);
		expect(response.headers.get("Cache-Control")).toBe("private, no-store");
		const expected = hex(await crypto.subtle.digest("SHA-256", bytes));
		expect(await streamHash(response.body)).toEqual({ hash: expected, bytes: bytes.length });

		// Without item_id, the first item printing it names it.
		const first = await download(ops, fileId);
		expect(first.headers.get("Content-Disposition")).toBe(`attachment; filename="${body.external_id}_item-1.png"`);
		await first.body?.cancel();
	});

	it("a partner key is refused with 403, even the owner's", async () => {
		const { key, file } = await partnerWithFile();
		await createOrder(key, orderBody(file));
		await expectError(await download(key, file), "forbidden");
	});

	it("bytes replaced in R2 after the inspection are refused with 409, and nothing is streamed", async () => {
		const { key, file } = await partnerWithFile();
		await createOrder(key, orderBody(file));
		const row = await findPrintFileById(env.DB, file);
		if (row === null) throw new Error("no file");
		await env.PRINT_FILES.put(row.r2_key, pngClaiming(4000, 4000));
		const error = await expectError(await download(await createKeyWithScopes(["ops"]), file), "conflict", "id");
		expect(error.message).toContain("replaced after it was checked");
	});

	it("an unknown file, an item that does not print it, or a file not yet uploaded is refused", async () => {
		const { key, file } = await partnerWithFile();
		const ops = await createKeyWithScopes(["ops"]);
		expect((await expectError(await download(ops, "pf_nothing"), "not_found", "id")).code).toBe("print_file_not_found");
		await expectError(await download(ops, file, "?item_id=itm_other"), "not_found", "item_id");
		const ticket = await api("/v1/print-files", {
			key,
			method: "POST",
			headers: { "Content-Type": "application/json" },
			body: JSON.stringify({ content_type: "image/png" }),
		});
		const { id } = (await ticket.json()) as { id: string };
		const pending = await expectError(await download(ops, id), "conflict", "id");
		expect(pending.message).toContain("awaiting_upload");
	});

	it("an item that does not print the file is 404 order_item_not_found on item_id, not print_file_not_found: the file exists", async () => {
		const { key, file } = await partnerWithFile();
		const order = await createOrder(key, orderBody(file));
		const ops = await createKeyWithScopes(["ops"]);
		const refused = await expectError(await download(ops, file, "?item_id=itm_nothing"), "not_found", "item_id");
		expect(refused.code).toBe("order_item_not_found");
		expect(refused.message).toBe(`Item itm_nothing does not print file ${file}.`);
		// The file and an item that prints it are served.
		expect((await download(ops, file, `?item_id=${order.items[0]?.id}`)).status).toBe(200);
	});

	it("an external id with characters a file name cannot carry is reduced to safe ones", async () => {
		const { key, file } = await partnerWithFile();
		await createOrder(key, orderBody(file, { external_id: `"../Ünï cøde/${crypto.randomUUID().slice(0, 6)}"` }));
		const response = await download(await createKeyWithScopes(["ops"]), file);
		const disposition = response.headers.get("Content-Disposition") ?? "";
		await response.body?.cancel();
		expect(disposition).toMatch(/^attachment; filename="[A-Za-z0-9._-]+_item-1\.png"$/);
		expect(disposition).not.toContain("..");
	});
});

describe("GET /ops/print-files/:id/download (console)", () => {
	it("a signed-in operator downloads the file the order page links", async () => {
		const operator = await signedInOperator();
		const { key, file } = await partnerWithFile();
		const order = await createOrder(key, orderBody(file));
		const page = await (await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie })).text();
		const link = `/ops/print-files/${file}/download?item_id=${order.items[0]?.id}`;
		expect(page).toContain(`href="${link}"`);
		const response = await consoleRequest(link, { cookie: operator.cookie });
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Disposition")).toContain(`${order.external_id}_item-1.png`);
		await response.body?.cancel();
	});

	it("without a session it is not served", async () => {
		const { file } = await partnerWithFile();
		const response = await consoleRequest(`/ops/print-files/${file}/download`, {});
		expect(response.status).not.toBe(200);
		await response.body?.cancel();
	});
});
