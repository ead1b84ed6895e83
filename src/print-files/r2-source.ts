import type { ByteSource } from "./byte-source.ts";

/** A ByteSource over an R2 object with ranged GETs, counting the bytes and requests it costs. */
export function r2Source(
	bucket: R2Bucket,
	key: string,
	size: number,
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
			const object = await bucket.get(key, { range: { offset, length: clamped } });
			if (object === null) throw new Error(`R2 object ${key} disappeared during inspection`);
			const bytes = new Uint8Array(await object.arrayBuffer());
			reads += 1;
			bytesRead += bytes.byteLength;
			return bytes;
		},
	};
}
