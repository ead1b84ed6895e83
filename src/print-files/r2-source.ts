import type { ByteSource } from "../imaging/byte-source.ts";

/**
 * A ByteSource over an R2 object with ranged GETs, counting the bytes and requests it costs. Given
 * the object's etag, every read is conditional on it: bytes replaced mid-way fail the read instead
 * of mixing two objects.
 */
export function r2Source(
	bucket: R2Bucket,
	key: string,
	size: number,
	etag?: string,
): ByteSource & { readonly bytesRead: number; readonly reads: number } {
	let bytesRead = 0;
	let reads = 0;
	return {
		size,
		get bytesRead() {
			return bytesRead;
		},
		get reads() {
			return reads;
		},
		async read(offset: number, length: number): Promise<Uint8Array> {
			const clamped = Math.max(0, Math.min(length, size - offset));
			if (clamped === 0) return new Uint8Array(0);
			const object = await bucket.get(key, {
				range: { offset, length: clamped },
				...(etag === undefined ? {} : { onlyIf: { etagMatches: etag } }),
			});
			if (object === null) throw new Error(`R2 object ${key} disappeared during inspection`);
			if (!("arrayBuffer" in object)) throw new Error(`R2 object ${key} was replaced during inspection`);
			const bytes = new Uint8Array(await object.arrayBuffer());
			reads += 1;
			bytesRead += bytes.byteLength;
			return bytes;
		},
	};
}
