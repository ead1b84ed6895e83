/**
 * One thumbnail made in Node, for `npm run bench:thumbnail`: `node --max-old-space-size=64
 * scripts/lib/thumbnail-node-run.ts <jpeg|png|tiff> <file>` reads the file through a ByteSource (the
 * decoders' reads, counted), makes the thumbnail exactly as the queue consumer does, and prints one
 * JSON line: bytes read, reads, milliseconds, the thumbnail's size, and the peak memory (sampled heap
 * and ArrayBuffers every 10 ms, and the process's peak RSS).
 */
import { open } from "node:fs/promises";
import type { ByteSource } from "../../src/imaging/byte-source.ts";
import { IMAGE_FORMATS, type ImageFormat } from "../../src/imaging/formats.ts";
import { makeThumbnail } from "../../src/thumbnails/make-thumbnail.ts";

const [format, path] = process.argv.slice(2);
if (path === undefined || !IMAGE_FORMATS.some((known) => known === format)) {
	console.error("usage: thumbnail-node-run.ts <jpeg|png|tiff> <file>");
	process.exit(2);
}
const handle = await open(path);
const { size } = await handle.stat();
let bytesRead = 0;
let reads = 0;
const source: ByteSource = {
	size,
	async read(offset: number, length: number): Promise<Uint8Array> {
		const buffer = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
		const { bytesRead: got } = await handle.read(buffer, 0, buffer.length, offset);
		bytesRead += got;
		reads += 1;
		return buffer.subarray(0, got);
	},
};
let peakHeap = 0;
let peakArrayBuffers = 0;
const sample = () => {
	const usage = process.memoryUsage();
	peakHeap = Math.max(peakHeap, usage.heapUsed);
	peakArrayBuffers = Math.max(peakArrayBuffers, usage.arrayBuffers);
};
const sampler = setInterval(sample, 10);
const started = performance.now();
const thumbnail = await makeThumbnail(format as ImageFormat, source);
const ms = performance.now() - started;
sample();
clearInterval(sampler);
await handle.close();
console.log(
	JSON.stringify({
		size_bytes: size,
		bytes_read: bytesRead,
		reads,
		ms: Math.round(ms),
		width: thumbnail.width,
		height: thumbnail.height,
		peak_heap_bytes: peakHeap,
		peak_array_buffer_bytes: peakArrayBuffers,
		peak_rss_bytes: process.resourceUsage().maxRSS * 1024,
	}),
);
