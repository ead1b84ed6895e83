import type { Owner } from "../accounts/owner.ts";
import { allowsLocalUrls } from "../config.ts";
import { databaseOf } from "../databases.ts";
import { outboundUrlProblem } from "../http/outbound-url.ts";
import { newId } from "../ids.ts";
import { MAX_PRINT_FILE_BYTES, printFileNow } from "./inspection.ts";
import { readCapped } from "./read-capped.ts";
import { findPrintFileById, insertPrintFile, type PrintFileRow, printFileKey } from "./store.ts";

const FETCH_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 3;
/** A source that does not say its length is buffered, up to this much (R2 needs the length up front). */
const MAX_UNSIZED_BYTES = 32 * 1024 * 1024;

export type FetchOutcome = { ok: true; sizeBytes: number } | { ok: false; message: string };

/**
 * A partner's `print_file_url` as a print file of `owner`: fetched into R2, recorded and inspected,
 * or why it could not be fetched. Only a fetched file becomes a print file of the account; a failed
 * fetch leaves no row behind.
 */
export async function fetchPrintFile(
	env: Env,
	owner: Owner,
	url: string,
	now: Date,
): Promise<{ ok: true; file: PrintFileRow | null } | { ok: false; message: string }> {
	const id = newId("pf");
	const r2Key = printFileKey(owner, id);
	const fetched = await fetchPrintFileIntoR2(env.PRINT_FILES, r2Key, url, { allowLocal: allowsLocalUrls(env) });
	if (!fetched.ok) return fetched;
	await insertPrintFile(databaseOf(env, owner.accountId), {
		id,
		account_id: owner.accountId,
		mode: owner.mode,
		filename: fileNameOf(url),
		content_type: "application/octet-stream",
		declared_size_bytes: null,
		r2_key: r2Key,
		created_at: now.toISOString(),
		// No upload URL is issued for a fetched file: the service fetched it itself.
		expires_at: now.toISOString(),
	});
	const row = await findPrintFileById(databaseOf(env, owner.accountId), id);
	return { ok: true, file: row === null ? null : await printFileNow(env, row) };
}

function fileNameOf(url: string): string | null {
	const last = new URL(url).pathname.split("/").pop() ?? "";
	if (last === "") return null;
	try {
		return decodeURIComponent(last).slice(0, 255);
	} catch {
		return last.slice(0, 255);
	}
}

/**
 * Fetches a partner's `print_file_url` into R2: https only (loopback too in development), the
 * outbound host rules checked on the URL and on every redirect (followed by hand, at most 3), a
 * 30 s timeout and the 512 MiB cap. Never throws for the source's faults; they come back as a message.
 */
export async function fetchPrintFileIntoR2(
	bucket: R2Bucket,
	r2Key: string,
	url: string,
	options: { allowLocal: boolean },
): Promise<FetchOutcome> {
	let current = url;
	const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
	try {
		for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
			const problem = outboundUrlProblem(current, options);
			if (problem !== null)
				return { ok: false, message: hop === 0 ? problem : `A redirect led to a refused address: ${problem}` };
			const response = await fetch(current, { redirect: "manual", signal, headers: { Accept: "image/*" } });
			if (response.status >= 300 && response.status < 400) {
				await response.body?.cancel();
				const location = response.headers.get("Location");
				if (location === null)
					return { ok: false, message: `The file server answered ${response.status} without a Location.` };
				current = new URL(location, current).toString();
				continue;
			}
			if (!response.ok) {
				await response.body?.cancel();
				return { ok: false, message: `The file server answered ${response.status} for the print_file_url.` };
			}
			return await storeResponse(bucket, r2Key, response);
		}
		return { ok: false, message: `The print_file_url redirected more than ${MAX_REDIRECTS} times.` };
	} catch (error) {
		const reason = signal.aborted ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s` : String(error);
		return { ok: false, message: `The print_file_url could not be fetched: ${reason}.` };
	}
}

async function storeResponse(bucket: R2Bucket, r2Key: string, response: Response): Promise<FetchOutcome> {
	const declared = response.headers.get("Content-Length");
	const length = declared === null ? Number.NaN : Number(declared);
	if (Number.isSafeInteger(length) && length > MAX_PRINT_FILE_BYTES) {
		await response.body?.cancel();
		return { ok: false, message: `The file is ${length} bytes; the largest accepted is 512 MiB.` };
	}
	if (response.body === null) {
		await bucket.put(r2Key, new Uint8Array(0));
		return { ok: true, sizeBytes: 0 };
	}
	if (Number.isSafeInteger(length) && length >= 0) {
		const sized = new FixedLengthStream(length);
		await Promise.all([bucket.put(r2Key, sized.readable), response.body.pipeTo(sized.writable)]);
		return { ok: true, sizeBytes: length };
	}
	const buffered = await readCapped(response.body, MAX_UNSIZED_BYTES);
	if (buffered === null) {
		return {
			ok: false,
			message: `The file server sent no Content-Length and more than ${MAX_UNSIZED_BYTES / 1024 / 1024} MiB; serve the file with a Content-Length.`,
		};
	}
	await bucket.put(r2Key, buffered);
	return { ok: true, sizeBytes: buffered.byteLength };
}
