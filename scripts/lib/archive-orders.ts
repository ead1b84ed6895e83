/**
 * The operators' archive loop: POST /v1/admin/order-archive/run on a running service (the archive needs
 * the Worker's R2 bucket, so it goes through the service, never straight to D1) until a run archives none.
 */

/** What the loop did in all: orders archived, candidates left in D1, runs made. */
export type ArchiveTotals = { archived: number; skipped: number; runs: number };

/** What one run answers. */
type RunCounts = { archived: number; skipped: number };

/** Runs the archive at `origin` with the admin key until a run archives nothing; `days` overrides the age. */
export async function archiveOrdersUntilDone(
	origin: string,
	adminKey: string,
	days: number | undefined,
	onRun: (counts: RunCounts) => void = () => {},
): Promise<ArchiveTotals> {
	const totals: ArchiveTotals = { archived: 0, skipped: 0, runs: 0 };
	for (;;) {
		const response = await fetch(new URL("/v1/admin/order-archive/run", origin), {
			method: "POST",
			headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
			body: JSON.stringify(days === undefined ? {} : { days }),
		});
		if (response.status !== 200) throw new Error(`the run answered ${response.status}: ${await response.text()}`);
		const counts = (await response.json()) as RunCounts;
		totals.runs += 1;
		totals.archived += counts.archived;
		totals.skipped += counts.skipped;
		onRun(counts);
		if (counts.archived === 0) return totals;
	}
}
