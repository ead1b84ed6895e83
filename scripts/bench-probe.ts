/**
 * `npm run bench:probe`: header-only inspection of large print files stored in local R2.
 * Starts `wrangler dev` on a throwaway state folder, uploads through the worker's signed route
 *   - a 300 MB TIFF whose IFD sits at the end of the file,
 *   - a 50 MB JPEG with 1 MB of APP segments before its SOF,
 *   - a 100 MB PNG,
 * and a 1 MB file of the same layout for each, then times the GET that inspects each file and reads
 * from D1 how many bytes the inspection read. Aim: < 256 KiB read per file, and the large file's
 * time within 2x of the small one's (the bytes read, not the file size, are the cost). Each layout
 * comes again with an embedded ICC profile (the TIFF ProPhoto's, the JPEG a 187 kB CMYK press
 * profile in three APP2 pieces, the PNG Display P3's in iCCP), taken from the colour fixtures: the
 * difference in bytes read is what reading the colour facts costs (aim: a few kB).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import { memorySource } from "../src/imaging/byte-source.ts";
import type { ImageFormat } from "../src/imaging/formats.ts";
import { readColourProfile } from "../src/imaging/probe.ts";
import { createAccount } from "./lib/accounts.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { jpegWithAppSegments, pngOfSize, tiffWithIfdAtEnd } from "./lib/image-fixtures.ts";
import { migrateFreshFolder } from "./lib/migrated-template.ts";
import { type D1Target, executeSql, queryRows } from "./lib/wrangler.ts";

const MB = 1_000_000;
const ROUNDS = 5;

type Probe = { name: string; contentType: string; bytes: Uint8Array; expect: [number, number] };

/** The ICC profile embedded in one of the colour fixtures, read out with the service's own reader. */
async function fixtureProfile(name: string, format: ImageFormat): Promise<Uint8Array> {
	const bytes = new Uint8Array(await readFile(path.join(import.meta.dirname, "../test/imaging/fixtures/colour", name)));
	const profile = await readColourProfile(format, memorySource(bytes));
	if (profile === null) throw new Error(`${name} carries no profile that reads`);
	return profile;
}

/** Each layout again with an embedded profile: the difference in bytes read is the colour facts' cost. */
async function profiledProbes(): Promise<Array<{ large: Probe; small: Probe }>> {
	const prophoto = await fixtureProfile("prophoto-16.tif", "tiff");
	const press = await fixtureProfile("cmyk.jpg", "jpeg");
	const p3 = await fixtureProfile("display-p3.png", "png");
	return [
		{
			large: {
				name: "TIFF 300 MB + ProPhoto ICC",
				contentType: "image/tiff",
				bytes: tiffWithIfdAtEnd(10_000, 10_000, 300 * MB, prophoto),
				expect: [10_000, 10_000],
			},
			small: {
				name: "TIFF 1 MB + ProPhoto ICC",
				contentType: "image/tiff",
				bytes: tiffWithIfdAtEnd(577, 577, MB, prophoto),
				expect: [577, 577],
			},
		},
		{
			large: {
				name: "JPEG 50 MB + CMYK ICC",
				contentType: "image/jpeg",
				bytes: jpegWithAppSegments(9_000, 6_000, MB, 50 * MB, press),
				expect: [9_000, 6_000],
			},
			small: {
				name: "JPEG 1 MB + CMYK ICC",
				contentType: "image/jpeg",
				bytes: jpegWithAppSegments(900, 600, MB, MB + 300_000, press),
				expect: [900, 600],
			},
		},
		{
			large: {
				name: "PNG 100 MB + P3 ICC",
				contentType: "image/png",
				bytes: pngOfSize(8_000, 6_000, 100 * MB, p3),
				expect: [8_000, 6_000],
			},
			small: {
				name: "PNG 1 MB + P3 ICC",
				contentType: "image/png",
				bytes: pngOfSize(800, 600, MB, p3),
				expect: [800, 600],
			},
		},
	];
}

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
	await migrateFreshFolder(folder);
	const partner = await createAccount(target, "Probe Bench Partner", PARTNER_SCOPES);
	const key = partner.keys.live.key;
	server = await startDevServer({
		port: await freePort(),
		persistTo: folder,
		vars: { UPLOAD_SIGNING_SECRET: "bench-probe-upload-signing-secret-0123456789" },
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

	const pairs = [...probes(), ...(await profiledProbes())];
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
	const plain = uploaded.slice(0, pairs.length / 2);
	const profiled = uploaded.slice(pairs.length / 2);
	console.log("\nwhat reading the colour facts of an embedded profile costs (large files):");
	plain.forEach((pair, index) => {
		const withProfile = profiled[index]?.large;
		if (withProfile === undefined) return;
		const before = bytesRead.get(pair.large.id) ?? Number.NaN;
		const after = bytesRead.get(withProfile.id) ?? Number.NaN;
		console.log(
			`${withProfile.probe.name.padEnd(28)} ${String(after).padStart(8)} bytes, ${after - before >= 0 ? "+" : ""}${after - before} against ${pair.large.probe.name}`,
		);
	});
} finally {
	await server?.stop();
	await rm(folder, { recursive: true, force: true });
}
