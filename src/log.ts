/**
 * The service's log lines: one JSON object per line, `{"level": ..., "event": ..., ...fields}`, so
 * Workers Logs can filter on any field. `event` names what happened in a few words
 * (`webhook.enqueue_failed`); the fields carry the ids and the error's text. A leaf: it imports
 * nothing of the service, so any module may log.
 */

/** What a line says besides its level and event: ids, counts, an error's text. */
export type LogFields = Record<string, unknown> & { level?: never; event?: never };

function line(level: "info" | "warn" | "error", event: string, fields: LogFields): string {
	return JSON.stringify({ level, event, ...fields });
}

export const log = {
	/** Something worth counting went as it should (a cron run that did work). */
	info(event: string, fields: LogFields = {}): void {
		console.log(line("info", event, fields));
	},
	/** Something failed and a fallback covers it (the queue or the sweep will try again). */
	warn(event: string, fields: LogFields = {}): void {
		console.warn(line("warn", event, fields));
	},
	/** Something failed that nothing else will report. */
	error(event: string, fields: LogFields = {}): void {
		console.error(line("error", event, fields));
	},
};
