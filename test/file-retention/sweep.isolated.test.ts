import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createClaim } from "../../src/claims/create-claim.ts";
import type { CreateClaimInput } from "../../src/claims/schema.ts";
import { sweepExpiredPrintFiles } from "../../src/file-retention/sweep.ts";
import { expiredSinceChecked } from "../../src/print-files/retention.ts";
import { findPrintFileById } from "../../src/print-files/store.ts";
import { putProfile } from "../branding/branding-helpers.ts";
import { ageShipment, damagedBody, deliveredOrder, postClaimOk, shippedOrder } from "../claims/claim-helpers.ts";
import { consoleRequest, htmlOf, signedInOperator } from "../console/console-helpers.ts";
import { api, createPartner, expectError, ISO_UTC, send } from "../helpers.ts";
import {
	createOrder,
	orderBody,
	postOrder,
	readOrder,
	settleValidation,
	urlOrderBody,
} from "../orders/order-helpers.ts";
import { partnerFileServer } from "../print-files/file-hosting.ts";
import { putBytes, requestUpload, sharpPng, smallPng, uploadedFile } from "../print-files/upload-helpers.ts";
import { partnerWithThumbnail } from "../thumbnails/thumbnail-helpers.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const { hostFile } = partnerFileServer("file-retention");

/** `days` from now, as the sweep's clock. */
function daysFromNow(days: number): Date {
	return new Date(Date.now() + days * DAY_MS);
}

/** The file's row: whether it expired, and whether its object is still in R2. */
async function fileState(id: string): Promise<{ expired: boolean; inR2: boolean }> {
	const row = await findPrintFileById(env.DB, id);
	if (row === null) throw new Error(`no print file ${id}`);
	return { expired: row.expired_at !== null, inR2: (await env.PRINT_FILES.head(row.r2_key)) !== null };
}

/** Sets a column of an order (a delivery moved in time, say), as if the clock had moved on. */
async function setOrderTime(orderId: string, column: "delivered_at", at: Date): Promise<void> {
	await env.DB.prepare(`UPDATE orders SET ${column} = ?2 WHERE id = ?1`).bind(orderId, at.toISOString()).run();
}

/** Starts the file's retention clock in January 2000, as if it had been created (or last used) then. */
async function backdateClock(id: string): Promise<void> {
	await env.DB.prepare("UPDATE print_files SET retention_clock = '2000-01-01T00:00:00.000Z' WHERE id = ?1")
		.bind(id)
		.run();
}

/** Sweeps at `keptAt`, where the file must still be kept, then at `expiredAt`, where it must be expired and gone from R2. */
async function expectExpiresBetween(file: string, keptAt: Date, expiredAt: Date, swept: Env = env): Promise<void> {
	await sweepExpiredPrintFiles(swept, keptAt);
	expect(await fileState(file)).toEqual({ expired: false, inR2: true });
	await sweepExpiredPrintFiles(swept, expiredAt);
	expect(await fileState(file)).toEqual({ expired: true, inR2: false });
}

/** A ready file of a new partner, expired by the sweep (nothing used it; the clock moved 46 days on). */
async function expiredFile() {
	const partner = await createPartner();
	const key = partner.keys.live.key;
	const file = await uploadedFile(key, sharpPng());
	await sweepExpiredPrintFiles(env, daysFromNow(46));
	expect(await fileState(file)).toEqual({ expired: true, inR2: false });
	return { partner, key, file };
}

describe("the print files' retention sweep", () => {
	it("a file never used is kept 45 days after its creation, then expires: it reads expired, its bytes leave R2, its thumbnail stays", async () => {
		const { key, file } = await partnerWithThumbnail();
		await sweepExpiredPrintFiles(env, daysFromNow(44));
		expect(await fileState(file)).toEqual({ expired: false, inR2: true });

		await sweepExpiredPrintFiles(env, daysFromNow(46));
		expect(await fileState(file)).toEqual({ expired: true, inR2: false });
		const read = await api(`/v1/print-files/${file}`, { key });
		expect(read.status).toBe(200);
		const body = (await read.json()) as { status: string; expired_at: string | null; thumbnail: { status: string } };
		expect(body.status).toBe("expired");
		expect(body.expired_at).toMatch(ISO_UTC);
		expect(body.thumbnail.status).toBe("ready");
		const thumbnail = await api(`/v1/print-files/${file}/thumbnail`, { key });
		expect(thumbnail.status).toBe(200);
		expect(thumbnail.headers.get("content-type")).toBe("image/png");
		await thumbnail.arrayBuffer();
	});

	it("a file on an order shipped but not delivered is kept, however old", async () => {
		const { file } = await shippedOrder(1);
		await sweepExpiredPrintFiles(env, daysFromNow(400));
		expect(await fileState(file)).toEqual({ expired: false, inR2: true });
	});

	it("a file's clock starts when its last order is delivered: a second order delivered later keeps it 45 days more", async () => {
		const { key, opsKey, file, order } = await deliveredOrder(1);
		const second = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		expect(second.status).toBe("in_production");
		const shipped = await send("POST", `/v1/ops/orders/${second.id}/shipments`, opsKey, {
			carrier: "UPS",
			number: "1Z999AA10123456784",
		});
		expect(shipped.status).toBe(201);
		const shipment = (await shipped.json()) as { id: string };
		expect((await api(`/v1/ops/shipments/${shipment.id}/deliver`, { method: "POST", key: opsKey })).status).toBe(200);
		expect((await readOrder(key, order.id)).status).toBe("delivered");
		expect((await readOrder(key, second.id)).status).toBe("delivered");
		// The first order was delivered now; the second, as if 40 days from now.
		await setOrderTime(second.id, "delivered_at", daysFromNow(40));

		await sweepExpiredPrintFiles(env, daysFromNow(46));
		expect(await fileState(file)).toEqual({ expired: false, inR2: true });
		await sweepExpiredPrintFiles(env, daysFromNow(84));
		expect(await fileState(file)).toEqual({ expired: false, inR2: true });
		await sweepExpiredPrintFiles(env, daysFromNow(86));
		expect(await fileState(file)).toEqual({ expired: true, inR2: false });
	});

	it("an open claim keeps its order's file and its photo; once decided, both count from the decision", async () => {
		const { key, opsKey, file, order, itemId, photo } = await deliveredOrder(1);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		await sweepExpiredPrintFiles(env, daysFromNow(100));
		expect(await fileState(file)).toEqual({ expired: false, inR2: true });
		expect(await fileState(photo)).toEqual({ expired: false, inR2: true });

		const rejected = await send("POST", `/v1/ops/claims/${claim.id}/reject`, opsKey, { message: "Not damaged." });
		expect(rejected.status).toBe(200);
		// As if the claim had been decided 120 days from now: both are kept 45 days from then.
		await env.DB.prepare("UPDATE claims SET resolved_at = ?2 WHERE id = ?1")
			.bind(claim.id, daysFromNow(120).toISOString())
			.run();
		await sweepExpiredPrintFiles(env, daysFromNow(146));
		expect(await fileState(file)).toEqual({ expired: false, inR2: true });
		expect(await fileState(photo)).toEqual({ expired: false, inR2: true });
		await sweepExpiredPrintFiles(env, daysFromNow(166));
		expect(await fileState(file)).toEqual({ expired: true, inR2: false });
		expect(await fileState(photo)).toEqual({ expired: true, inR2: false });
	});

	it("a brand's logo is kept while it is the logo, and counts from the moment it is replaced", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const logo = await uploadedFile(key, smallPng(120, 40));
		await putProfile(key, { brand_name: "Lumen Prints", logo_print_file_id: logo });
		await backdateClock(logo);
		await sweepExpiredPrintFiles(env);
		expect(await fileState(logo)).toEqual({ expired: false, inR2: true });

		// Its clock as old as can be again: only the replacement starts it anew.
		await backdateClock(logo);
		await putProfile(key, { brand_name: "Lumen Prints" });
		await expectExpiresBetween(logo, daysFromNow(44), daysFromNow(46));
	});

	it("more due files than one batch take two runs, and a rerun changes nothing", async () => {
		const key = (await createPartner()).keys.live.key;
		const files = [
			await uploadedFile(key, smallPng(48, 36)),
			await uploadedFile(key, smallPng(49, 36)),
			await uploadedFile(key, smallPng(50, 36)),
		];
		// These three alone are due at the sweep's clock: created (as it were) in January 2000.
		for (const id of files) await backdateClock(id);
		const at = new Date("2000-03-01T00:00:00.000Z");
		const first = await sweepExpiredPrintFiles(env, at, 2);
		expect(first.expired).toBe(2);
		const second = await sweepExpiredPrintFiles(env, at, 2);
		expect(second.expired).toBe(1);
		await sweepExpiredPrintFiles(env, at, 2);
		for (const id of files) expect(await fileState(id)).toEqual({ expired: true, inR2: false });
		expect(await sweepExpiredPrintFiles(env, at, 2)).toEqual({ expired: 0, postponed: 0, purged: 0 });
	});

	it("an object already gone from R2, or a run that crashed between expiry and deletion, is finished without error", async () => {
		const key = (await createPartner()).keys.live.key;
		const gone = await uploadedFile(key, smallPng(51, 36));
		const halfDone = await uploadedFile(key, smallPng(52, 36));
		const goneRow = await findPrintFileById(env.DB, gone);
		await env.PRINT_FILES.delete(goneRow?.r2_key ?? "");
		// As a run that died after writing the expiry and before deleting the object leaves it.
		await env.DB.prepare("UPDATE print_files SET expired_at = ?2 WHERE id = ?1")
			.bind(halfDone, new Date().toISOString())
			.run();
		await sweepExpiredPrintFiles(env, daysFromNow(46));
		expect(await fileState(gone)).toEqual({ expired: true, inR2: false });
		expect(await fileState(halfDone)).toEqual({ expired: true, inR2: false });
		expect((await findPrintFileById(env.DB, halfDone))?.purged_at).toMatch(ISO_UTC);
	});
});

describe("a write refused for an expired file, told by the files' rows", () => {
	it("expiredSinceChecked names the first use whose file reads expired, and nothing while every file is kept", async () => {
		const { partner, file: expired } = await expiredFile();
		const kept = await uploadedFile(partner.keys.live.key, smallPng(59, 37));
		const accountId = partner.account.id;
		// A failure of any other kind, whatever its message says, is not taken for an expiry: no file is expired.
		expect(await expiredSinceChecked(env.DB, accountId, [{ fileId: kept, field: "items[0].print_file_id" }])).toBe(
			null,
		);
		const uses = [
			{ fileId: kept, field: "items[0].print_file_id" },
			{ fileId: expired, field: "items[1].print_file_id" },
		];
		expect(await expiredSinceChecked(env.DB, accountId, uses)).toMatchObject({
			ok: false,
			code: "print_file_expired",
			field: "items[1].print_file_id",
			message: expect.stringContaining(`Print file ${expired} expired`),
		});
		// Another account's file of the same id is not read as this account's.
		expect(await expiredSinceChecked(env.DB, (await createPartner()).account.id, uses)).toBe(null);
	});
});

describe("an expired print file on the floor", () => {
	it("the console's order page shows it as expired without a download link, and its download is a 409", async () => {
		const { opsKey, file, order } = await deliveredOrder(1);
		await sweepExpiredPrintFiles(env, daysFromNow(46));
		expect(await fileState(file)).toEqual({ expired: true, inR2: false });
		const itemId = order.items[0]?.id ?? "";
		const download = await api(`/v1/ops/print-files/${file}/download?item_id=${itemId}`, { key: opsKey });
		expect((await expectError(download, "conflict", "id")).message).toMatch(/expired/);

		const operator = await signedInOperator();
		const html = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		expect(html).toContain(`<code>${file}</code> <span class="warning">expired</span>`);
		expect(html).not.toContain(`/ops/print-files/${file}/download`);
	});
});

describe("using an expired print file", () => {
	it("on a new order is a 422 print_file_expired naming the item's field", async () => {
		const { key, file } = await expiredFile();
		const fresh = await uploadedFile(key, sharpPng());
		const body = orderBody(fresh);
		const [item] = body.items;
		const response = await postOrder(key, { ...body, items: [item, { ...item, print_file_id: file }] });
		expect((await expectError(response, "validation_error", "items[1].print_file_id")).code).toBe("print_file_expired");
	});

	it("on a quote, a claim photo, a logo and a preview is a 422 print_file_expired naming the field", async () => {
		const { key, file } = await expiredFile();
		const item = { print_file_id: file, width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" };
		const quote = await send("POST", "/v1/quotes", key, { ship_to: orderBody(file).ship_to, items: [item] });
		expect((await expectError(quote, "validation_error", "items[0].print_file_id")).code).toBe("print_file_expired");
		const logo = await send("PUT", "/v1/branding", key, { brand_name: "Lumen", logo_print_file_id: file });
		expect((await expectError(logo, "validation_error", "logo_print_file_id")).code).toBe("print_file_expired");
		const preview = await send("POST", "/v1/previews", key, { ...item, width_px: 300 });
		expect((await expectError(preview, "validation_error", "print_file_id")).code).toBe("print_file_expired");

		const { key: claimKey, order, itemId } = await deliveredOrder(1);
		const photo = await uploadedFile(claimKey, smallPng(40, 30));
		await env.DB.prepare("UPDATE print_files SET expired_at = ?2 WHERE id = ?1")
			.bind(photo, new Date().toISOString())
			.run();
		const claim = await send("POST", `/v1/orders/${order.id}/claims`, claimKey, damagedBody(itemId, 1, [photo]));
		expect((await expectError(claim, "validation_error", "photo_file_ids[0]")).code).toBe("print_file_expired");
	});

	it("on an item's fix is a 422 print_file_expired naming print_file_id", async () => {
		const { key, file } = await expiredFile();
		const created = await createOrder(key, urlOrderBody(await hostFile(sharpPng()), "RET", { frame: "no-such-frame" }));
		const held = await settleValidation(key, created.id);
		expect(held.status).toBe("on_hold");
		const patch = await send("PATCH", `/v1/orders/${held.id}/items/${held.items[0]?.id ?? ""}`, key, {
			print_file_id: file,
			frame: "walnut-flat-075",
		});
		expect((await expectError(patch, "validation_error", "print_file_id")).code).toBe("print_file_expired");
	});

	it("another account, or the other mode, naming an expired file learns nothing of it: it is not its file", async () => {
		const { partner, file } = await expiredFile();
		const testMode = await api(`/v1/print-files/${file}`, { key: partner.keys.test.key });
		expect(testMode.status).toBe(404);
		await testMode.arrayBuffer();
		const testOrder = await postOrder(partner.keys.test.key, orderBody(file));
		expect((await expectError(testOrder, "validation_error", "items[0].print_file_id")).code).toBe(
			"unknown_print_file",
		);
		const other = (await createPartner("Other Gallery")).keys.live.key;
		const read = await api(`/v1/print-files/${file}`, { key: other });
		expect(read.status).toBe(404);
		await read.arrayBuffer();
		const response = await postOrder(other, orderBody(file));
		expect((await expectError(response, "validation_error", "items[0].print_file_id")).code).toBe("unknown_print_file");
	});
});

describe("a new use racing the sweep's expiry", () => {
	it("the database refuses any write naming an expired file: an item, an item's change, a claim's photo, a logo", async () => {
		const { partner, file } = await expiredFile();
		const { order, file: kept } = await shippedOrder(1);
		const itemId = order.items[0]?.id ?? "";
		const writes = [
			env.DB.prepare(
				`INSERT INTO order_items (id, order_id, position, print_file_id, width_in, height_in, quantity)
				 VALUES ('itm_race', ?2, 9, ?1, 8, 10, 1)`,
			).bind(file, order.id),
			env.DB.prepare("UPDATE order_items SET print_file_id = ?1 WHERE id = ?2").bind(file, itemId),
			env.DB.prepare("INSERT INTO claim_photos (print_file_id, claim_id) VALUES (?1, 'clm_race')").bind(file),
			env.DB.prepare(
				`INSERT INTO brand_profiles (account_id, brand_name, logo_print_file_id, created_at, updated_at)
				 VALUES (?1, 'Lumen', ?2, ?3, ?3)`,
			).bind(partner.account.id, file, new Date().toISOString()),
		];
		for (const write of writes) await expect(write.run()).rejects.toThrow(/print_file_expired/);
		const item = await env.DB.prepare("SELECT print_file_id FROM order_items WHERE id = ?1")
			.bind(itemId)
			.first<{ print_file_id: string }>();
		expect(item?.print_file_id).toBe(kept);
	});

	it("the sweep expires no file that an order on its way names, however old its clock", async () => {
		const { file: kept } = await shippedOrder(1);
		await backdateClock(kept);
		await sweepExpiredPrintFiles(env, daysFromNow(46));
		expect(await fileState(kept)).toEqual({ expired: false, inR2: true });
	});

	it("orders created while the sweep runs either keep their file or are refused: never an order on a deleted file", async () => {
		// The sweep starts a little later each time, so it lands before, inside and after the create's work.
		for (let attempt = 0; attempt < 12; attempt++) {
			const key = (await createPartner()).keys.live.key;
			const file = await uploadedFile(key, sharpPng());
			await backdateClock(file);
			const sweepLater = new Promise((resolve) => setTimeout(resolve, attempt * 4)).then(() =>
				sweepExpiredPrintFiles(env),
			);
			const [response] = await Promise.all([postOrder(key, orderBody(file)), sweepLater]);
			const state = await fileState(file);
			if (response.status === 201) {
				await response.arrayBuffer();
				expect(state).toEqual({ expired: false, inR2: true });
			} else {
				expect((await expectError(response, "validation_error", "items[0].print_file_id")).code).toBe(
					"print_file_expired",
				);
				expect(state.expired).toBe(true);
			}
		}
	});
});

describe("expired print files, attacked", () => {
	it("an order against a quote made before its file expired is a 422 print_file_expired naming the item's field", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const file = await uploadedFile(key, sharpPng());
		const body = orderBody(file);
		const quoted = await send("POST", "/v1/quotes", key, { ship_to: body.ship_to, items: body.items });
		expect(quoted.status).toBe(201);
		const quote = (await quoted.json()) as { id: string };
		await backdateClock(file);
		await sweepExpiredPrintFiles(env);
		expect(await fileState(file)).toEqual({ expired: true, inR2: false });

		const response = await postOrder(key, { ...body, quote_id: quote.id });
		expect((await expectError(response, "validation_error", "items[0].print_file_id")).code).toBe("print_file_expired");
	});

	it("at the lowest retention (31 days) a claim on its window's last day still gets a reprint of the kept file, which the reprint holds again", async () => {
		const lowest: Env = { ...env, PRINT_FILE_RETENTION_DAYS: "31" };
		const { key, opsKey, file, order, itemId, photo, shipment } = await deliveredOrder(1);
		// Delivered 29 days and 23 hours ago: the claim window (30 days) closes within the hour.
		const hoursAgo = 29 * 24 + 23;
		await ageShipment(shipment.id, hoursAgo / 24);
		await env.DB.prepare("UPDATE orders SET delivered_at = ?2 WHERE id = ?1")
			.bind(order.id, new Date(Date.now() - hoursAgo * 3600_000).toISOString())
			.run();
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		await sweepExpiredPrintFiles(lowest, daysFromNow(60));
		expect(await fileState(file)).toEqual({ expired: false, inR2: true });

		const approved = await send("POST", `/v1/ops/claims/${claim.id}/approve`, opsKey, {
			remedy: "reprint",
			message: "A new one ships.",
		});
		expect(approved.status).toBe(200);
		const reprintId = ((await approved.json()) as { resolution: { reprint_order_id: string } }).resolution
			.reprint_order_id;
		expect((await readOrder(key, reprintId)).items[0]?.print_file_id).toBe(file);
		await sweepExpiredPrintFiles(lowest, daysFromNow(120));
		expect(await fileState(file)).toEqual({ expired: false, inR2: true });
	});

	it("a claim after the window is refused, so no claim ever reaches a file the lowest retention deleted", async () => {
		const lowest: Env = { ...env, PRINT_FILE_RETENTION_DAYS: "31" };
		const { key, file, order, itemId, photo, shipment } = await deliveredOrder(1);
		await ageShipment(shipment.id, 32);
		await env.DB.prepare("UPDATE orders SET delivered_at = ?2 WHERE id = ?1")
			.bind(order.id, daysFromNow(-32).toISOString())
			.run();
		await backdateClock(file);
		await sweepExpiredPrintFiles(lowest);
		expect(await fileState(file)).toEqual({ expired: true, inR2: false });
		const late = await send("POST", `/v1/orders/${order.id}/claims`, key, damagedBody(itemId, 1, [photo]));
		expect((await expectError(late, "conflict", "items[0].quantity")).code).toBe("claim_not_allowed");
	});

	it("a PUT to an expired file's upload URL, a second one or a late first one, is a 403 upload_url_expired and stores nothing", async () => {
		const key = (await createPartner()).keys.live.key;
		const uploaded = await requestUpload(key);
		expect((await putBytes(uploaded.upload_url, smallPng(57, 37), uploaded.upload_headers)).status).toBe(200);
		const never = await requestUpload(key);
		// Expired while their upload URLs still work (the URLs live 7 days at most, the files 31 at least:
		// only a clock that jumped gets here).
		await env.DB.prepare(
			"UPDATE print_files SET expired_at = ?2, purged_at = ?2 WHERE id IN (SELECT value FROM json_each(?1))",
		)
			.bind(JSON.stringify([uploaded.id, never.id]), new Date().toISOString())
			.run();
		const uploadedRow = await findPrintFileById(env.DB, uploaded.id);
		await env.PRINT_FILES.delete(uploadedRow?.r2_key ?? "");

		for (const ticket of [uploaded, never]) {
			const put = await putBytes(ticket.upload_url, smallPng(58, 37), ticket.upload_headers);
			expect((await expectError(put, "forbidden")).code).toBe("upload_url_expired");
		}
		for (const id of [uploaded.id, never.id]) expect(await fileState(id)).toEqual({ expired: true, inR2: false });
		const read = await api(`/v1/print-files/${never.id}`, { key });
		expect(((await read.json()) as { status: string }).status).toBe("expired");
	});

	it("a file that expired before it was ever uploaded has no thumbnail to wait for: unavailable, and its route a 404", async () => {
		const key = (await createPartner()).keys.live.key;
		const created = await send("POST", "/v1/print-files", key, {
			filename: "never-sent.png",
			content_type: "image/png",
		});
		expect(created.status).toBe(201);
		const { id } = (await created.json()) as { id: string };
		await backdateClock(id);
		await sweepExpiredPrintFiles(env);

		const read = await api(`/v1/print-files/${id}`, { key });
		const body = (await read.json()) as { status: string; thumbnail: { status: string; reason: string | null } };
		expect(body.status).toBe("expired");
		expect(body.thumbnail).toMatchObject({ status: "unavailable", reason: "file_changed" });
		const thumbnail = await api(`/v1/print-files/${id}/thumbnail`, { key });
		expect((await expectError(thumbnail, "not_found", "id")).code).toBe("thumbnail_unavailable");
	});

	it("the work ticket of an old delivered order whose file expired still prints, saying its file expired, with the preview from the kept thumbnail", async () => {
		const { opsKey, file, order } = await deliveredOrder(1);
		await sweepExpiredPrintFiles(env, daysFromNow(46));
		expect(await fileState(file)).toEqual({ expired: true, inR2: false });
		const ticket = await api(`/v1/ops/orders/${order.id}/work-ticket`, { key: opsKey });
		expect(ticket.status).toBe(200);
		const html = await ticket.text();
		expect(html).toContain(order.id);
		expect(html).toMatch(new RegExp(`File <code>${file}</code>[^<]* · expired \\d{4}-\\d{2}-\\d{2}, bytes deleted`));
		// Its framed preview is still drawn, from the kept thumbnail.
		expect(html).toContain("data:image/png;base64,");
	});

	it("a claim whose photo expires between its check and its write is a 422 print_file_expired naming the photo, not a 500", async () => {
		const { partner, key, order, itemId, photo } = await deliveredOrder(1);
		await backdateClock(photo);
		// The real sweep runs right after the claim's check has read the photo's object in R2, before its write.
		const sweepAfterHead: Env = {
			...env,
			PRINT_FILES: new Proxy(env.PRINT_FILES, {
				get(bucket, property) {
					if (property === "head") {
						return async (r2Key: string) => {
							const head = await bucket.head(r2Key);
							await sweepExpiredPrintFiles(env);
							return head;
						};
					}
					const value: unknown = Reflect.get(bucket, property);
					return typeof value === "function" ? value.bind(bucket) : value;
				},
			}),
		};
		const refused = await createClaim(
			sweepAfterHead,
			{ accountId: partner.account.id, mode: "live" },
			order.id,
			damagedBody(itemId, 1, [photo]) as CreateClaimInput,
			new Date(),
		);
		expect(refused).toMatchObject({ ok: false, code: "print_file_expired", field: "photo_file_ids[0]" });
		expect(await fileState(photo)).toEqual({ expired: true, inR2: false });
		const claims = await api(`/v1/orders/${order.id}/claims`, { key });
		expect(((await claims.json()) as { data: unknown[] }).data).toEqual([]);
	});
});

describe("the sweep, attacked", () => {
	it("ten runs at once expire each due file once and delete its bytes, and leave a file an order took meanwhile alone", async () => {
		const key = (await createPartner()).keys.live.key;
		const files = await Promise.all([50, 51, 52, 53, 54].map((width) => uploadedFile(key, smallPng(width, 37))));
		const taken = await uploadedFile(key, sharpPng());
		for (const id of [...files, taken]) await backdateClock(id);
		const at = new Date("2000-03-01T00:00:00.000Z");

		const [runs, order] = await Promise.all([
			Promise.all(Array.from({ length: 10 }, () => sweepExpiredPrintFiles(env, at))),
			postOrder(key, orderBody(taken)),
		]);
		expect(runs.reduce((sum, run) => sum + run.expired, 0)).toBe(order.status === 201 ? 5 : 6);
		for (const id of files) expect(await fileState(id)).toEqual({ expired: true, inR2: false });
		if (order.status === 201) {
			await order.arrayBuffer();
			expect(await fileState(taken)).toEqual({ expired: false, inR2: true });
		} else {
			expect((await expectError(order, "validation_error", "items[0].print_file_id")).code).toBe("print_file_expired");
		}
	});

	it("a retention lowered from 45 to 31 days expires, at the next run, a file whose order was delivered 32 days before", async () => {
		const { file } = await deliveredOrder(1);
		await sweepExpiredPrintFiles(env, daysFromNow(32));
		expect(await fileState(file)).toEqual({ expired: false, inR2: true });
		await expectExpiresBetween(file, daysFromNow(30), daysFromNow(32), { ...env, PRINT_FILE_RETENTION_DAYS: "31" });
	});

	it("an object R2 refuses to delete holds back no other file's deletion: the others go, it is tried again later", async () => {
		const key = (await createPartner()).keys.live.key;
		const refused = await uploadedFile(key, smallPng(55, 37));
		const fine = await uploadedFile(key, smallPng(56, 37));
		// A key longer than R2 takes (1,024 bytes): every call naming it throws. It expired first, so it
		// leads the files awaiting deletion.
		await env.DB.prepare("UPDATE print_files SET expired_at = '1999-01-01T00:00:00.000Z', r2_key = ?2 WHERE id = ?1")
			.bind(refused, `print-files/${"x".repeat(1100)}`)
			.run();
		await env.DB.prepare("UPDATE print_files SET expired_at = '1999-01-02T00:00:00.000Z' WHERE id = ?1")
			.bind(fine)
			.run();
		await sweepExpiredPrintFiles(env, daysFromNow(1));
		await sweepExpiredPrintFiles(env, daysFromNow(1));
		expect(await fileState(fine)).toEqual({ expired: true, inR2: false });
		expect((await findPrintFileById(env.DB, fine))?.purged_at).toMatch(ISO_UTC);
		expect((await findPrintFileById(env.DB, refused))?.purged_at).toBeNull();
		await env.DB.prepare("UPDATE print_files SET purged_at = expired_at WHERE id = ?1").bind(refused).run();
	});
});
