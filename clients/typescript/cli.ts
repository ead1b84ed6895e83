#!/usr/bin/env node
/**
 * `framed-print`, the package's command (Node 20+):
 *
 *   framed-print listen --forward-to http://localhost:3000/hooks [--api-url http://localhost:8787/v1]
 *     [--api-key fps_test_…] [--secret whsec_…] [--events order.shipped,…] [--from now|start|<event id>]
 *
 * Follows the account's event log and forwards each event to the local URL, signed as the service
 * signs its webhooks (listen.ts), printing one line per event. The key and secret also come from
 * FRAMED_PRINT_API_KEY and FRAMED_PRINT_WEBHOOK_SECRET. Where it stopped is kept in
 * `.framed-print/listen-<mode>.json` in the working folder, by API URL, so the next run resumes there
 * (`--from` starts elsewhere). Ctrl-C stops it after the event being forwarded.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { type ForwardedEvent, ListenError, listen, originOf } from "./listen.ts";
import { WEBHOOK_EVENT_TYPES } from "./webhook-events.ts";

const USAGE = `Usage: framed-print listen --forward-to <url> [options]

Follows your account's event log and forwards each event to <url>, with the body and
headers its webhook has, signed with your webhook secret. One line per event.

Options:
  --forward-to <url>   the local receiver, e.g. http://localhost:3000/hooks (required)
  --api-url <url>      the API, default http://localhost:8787/v1 (npm start's)
  --api-key <key>      fps_test_… or fps_live_… (or FRAMED_PRINT_API_KEY)
  --secret <whsec_…>   that mode's webhook secret (or FRAMED_PRINT_WEBHOOK_SECRET)
  --events <types>     comma-separated event types to forward, e.g. order.shipped,order.delivered
  --from <where>       now, start, or an event id; default: where the last run stopped, else now
  --interval <ms>      between reads at the end of the log, default 2000
  --help, --version`;

/** The state file: the position per API URL, for one key mode. */
type ListenState = Record<string, { after: string; saved_at: string }>;

function stateFile(mode: string): string {
	return path.join(process.cwd(), ".framed-print", `listen-${mode}.json`);
}

async function readState(file: string): Promise<ListenState> {
	try {
		const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
		return typeof parsed === "object" && parsed !== null ? (parsed as ListenState) : {};
	} catch {
		return {};
	}
}

/** Written to a temporary file, then renamed: a stop mid-write never leaves half a file. */
async function writeState(file: string, state: ListenState): Promise<void> {
	await mkdir(path.dirname(file), { recursive: true });
	const partial = `${file}.${process.pid}.tmp`;
	await writeFile(partial, `${JSON.stringify(state, null, 2)}\n`);
	await rename(partial, file);
}

function line(forwarded: ForwardedEvent): string {
	const { event, status, error, ms } = forwarded;
	const answer = status === null ? `error: ${error}` : String(status);
	return `${event.created_at}  ${event.type.padEnd(22)} ${event.id}  ${event.order_id}  -> ${answer} (${ms} ms)`;
}

async function version(): Promise<string> {
	const manifest: unknown = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8"));
	return typeof manifest === "object" && manifest !== null && "version" in manifest ? String(manifest.version) : "";
}

function fail(message: string): never {
	console.error(`framed-print: ${message}`);
	process.exit(2);
}

async function main(argv: string[]): Promise<void> {
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: {
			"forward-to": { type: "string" },
			"api-url": { type: "string", default: "http://localhost:8787/v1" },
			"api-key": { type: "string" },
			secret: { type: "string" },
			events: { type: "string" },
			from: { type: "string" },
			interval: { type: "string" },
			help: { type: "boolean", default: false },
			version: { type: "boolean", default: false },
		},
	});
	if (values.version) return console.log(await version());
	if (values.help || positionals.length === 0) return console.log(USAGE);
	if (positionals[0] !== "listen" || positionals.length > 1)
		fail(`unknown command "${positionals.join(" ")}"\n${USAGE}`);

	const forwardTo = values["forward-to"] ?? fail("--forward-to is required, e.g. http://localhost:3000/hooks");
	const apiKey = values["api-key"] ?? process.env.FRAMED_PRINT_API_KEY ?? fail("an API key is required");
	const secret = values.secret ?? process.env.FRAMED_PRINT_WEBHOOK_SECRET ?? fail("the webhook secret is required");
	const mode = /^fps_(live|test)_/.exec(apiKey)?.[1] ?? fail("the API key is not fps_live_… or fps_test_…");
	const apiUrl = values["api-url"];
	const interval = values.interval === undefined ? 2000 : Number(values.interval);
	if (!Number.isInteger(interval) || interval < 100) fail("--interval is milliseconds, at least 100");

	const events = values.events
		?.split(",")
		.map((type) => type.trim())
		.filter((type) => type !== "");
	const known: readonly string[] = WEBHOOK_EVENT_TYPES;
	const unknown = events?.filter((type) => !known.includes(type)) ?? [];
	if (unknown.length > 0) fail(`--events: no such webhook ${unknown.join(", ")}; the events: ${known.join(", ")}`);

	const file = stateFile(mode);
	const key = originOf(apiUrl);
	const state = await readState(file);
	const from = values.from ?? state[key]?.after ?? "now";
	const controller = new AbortController();
	const stop = () => {
		if (controller.signal.aborted) process.exit(130);
		controller.abort();
	};
	process.on("SIGINT", stop);
	process.on("SIGTERM", stop);

	console.log(
		`Forwarding ${mode} events from ${apiUrl} to ${forwardTo}, ${from === "now" || from === "start" ? `from ${from}` : `after ${from}`}. Ctrl-C to stop.`,
	);
	try {
		await listen({
			apiUrl,
			apiKey,
			secret,
			forwardTo,
			from,
			intervalMs: interval,
			...(events === undefined ? {} : { events }),
			signal: controller.signal,
			async savePosition(position) {
				state[key] = { after: position, saved_at: new Date().toISOString() };
				await writeState(file, state);
			},
			onForward: (forwarded) => console.log(line(forwarded)),
			onApiUnreachable: (message) =>
				console.error(`framed-print: reading the event log failed (${message}); trying again`),
		});
	} catch (error) {
		if (error instanceof ListenError) fail(error.message);
		throw error;
	}
	console.log(
		`Stopped; the next run resumes after ${state[key]?.after ?? from} (${path.relative(process.cwd(), file)}).`,
	);
}

main(process.argv.slice(2)).then(
	() => process.exit(0),
	(error: unknown) => fail(error instanceof Error ? error.message : String(error)),
);
