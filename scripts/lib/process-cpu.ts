/**
 * CPU time of the workerd processes a `wrangler dev` started, read from /proc (Linux only). The
 * benchmarks divide it by requests: CPU time is steadier than throughput on a shared machine, and a
 * ratio to health measured in the same run cancels most of the machine's speed. Locally, workerd also
 * runs D1, R2 and the Durable Objects in-process, so the figure includes their simulation: it is a
 * measure to compare routes and versions by, not Cloudflare's billed CPU.
 */
import { readdir, readFile } from "node:fs/promises";

/** What /proc says of one process: its parent, its name and its CPU seconds (user plus system). */
type ProcessStat = { pid: number; parent: number; name: string; cpuSeconds: number };

/** Clock ticks per second for /proc's utime and stime: 100 on every Linux this runs on (USER_HZ). */
const TICKS_PER_SECOND = 100;

/** One process's /proc/<pid>/stat, or null when it has gone. The name may hold spaces and parentheses. */
async function statOf(pid: number): Promise<ProcessStat | null> {
	const text = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
	if (text === null) return null;
	const open = text.indexOf("(");
	const close = text.lastIndexOf(")");
	if (open < 0 || close < open) return null;
	// After the name: state, ppid, ..., utime is field 14 and stime field 15 of the whole line.
	const rest = text
		.slice(close + 2)
		.trim()
		.split(" ");
	const parent = Number(rest[1]);
	const userTicks = Number(rest[11]);
	const systemTicks = Number(rest[12]);
	if (![parent, userTicks, systemTicks].every(Number.isFinite)) return null;
	return {
		pid,
		parent,
		name: text.slice(open + 1, close),
		cpuSeconds: (userTicks + systemTicks) / TICKS_PER_SECOND,
	};
}

async function allProcesses(): Promise<ProcessStat[]> {
	const entries = await readdir("/proc");
	const pids = entries.filter((entry) => /^\d+$/.test(entry)).map(Number);
	const stats = await Promise.all(pids.map(statOf));
	return stats.filter((stat) => stat !== null);
}

/** Whether /proc can be read here (Linux); the benchmarks leave the CPU column out when not. */
export async function processCpuAvailable(): Promise<boolean> {
	return (await statOf(process.pid)) !== null;
}

/**
 * The CPU seconds used so far by every workerd process below `rootPid` (wrangler's pid): read before
 * and after a measured stretch, the difference is what workerd spent on it.
 */
export async function workerdCpuSeconds(rootPid: number): Promise<number> {
	const processes = await allProcesses();
	const children = new Map<number, ProcessStat[]>();
	for (const stat of processes) children.set(stat.parent, [...(children.get(stat.parent) ?? []), stat]);
	let total = 0;
	const pending = [...(children.get(rootPid) ?? [])];
	for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
		if (next.name === "workerd") total += next.cpuSeconds;
		pending.push(...(children.get(next.pid) ?? []));
	}
	return total;
}
