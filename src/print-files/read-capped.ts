/** Reads a whole stream into memory, or null (the rest cancelled) as soon as it passes `cap` bytes. */
export async function readCapped(body: ReadableStream<Uint8Array>, cap: number): Promise<Uint8Array | null> {
	const chunks: Uint8Array[] = [];
	let total = 0;
	const reader = body.getReader();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		total += value.byteLength;
		if (total > cap) {
			await reader.cancel();
			return null;
		}
		chunks.push(value);
	}
	const out = new Uint8Array(total);
	let at = 0;
	for (const chunk of chunks) {
		out.set(chunk, at);
		at += chunk.byteLength;
	}
	return out;
}
