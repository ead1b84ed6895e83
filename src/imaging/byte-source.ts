/** Random access to a stored file's bytes: what every probe and decoder reads, through a ByteReader. */
export interface ByteSource {
	readonly size: number;
	/** Bytes from `offset`; fewer than `length` only at the end of the file. */
	read(offset: number, length: number): Promise<Uint8Array>;
}

/** A ByteSource over bytes in memory (a thumbnail read whole, a test's file), counting what is read. */
export function memorySource(bytes: Uint8Array): ByteSource & { bytesRead: number; reads: number } {
	const source = {
		size: bytes.length,
		bytesRead: 0,
		reads: 0,
		read(offset: number, length: number): Promise<Uint8Array> {
			const chunk = bytes.slice(offset, offset + length);
			source.bytesRead += chunk.length;
			source.reads += 1;
			return Promise.resolve(chunk);
		},
	};
	return source;
}
