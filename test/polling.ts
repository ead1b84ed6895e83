/**
 * Polls `read` every `intervalMs` until `done` holds for what it gives, and returns that value. Bounded:
 * past `timeoutMs` it throws, with `failure` saying what the last read gave.
 */
export async function waitFor<T>(
	read: () => Promise<T>,
	done: (value: T) => boolean,
	options: { timeoutMs?: number; intervalMs?: number; failure?: (last: T) => string } = {},
): Promise<T> {
	const {
		timeoutMs = 10_000,
		intervalMs = 100,
		failure = (last: T) => `still not there: ${JSON.stringify(last)}`,
	} = options;
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (done(value)) return value;
		if (Date.now() > deadline) throw new Error(failure(value));
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}
