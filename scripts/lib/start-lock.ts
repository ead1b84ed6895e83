/**
 * One `wrangler dev` starting at a time on this machine. wrangler picks the ports of its workerd's own
 * sockets while it starts, and two starting at the same moment can pick the same one: one of them then
 * exits with "Address already in use" (seen with test files that each start a server, run in parallel).
 * The lock is a file in the temporary folder, created exclusively and holding its owner's pid, held from
 * the spawn until the server answers (or fails); a lock whose owner is gone, or older than a start can
 * take, is taken over.
 */
import { open, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

const LOCK_FILE = path.join(tmpdir(), "framed-print-wrangler-start.lock");
/** Longer than any start takes (a cold start on a loaded machine is well under this). */
const STALE_AFTER_MS = 180_000;
const POLL_MS = 200;

/** Runs `start` while holding the machine's start lock, waiting for it up to `waitMs`. */
export async function oneStartAtATime<T>(start: () => Promise<T>, waitMs = 300_000): Promise<T> {
	const deadline = Date.now() + waitMs;
	while (!(await takeLock())) {
		if (Date.now() > deadline) throw new Error(`another wrangler dev kept ${LOCK_FILE} for ${waitMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, POLL_MS));
	}
	try {
		return await start();
	} finally {
		await rm(LOCK_FILE, { force: true });
	}
}

/** Creates the lock file with this process's pid; false while another live owner holds it. */
async function takeLock(): Promise<boolean> {
	try {
		const handle = await open(LOCK_FILE, "wx");
		await handle.writeFile(String(process.pid));
		await handle.close();
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
		if (await isStale()) await rm(LOCK_FILE, { force: true });
		return false;
	}
}

/** Whether the lock's owner has exited, or the lock is older than any start. */
async function isStale(): Promise<boolean> {
	const [owner, info] = await Promise.all([
		readFile(LOCK_FILE, "utf8").catch(() => ""),
		stat(LOCK_FILE).catch(() => null),
	]);
	if (info === null) return false;
	if (Date.now() - info.mtimeMs > STALE_AFTER_MS) return true;
	const pid = Number(owner);
	// An empty file is one being written this moment: its owner is alive.
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return false;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "ESRCH";
	}
}
