import { describe, expect, it } from "vitest";
import { type ByteSource, memorySource } from "../../src/imaging/byte-source.ts";
import { ImageFault } from "../../src/imaging/fault.ts";
import { ByteReader, DECODER_READING } from "../../src/imaging/reader.ts";

/** 10 000 bytes where each byte is its offset modulo 251, so any misplaced byte shows. */
const bytes = Uint8Array.from({ length: 10_000 }, (_, index) => index % 251);

function expected(offset: number, length: number): Uint8Array {
	return bytes.slice(offset, offset + length);
}

describe("memorySource", () => {
	it("reads ranges, short at the end of the file, and counts bytes and requests", async () => {
		const source = memorySource(bytes);
		expect(source.size).toBe(10_000);
		expect(await source.read(5, 3)).toEqual(expected(5, 3));
		expect(await source.read(9_998, 10)).toEqual(expected(9_998, 2));
		expect({ bytesRead: source.bytesRead, reads: source.reads }).toEqual({ bytesRead: 5, reads: 2 });
	});
});

describe("ByteReader", () => {
	it("reads whole aligned blocks, so nearby small reads cost one request", async () => {
		const source = memorySource(bytes);
		const reader = new ByteReader(source, { blockSize: 1024 });
		expect(await reader.read(10, 4)).toEqual(expected(10, 4));
		expect(await reader.read(500, 20)).toEqual(expected(500, 20));
		expect(await reader.read(1_000, 24)).toEqual(expected(1_000, 24));
		expect({ bytesRead: source.bytesRead, reads: source.reads }).toEqual({ bytesRead: 1024, reads: 1 });
		expect({ bytesRead: reader.bytesRead, reads: reader.reads }).toEqual({ bytesRead: 1024, reads: 1 });
	});

	it("fetches the missing blocks of a range in one request and joins them", async () => {
		const source = memorySource(bytes);
		const reader = new ByteReader(source, { blockSize: 1024 });
		await reader.read(2_048, 1); // block 2 cached
		expect(await reader.read(1_000, 3_000)).toEqual(expected(1_000, 3_000)); // blocks 0, 1 and 3 missing
		expect(source.reads).toBe(3); // block 2, then blocks 0-1, then block 3
		expect(source.bytesRead).toBe(4 * 1024);
	});

	it("skipping over a large span reads nothing of it", async () => {
		const source = memorySource(bytes);
		const reader = new ByteReader(source, { blockSize: 512 });
		await reader.read(0, 4);
		await reader.read(9_000, 4);
		expect(source.bytesRead).toBe(1_024);
	});

	it("returns fewer bytes only at the end of the file, none past it", async () => {
		const reader = new ByteReader(memorySource(bytes), { blockSize: 4096 });
		expect(await reader.read(9_990, 100)).toEqual(expected(9_990, 10));
		expect(await reader.read(10_000, 4)).toEqual(new Uint8Array(0));
		expect(await reader.read(50_000, 4)).toEqual(new Uint8Array(0));
	});

	it("keeps only the most recent blocks", async () => {
		const source = memorySource(bytes);
		const reader = new ByteReader(source, { blockSize: 1024, cachedBlocks: 2 });
		await reader.read(0, 1);
		await reader.read(2_048, 1);
		await reader.read(0, 1); // block 0 is now the most recent
		await reader.read(4_096, 1); // evicts block 2
		expect(source.reads).toBe(3);
		await reader.read(0, 1);
		expect(source.reads).toBe(3);
		await reader.read(2_048, 1);
		expect(source.reads).toBe(4);
	});

	it("reads ahead, doubling up to the cache size, while reads follow one another", async () => {
		const source = memorySource(bytes);
		const reader = new ByteReader(source, { blockSize: 512, cachedBlocks: 4 });
		for (let offset = 0; offset < 8_192; offset += 100) {
			expect(await reader.read(offset, 4)).toEqual(expected(offset, 4));
		}
		// Blocks 0, 1-2, 3-6, 7-10, 11-14, 15-18: six requests, not sixteen.
		expect(source.reads).toBe(6);
		expect(source.bytesRead).toBe(19 * 512);
	});

	it("does not read ahead across a jump", async () => {
		const source = memorySource(bytes);
		const reader = new ByteReader(source, { blockSize: 512, cachedBlocks: 4 });
		await reader.read(0, 4);
		await reader.read(3_000, 4);
		await reader.read(6_000, 4);
		expect(source.bytesRead).toBe(3 * 512);
	});

	it("stops with read_limit_exceeded before reading past its limit", async () => {
		const source = memorySource(bytes);
		const reader = new ByteReader(source, { blockSize: 1024, readLimit: 3 * 1024 });
		await reader.read(0, 3 * 1024);
		const error = await reader.read(5_000, 1).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(ImageFault);
		expect(error).toMatchObject({ reason: "read_limit_exceeded" });
		expect(source.bytesRead).toBe(3 * 1024);
	});

	it("a storage failure is read_failed, not a corrupt file", async () => {
		const failing: ByteSource = { size: 100, read: () => Promise.reject(new Error("R2 is down")) };
		const error = await new ByteReader(failing).read(0, 4).catch((caught: unknown) => caught);
		expect(error).toMatchObject({ reason: "read_failed" });
	});

	it("refuses a negative or fractional range as a bug, not as a file problem", async () => {
		const reader = new ByteReader(memorySource(bytes));
		await expect(reader.read(-1, 4)).rejects.toThrow(RangeError);
		await expect(reader.read(0.5, 4)).rejects.toThrow(RangeError);
	});
});

describe("ByteReader with DECODER_READING", () => {
	it("reads exactly what is asked, keeping nothing, with no limit", async () => {
		const source = memorySource(bytes);
		const reader = new ByteReader(source, DECODER_READING);
		expect(await reader.read(10, 4)).toEqual(expected(10, 4));
		expect(await reader.read(10, 4)).toEqual(expected(10, 4));
		expect(await reader.read(9_990, 100)).toEqual(expected(9_990, 10));
		expect({ bytesRead: source.bytesRead, reads: source.reads }).toEqual({ bytesRead: 18, reads: 3 });
	});

	it("hands a range on in pieces of at most 1 MiB, and a range past the end is truncated", async () => {
		const big = new Uint8Array(2_500_000).map((_, index) => index % 7);
		const reader = new ByteReader(memorySource(big), DECODER_READING);
		const pieces: number[] = [];
		for await (const piece of reader.pieces(100, 2_400_000)) pieces.push(piece.length);
		expect(pieces).toEqual([1024 * 1024, 1024 * 1024, 2_400_000 - 2 * 1024 * 1024]);
		const beyond = reader.pieces(2_000_000, 600_000);
		await expect(beyond.next()).rejects.toMatchObject({ reason: "truncated" });
	});
});

describe("ByteCursor", () => {
	it("takes, streams and skips front to back, reading on a chunk at a time", async () => {
		const source = memorySource(bytes);
		const cursor = new ByteReader(source, DECODER_READING).cursor(100, 1_000);
		expect(await cursor.take(4, "a test header")).toEqual(expected(100, 4));
		expect(cursor.offset).toBe(104);
		expect(await cursor.next(10_000)).toEqual(expected(104, 996));
		cursor.skip(5_000);
		expect(cursor.offset).toBe(6_100);
		expect(await cursor.take(1_500, "a body")).toEqual(expected(6_100, 1_500));
		// The skip read nothing: chunks at 100, then 6100 and 7100.
		expect(source.reads).toBe(3);
	});

	it("is truncated where the file ends before what it takes or skips", async () => {
		const cursor = new ByteReader(memorySource(bytes), DECODER_READING).cursor(9_990);
		await expect(cursor.take(20, "a test header")).rejects.toMatchObject({ reason: "truncated" });
		expect(() => cursor.skip(20)).toThrow(ImageFault);
		expect(await cursor.next(100)).toEqual(expected(9_990, 10));
		await expect(cursor.next(1)).rejects.toMatchObject({ reason: "truncated" });
	});

	it("through a probe's reader, shares its cache and its read limit", async () => {
		const source = memorySource(bytes);
		const reader = new ByteReader(source, { blockSize: 1024, readLimit: 1_536 });
		const cursor = reader.cursor(0, 64);
		await cursor.take(64, "a test header");
		await cursor.take(64, "a test header");
		expect(source.reads).toBe(1);
		cursor.skip(5_000);
		await expect(cursor.take(1, "a test header")).rejects.toMatchObject({ reason: "read_limit_exceeded" });
	});
});
