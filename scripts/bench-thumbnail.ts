/**
 * `npm run bench:thumbnail`: the making of a thumbnail from the largest accepted files, and from small
 * ones that are hard in other ways, measured. Writes, a band at a time, a 300 MB TIFF (uncompressed and
 * LZW), a 100 MB PNG and a 50 MB baseline and progressive JPEG into a throwaway folder; then, by
 * ImageMagick, a 9000 × 6000 smooth gradient as a PNG and as a one-strip Deflate TIFF (a few hundred kB
 * whose data inflates about a thousandfold) and a 3000 × 2000 progressive JPEG. For each:
 *   - in Node under `--max-old-space-size=64` (a child process per file): bytes read, time, peak heap,
 *     ArrayBuffers and RSS (completing there shows the bound);
 *   - in workerd through the real route: `wrangler dev` on throwaway state with presigned uploads (as
 *     `npm start`), the file PUT to its presigned URL, read once (inspected: ready), and the thumbnail
 *     made by the THUMBNAILS queue's consumer; bytes read and time from its `thumbnail.made` log line,
 *     the peak memory as the workerd process's RSS sampled every 50 ms above its level before.
 * The table gives each file's thumbnail size too. The server is stopped, and the folder removed, on
 * success and failure alike (and on Ctrl-C).
 */
import { execFile } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import { createAccount } from "./lib/accounts.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { presignedUploadVars } from "./lib/local-uploads.ts";
import { migrateFreshFolder } from "./lib/migrated-template.ts";
import { writeGradient, writeJpeg, writePng, writeProgressiveJpeg, writeTiff } from "./lib/thumbnail-bench-files.ts";
import type { D1Target } from "./lib/wrangler.ts";

const run = promisify(execFile);
const MB = 1_000_000;
const MIB = 1024 * 1024;

type BenchFile = { name: string; file: string; format: "tiff" | "png" | "jpeg"; contentType: string };
type Figures = { bytesRead: number; ms: number; peakBytes: number; detail: string; thumbnail: string };

const folder = await mkdtemp(path.join(tmpdir(), "fps-bench-thumbnail-"));
let server: DevServer | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
	process.once(signal, () => {
		void (server?.stop() ?? Promise.resolve())
			.then(() => rm(folder, { recursive: true, force: true }))
			.finally(() => process.exit(130));
	});
}
try {
	const generated = performance.now();
	const files: BenchFile[] = [
		{
			name: "TIFF 300 MB, uncompressed",
			file: path.join(folder, "raw.tif"),
			format: "tiff",
			contentType: "image/tiff",
		},
		{ name: "TIFF 300 MB, LZW", file: path.join(folder, "lzw.tif"), format: "tiff", contentType: "image/tiff" },
		{ name: "PNG 100 MB", file: path.join(folder, "big.png"), format: "png", contentType: "image/png" },
		{
			name: "JPEG 50 MB, baseline",
			file: path.join(folder, "baseline.jpg"),
			format: "jpeg",
			contentType: "image/jpeg",
		},
		{
			name: "JPEG 50 MB, progressive",
			file: path.join(folder, "progressive.jpg"),
			format: "jpeg",
			contentType: "image/jpeg",
		},
		{
			name: "PNG 9000 × 6000 gradient",
			file: path.join(folder, "gradient.png"),
			format: "png",
			contentType: "image/png",
		},
		{
			name: "TIFF 9000 × 6000 gradient, Deflate, one strip",
			file: path.join(folder, "gradient.tif"),
			format: "tiff",
			contentType: "image/tiff",
		},
		{
			name: "JPEG 3000 × 2000, progressive",
			file: path.join(folder, "progressive-3000.jpg"),
			format: "jpeg",
			contentType: "image/jpeg",
		},
	];
	// 10,000 × 10,000 RGB is 300 MB raw; 9,400 × 9,400 in 9-bit LZW codes is 300 MB too.
	await writeTiff(files[0]?.file ?? "", 10_000, 10_000, 1);
	await writeTiff(files[1]?.file ?? "", 9_400, 9_400, 5);
	await writePng(files[2]?.file ?? "", 6_200, 6_200);
	const baseline = await writeJpeg(files[3]?.file ?? "", 50 * MB, false);
	const progressive = await writeJpeg(files[4]?.file ?? "", 50 * MB, true);
	await writeGradient(files[5]?.file ?? "", 9000, 6000, "png");
	await writeGradient(files[6]?.file ?? "", 9000, 6000, "tiff");
	await writeProgressiveJpeg(files[7]?.file ?? "", 3000, 2000);
	// What the gradients' image data inflates to, against their size on disk.
	const gradientRows = 6000 * 9000 * 3;
	const ratios = await Promise.all(
		[files[5], files[6]].map(async (bench) => Math.round(gradientRows / (await stat(bench?.file ?? "")).size)),
	);
	console.log(
		`files written in ${((performance.now() - generated) / 1000).toFixed(1)} s (JPEGs ${baseline.width} × ${baseline.height} and ${progressive.width} × ${progressive.height}; the gradients' rows are ${ratios.join(" and ")} times their PNG and TIFF)`,
	);

	const node = new Map<string, Figures>();
	for (const bench of files) node.set(bench.name, await inNode(bench));

	const target: D1Target = { remote: false, persistTo: folder };
	await migrateFreshFolder(folder);
	const partner = await createAccount(target, "Thumbnail Bench Partner", PARTNER_SCOPES);
	const port = await freePort();
	const origin = `http://127.0.0.1:${port}`;
	const made = new Map<string, Record<string, unknown>>();
	server = await startDevServer({
		port,
		persistTo: folder,
		vars: presignedUploadVars(origin),
		readyTimeoutMs: 120_000,
		onOutput: (chunk) => {
			for (const line of chunk.split("\n")) {
				const at = line.indexOf('{"level"');
				if (at < 0 || !line.includes('"thumbnail.made"')) continue;
				const entry = JSON.parse(line.slice(at)) as Record<string, unknown>;
				if (typeof entry.print_file_id === "string") made.set(entry.print_file_id, entry);
			}
		},
	});
	const workerd = await workerdPids(server.pid);
	const workers = new Map<string, Figures>();
	for (const bench of files) {
		workers.set(bench.name, await inWorkerd(bench, origin, partner.keys.live.key, workerd, made));
	}

	const date = new Date().toISOString().slice(0, 10);
	console.log(`\nthumbnail bench, ${date}: bytes read, time, peak memory, thumbnail size`);
	console.log(
		"| file | size | Node: read | Node: time | Node: peak heap + buffers / RSS | workerd: read | workerd: time | workerd: peak RSS above idle | thumbnail |",
	);
	console.log("| --- | --: | --: | --: | --: | --: | --: | --: | --: |");
	for (const bench of files) {
		const size = (await stat(bench.file)).size;
		const inNodeFigures = node.get(bench.name);
		const inWorkerdFigures = workers.get(bench.name);
		// One size when Node and workerd made the same thumbnail (they run the same code), both otherwise.
		const thumbnail =
			inNodeFigures?.thumbnail === inWorkerdFigures?.thumbnail
				? (inNodeFigures?.thumbnail ?? "?")
				: `${inNodeFigures?.thumbnail ?? "?"} (Node) / ${inWorkerdFigures?.thumbnail ?? "?"} (workerd)`;
		console.log(
			`| ${bench.name} | ${megabytes(size)} | ${megabytes(inNodeFigures?.bytesRead)} | ${seconds(inNodeFigures?.ms)} | ${inNodeFigures?.detail ?? "?"} | ${megabytes(inWorkerdFigures?.bytesRead)} | ${seconds(inWorkerdFigures?.ms)} | ${mib(inWorkerdFigures?.peakBytes)} | ${thumbnail} |`,
		);
	}
} finally {
	await server?.stop();
	await rm(folder, { recursive: true, force: true });
}

/** Megabytes to a tenth, or kilobytes under one megabyte (the small files). */
function megabytes(bytes: number | undefined): string {
	if (bytes === undefined || Number.isNaN(bytes)) return "?";
	return bytes < MB ? `${(bytes / 1000).toFixed(0)} kB` : `${(bytes / MB).toFixed(1)} MB`;
}

function mib(bytes: number | undefined): string {
	return bytes === undefined ? "?" : `${(bytes / MIB).toFixed(1)} MiB`;
}

function seconds(ms: number | undefined): string {
	return ms === undefined ? "?" : `${(ms / 1000).toFixed(2)} s`;
}

/** The thumbnail made in a Node child process whose V8 heap is capped at 64 MiB. */
async function inNode(bench: BenchFile): Promise<Figures> {
	const runner = path.join(import.meta.dirname, "lib", "thumbnail-node-run.ts");
	const { stdout } = await run(process.execPath, ["--max-old-space-size=64", runner, bench.format, bench.file], {
		maxBuffer: MIB,
	});
	const figures = JSON.parse(stdout.trim()) as {
		bytes_read: number;
		ms: number;
		peak_heap_bytes: number;
		peak_array_buffer_bytes: number;
		peak_rss_bytes: number;
		width: number;
		height: number;
	};
	console.log(`Node: ${bench.name}: ${stdout.trim()}`);
	return {
		bytesRead: figures.bytes_read,
		ms: figures.ms,
		peakBytes: figures.peak_heap_bytes + figures.peak_array_buffer_bytes,
		detail: `${mib(figures.peak_heap_bytes + figures.peak_array_buffer_bytes)} / ${mib(figures.peak_rss_bytes)}`,
		thumbnail: `${figures.width} × ${figures.height}`,
	};
}

/** The workerd processes in the dev server's process group. */
async function workerdPids(group: number | undefined): Promise<number[]> {
	const pids: number[] = [];
	for (const entry of await readdir("/proc")) {
		if (!/^\d+$/.test(entry)) continue;
		const status = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
		// pid (comm) state ppid pgrp ...
		const match = /^\d+ \((.*)\) \S+ \d+ (\d+)/.exec(status);
		if (match?.[1] === "workerd" && Number(match[2]) === group) pids.push(Number(entry));
	}
	if (pids.length === 0) throw new Error("no workerd process found in the dev server's group");
	return pids;
}

/** The summed RSS of the processes, in bytes. */
async function rssOf(pids: number[]): Promise<number> {
	let total = 0;
	for (const pid of pids) {
		const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
		total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
	}
	return total;
}

/** PUTs the file to a presigned URL, streamed from disk with its length. */
function putFile(url: string, headers: Record<string, string>, file: string, size: number): Promise<number> {
	return new Promise((resolve, reject) => {
		const put = request(url, { method: "PUT", headers: { ...headers, "Content-Length": String(size) } }, (answer) => {
			answer.resume();
			answer.on("end", () => resolve(answer.statusCode ?? 0));
		});
		put.on("error", reject);
		createReadStream(file).pipe(put);
	});
}

/** Uploads the file, has it inspected, and waits for the queue's consumer to make its thumbnail. */
async function inWorkerd(
	bench: BenchFile,
	origin: string,
	key: string,
	workerd: number[],
	made: Map<string, Record<string, unknown>>,
): Promise<Figures> {
	const size = (await stat(bench.file)).size;
	const auth = { Authorization: `Bearer ${key}` };
	const created = await fetch(`${origin}/v1/print-files`, {
		method: "POST",
		headers: { ...auth, "Content-Type": "application/json" },
		body: JSON.stringify({ content_type: bench.contentType, size_bytes: size }),
	});
	const ticket = (await created.json()) as { id: string; upload_url: string; upload_headers: Record<string, string> };
	const status = await putFile(ticket.upload_url, ticket.upload_headers, bench.file, size);
	if (status !== 200) throw new Error(`${bench.name}: presigned upload answered ${status}`);
	const idle = await rssOf(workerd);
	let peak = idle;
	const sampler = setInterval(() => {
		void rssOf(workerd).then((rss) => {
			peak = Math.max(peak, rss);
		});
	}, 50);
	try {
		const deadline = Date.now() + 10 * 60_000;
		for (;;) {
			const read = await fetch(`${origin}/v1/print-files/${ticket.id}`, { headers: auth });
			const file = (await read.json()) as { status: string; thumbnail: { status: string; reason: string | null } };
			if (file.status !== "ready") throw new Error(`${bench.name}: the file is ${JSON.stringify(file)}`);
			if (file.thumbnail.status === "unavailable") throw new Error(`${bench.name}: ${JSON.stringify(file.thumbnail)}`);
			if (file.thumbnail.status === "ready") break;
			if (Date.now() > deadline) throw new Error(`${bench.name}: no thumbnail within 10 minutes`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	} finally {
		clearInterval(sampler);
	}
	const png = await fetch(`${origin}/v1/print-files/${ticket.id}/thumbnail`, { headers: auth });
	if (png.status !== 200 || png.headers.get("Content-Type") !== "image/png") {
		throw new Error(`${bench.name}: the thumbnail route answered ${png.status}`);
	}
	await png.arrayBuffer();
	const line = made.get(ticket.id);
	console.log(`workerd: ${bench.name}: ${JSON.stringify(line)}; peak RSS ${mib(peak)} (idle ${mib(idle)})`);
	return {
		bytesRead: Number(line?.bytes_read ?? Number.NaN),
		ms: Number(line?.ms ?? Number.NaN),
		peakBytes: peak - idle,
		detail: "",
		thumbnail: `${String(line?.width_px ?? "?")} × ${String(line?.height_px ?? "?")}`,
	};
}
