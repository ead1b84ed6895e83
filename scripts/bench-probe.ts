/**
 * `npm run bench:probe`: header-only inspection of large print files stored in local R2.
 * Starts `wrangler dev` on a throwaway state folder, uploads through the worker's signed route
 *   - a 300 MB TIFF whose IFD sits at the end of the file,
 *   - a 50 MB JPEG with 1 MB of APP segments before its SOF,
 *   - a 100 MB PNG,
 * and a 1 MB file of the same layout for each, then times the GET that inspects each file and reads
 * from D1 how many bytes the inspection read. Aim: < 256 KiB read per file, and the large file's
 * time within 2x of the small one's (the bytes read, not the file size, are the cost).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import { createAccount } from "./lib/accounts.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { applyMigrations, type D1Target, executeSql, queryRows } from "./lib/wrangler.ts";

const MB = 1_000_000;
const ROUNDS = 5;

/** A baseline RGB TIFF, little-endian, one strip of `bodyBytes` right after the header, the IFD at the end. */
function tiffWithIfdAtEnd(width: number, height: number, bodyBytes: number): Uint8Array {
	const entries: Array<[tag: number, type: number, value: number]> = [
		[256, 4, width],
		[257, 4, height],
		[258, 3, 8],
		[259, 3, 1],
		[262, 3, 2],
		[273, 4, 8],
		[277, 3, 3],
		[278, 4, height],
		[279, 4, bodyBytes],
	];
	const ifdOffset = 8 + bodyBytes;
	const ifdSize = 2 + entries.length * 12 + 4;
	const file = new Uint8Array(ifdOffset + ifdSize);
	const view = new DataView(file.buffer);
	file.set([0x49, 0x49, 42, 0]);
	view.setUint32(4, ifdOffset, true);
	view.setUint16(ifdOffset, entries.length, true);
	entries.forEach(([tag, type, value], index) => {
		const at = ifdOffset + 2 + index * 12;
		view.setUint16(at, tag, true);
		view.setUint16(at + 2, type, true);
		view.setUint32(at + 4, 1, true);
		if (type === 3) view.setUint16(at + 8, value, true);
		else view.setUint32(at + 8, value, true);
	});
	return file;
}

/** A JPEG: SOI, `appBytes` of APP1 segments, a baseline SOF0, a scan of filler bytes, EOI. */
function jpegWithAppSegments(width: number, height: number, appBytes: number, totalBytes: number): Uint8Array {
	const parts: Uint8Array[] = [Uint8Array.of(0xff, 0xd8)];
	let remaining = appBytes;
	while (remaining > 0) {
		const payload = Math.min(65_533, remaining);
		const segment = new Uint8Array(4 + payload).fill(0x41);
		segment.set([0xff, 0xe1, (payload + 2) >> 8, (payload + 2) & 0xff]);
		parts.push(segment);
		remaining -= payload;
	}
	parts.push(
		Uint8Array.of(
			0xff,
			0xc0,
			0,
			17,
			8,
			height >> 8,
			height & 0xff,
			width >> 8,
			width & 0xff,
			3,
			1,
			0x22,
			0,
			2,
			0x11,
			1,
			3,
			0x11,
			1,
		),
		Uint8Array.of(0xff, 0xda, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0),
	);
	const headerBytes = parts.reduce((sum, part) => sum + part.byteLength, 0);
	parts.push(new Uint8Array(Math.max(0, totalBytes - headerBytes - 2)).fill(0x55), Uint8Array.of(0xff, 0xd9));
	return Buffer.concat(parts);
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
	const chunk = new Uint8Array(12 + data.byteLength);
	const view = new DataView(chunk.buffer);
	view.setUint32(0, data.byteLength);
	chunk.set(new TextEncoder().encode(type), 4);
	chunk.set(data, 8);
	view.setUint32(8 + data.byteLength, crc32(chunk.subarray(4, 8 + data.byteLength)));
	return chunk;
}

/** A PNG: signature, IHDR, one IDAT of `idatBytes`, IEND. */
function pngOfSize(width: number, height: number, idatBytes: number): Uint8Array {
	const ihdr = new Uint8Array(13);
	const view = new DataView(ihdr.buffer);
	view.setUint32(0, width);
	view.setUint32(4, height);
	ihdr.set([8, 2, 0, 0, 0], 8);
	return Buffer.concat([
		Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
		pngChunk("IHDR", ihdr),
		pngChunk("IDAT", new Uint8Array(idatBytes)),
		pngChunk("IEND", new Uint8Array(0)),
	]);
}

type Probe = { name: string; contentType: string; bytes: Uint8Array; expect: [number, number] };

function probes(): Array<{ large: Probe; small: Probe }> {
	return [
		{
			large: {
				name: "TIFF 300 MB, IFD at end",
				contentType: "image/tiff",
				bytes: tiffWithIfdAtEnd(10_000, 10_000, 300 * MB),
				expect: [10_000, 10_000],
			},
			small: {
				name: "TIFF 1 MB, IFD at end",
				contentType: "image/tiff",
				bytes: tiffWithIfdAtEnd(577, 577, MB),
				expect: [577, 577],
			},
		},
		{
			large: {
				name: "JPEG 50 MB, 1 MB of APP",
				contentType: "image/jpeg",
				bytes: jpegWithAppSegments(9_000, 6_000, MB, 50 * MB),
				expect: [9_000, 6_000],
			},
			small: {
				name: "JPEG 1 MB, 1 MB of APP",
				contentType: "image/jpeg",
				bytes: jpegWithAppSegments(900, 600, MB, MB + 100_000),
				expect: [900, 600],
			},
		},
		{
			large: {
				name: "PNG 100 MB",
				contentType: "image/png",
				bytes: pngOfSize(8_000, 6_000, 100 * MB),
				expect: [8_000, 6_000],
			},
			small: { name: "PNG 1 MB", contentType: "image/png", bytes: pngOfSize(800, 600, MB), expect: [800, 600] },
		},
	];
}

const folder = await mkdtemp(path.join(tmpdir(), "fps-bench-probe-"));
const target: D1Target = { remote: false, persistTo: folder };
let server: DevServer | undefined;
try {
	await applyMigrations(target);
	const partner = await createAccount(target, "Probe Bench Partner", PARTNER_SCOPES);
	const key = partner.keys.live.key;
	server = await startDevServer({
		port: await freePort(),
		persistTo: folder,
		vars: { UPLOAD_SIGNING_SECRET: "bench-probe-secret" },
	});
	const origin = server.origin;

	type Uploaded = { probe: Probe; id: string };

	async function upload(probe: Probe): Promise<Uploaded> {
		const created = await fetch(`${origin}/v1/print-files`, {
			method: "POST",
			headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
			body: JSON.stringify({ content_type: probe.contentType, size_bytes: probe.bytes.byteLength }),
		});
		const ticket = (await created.json()) as { id: string; upload_url: string; upload_headers: Record<string, string> };
		const stored = await fetch(ticket.upload_url, { method: "PUT", headers: ticket.upload_headers, body: probe.bytes });
		if (stored.status !== 200) throw new Error(`${probe.name}: upload failed ${stored.status} ${await stored.text()}`);
		return { probe, id: ticket.id };
	}

	/** Times the GET that inspects the file (its first read since the inspection was reset). */
	async function timeInspection({ probe, id }: Uploaded): Promise<number> {
		const started = performance.now();
		const read = await fetch(`${origin}/v1/print-files/${id}`, { headers: { Authorization: `Bearer ${key}` } });
		const elapsed = performance.now() - started;
		const file = (await read.json()) as { status: string; width_px: number; height_px: number };
		if (file.status !== "ready" || file.width_px !== probe.expect[0] || file.height_px !== probe.expect[1]) {
			throw new Error(`${probe.name}: inspected as ${JSON.stringify(file)}`);
		}
		return elapsed;
	}

	const pairs = probes();
	const uploaded = [];
	for (const pair of pairs) uploaded.push({ small: await upload(pair.small), large: await upload(pair.large) });
	const all = uploaded.flatMap((pair) => [pair.small, pair.large]);
	const ids = all.map((file) => `'${file.id}'`).join(", ");
	const timings = new Map<string, number[]>(all.map((file) => [file.id, []]));
	for (let round = 0; round < ROUNDS; round++) {
		if (round > 0) {
			// Forget the stored result so the next read inspects again.
			await executeSql(
				`UPDATE print_files SET inspected_at = NULL, status = 'processing' WHERE id IN (${ids});`,
				target,
			);
		}
		for (const file of all) timings.get(file.id)?.push(await timeInspection(file));
	}
	const bytesRead = new Map(
		(
			await queryRows<{ id: string; inspection_bytes_read: number }>(
				`SELECT id, inspection_bytes_read FROM print_files WHERE id IN (${ids})`,
				target,
			)
		).map((row) => [row.id, row.inspection_bytes_read]),
	);
	const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

	console.log(`median of ${ROUNDS} inspections per file`);
	console.log("file                          size MB   bytes read   inspect ms   large/small time");
	let worstRead = 0;
	let worstRatio = 0;
	for (const pair of uploaded) {
		const smallMs = median(timings.get(pair.small.id) ?? []);
		const largeMs = median(timings.get(pair.large.id) ?? []);
		const ratio = largeMs / smallMs;
		worstRatio = Math.max(worstRatio, ratio);
		for (const [file, ms, note] of [
			[pair.small, smallMs, ""],
			[pair.large, largeMs, `${ratio.toFixed(2)}x`],
		] as const) {
			const read = bytesRead.get(file.id) ?? Number.NaN;
			worstRead = Math.max(worstRead, read);
			console.log(
				`${file.probe.name.padEnd(28)} ${(file.probe.bytes.byteLength / MB).toFixed(1).padStart(8)} ${String(read).padStart(12)} ${ms.toFixed(1).padStart(12)}   ${note}`,
			);
		}
	}
	console.log(
		`\nmost bytes read by one inspection: ${worstRead} (${(worstRead / 1024).toFixed(1)} KiB; aim < 256 KiB)`,
	);
	console.log(`largest large/small inspection time ratio: ${worstRatio.toFixed(2)}x (aim <= 2x)`);
} finally {
	await server?.stop();
	await rm(folder, { recursive: true, force: true });
}
