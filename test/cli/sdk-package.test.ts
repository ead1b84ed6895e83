/**
 * The SDK as a partner gets it: `npm run sdk:build`'s build, packed with `npm pack`, installed from
 * the tarball into an empty project (package.json `type: module`), and used there with plain `node`
 * (Node 20, /usr/bin/node, when the machine has it) against a real `wrangler dev` set up as
 * `npm start` runs it:
 *
 * - the walkthrough, as a JavaScript file importing `@framed-print/client` by its name: upload a
 *   print file (presigned PUT), create a test order, read it, list its events;
 * - a TypeScript file type-checked against the installed declarations (`tsc`, nodenext);
 * - `framed-print listen` (the package's bin) forwarding the order's events to a local receiver that
 *   verifies each with the `standardwebhooks` package and the test secret, byte for byte the bodies
 *   the service delivered itself; stopped with SIGINT, then started again: it resumes after the
 *   last event, sending none twice.
 *
 * Bounded: every step has a deadline, and the server, the receiver and the child are always stopped.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../scripts/lib/accounts.ts";
import { type DevServer, freePort, startDevServer } from "../../scripts/lib/dev-server.ts";
import { tiffWithIfdAtEnd } from "../../scripts/lib/image-fixtures.ts";
import { presignedUploadVars } from "../../scripts/lib/local-uploads.ts";
import { migrateFreshFolder } from "../../scripts/lib/migrated-template.ts";
import { buildSdk, packSdk } from "../../scripts/lib/sdk-package.ts";
import type { NewAccount } from "../../src/admin/provisioning.ts";
import { closeServer, typeErrorsOf } from "./cli-support.ts";

const run = promisify(execFile);
/** Node 20 where the machine has it (npm scripts put the project's Node 24 first on PATH). */
const PLAIN_NODE = existsSync("/usr/bin/node") ? "/usr/bin/node" : process.execPath;

type Received = { path: string; headers: IncomingHttpHeaders; body: string; verified: boolean };

/** The walkthrough as a partner's JavaScript, importing the package by its name. */
const WALKTHROUGH = `import { readFile } from "node:fs/promises";
import { createClient } from "@framed-print/client";

const api = createClient({ baseUrl: process.env.FPS_ORIGIN, apiKey: process.env.FPS_KEY });
const fail = (what, answer) => { throw new Error(what + ": " + JSON.stringify(answer.error)); };

const image = await readFile("print.tif");
const ticket = await api.POST("/v1/print-files", {
	body: { content_type: "image/tiff", filename: "print.tif", size_bytes: image.byteLength },
});
if (ticket.error) fail("upload ticket", ticket);
const stored = await fetch(ticket.data.upload_url, {
	method: ticket.data.upload_method,
	headers: ticket.data.upload_headers,
	body: image,
});
if (!stored.ok) throw new Error("upload refused: " + stored.status);

let file = await api.GET("/v1/print-files/{id}", { params: { path: { id: ticket.data.id } } });
for (let tries = 0; file.data?.status === "processing" && tries < 120; tries++) {
	await new Promise((resolve) => setTimeout(resolve, 250));
	file = await api.GET("/v1/print-files/{id}", { params: { path: { id: ticket.data.id } } });
}
if (file.data?.status !== "ready") fail("print file", file);

const created = await api.POST("/v1/orders", {
	body: {
		external_id: "PO-SDK-" + Date.now(),
		callback_url: process.env.FPS_CALLBACK_URL,
		ship_to: { name: "Ada Lovelace", address1: "12 Harbour Street", city: "Portland", state: "ME", zip: "04101", country: "US" },
		items: [{ print_file_id: ticket.data.id, width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" }],
	},
});
if (created.error) fail("create order", created);

let order = await api.GET("/v1/orders/{id}", { params: { path: { id: created.data.id } } });
for (let tries = 0; ["received", "validating"].includes(order.data?.status) && tries < 120; tries++) {
	await new Promise((resolve) => setTimeout(resolve, 250));
	order = await api.GET("/v1/orders/{id}", { params: { path: { id: created.data.id } } });
}
if (order.error) fail("read order", order);

const events = await api.GET("/v1/events", { params: { query: { order_id: created.data.id } } });
if (events.error) fail("events", events);
console.log(JSON.stringify({
	file: { id: file.data.id, status: file.data.status, width_px: file.data.width_px },
	order: { id: order.data.id, mode: order.data.mode, status: order.data.status, quantity: order.data.items[0].quantity },
	events: events.data.data.map((event) => event.type),
}));
`;

/** A partner's TypeScript, checked against the installed declarations. */
const TYPED_CONSUMER = `import { createClient, type Schemas, signWebhook, verifyWebhook, type WebhookEvent } from "@framed-print/client";

const api = createClient({ baseUrl: "http://localhost:8787", apiKey: "fps_test_0000" });
const item: Schemas["OrderItemInput"] = { print_file_id: "pf_1", width_in: 8, height_in: 10 };

export async function walkthrough(): Promise<string | undefined> {
	const created = await api.POST("/v1/orders", {
		body: {
			external_id: "PO-1",
			ship_to: { name: "Ada", address1: "12 Harbour Street", city: "Portland", zip: "04101", country: "US" },
			items: [item],
		},
	});
	const status: Schemas["Order"]["status"] | undefined = created.data?.status;
	const page = await api.GET("/v1/events", { params: { query: { after: "start", limit: 10 } } });
	return status ?? page.data?.data[0]?.id;
}

export async function roundTrip(secret: string): Promise<WebhookEvent> {
	const body = JSON.stringify({ id: "evt_1", event: "order.in_production" });
	return verifyWebhook(body, await signWebhook(body, secret, { id: "evt_1" }), secret);
}

// @ts-expect-error: the path is not the API's, so the declarations are really read.
void api.GET("/v1/no-such-path");
`;

/** Waits until `done` holds, or fails after `timeoutMs` saying what was awaited. */
async function waitUntil(what: string, done: () => boolean, timeoutMs = 45_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!done()) {
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/** Stops a child we started, by its pid, and waits for it; SIGKILL if it does not go within 5 s. */
async function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
	if (child === undefined || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
	const exited = once(child, "exit");
	child.kill(signal);
	const forced = setTimeout(() => child.kill("SIGKILL"), 5000);
	const [code] = (await exited) as [number | null];
	clearTimeout(forced);
	return code;
}

describe("the packed SDK in an empty project, against wrangler dev", () => {
	let serverFolder = "";
	let project = "";
	let server: DevServer | undefined;
	let receiver: Server | undefined;
	let receiverOrigin = "";
	let partner: NewAccount;
	let listener: ChildProcess | undefined;
	let listenerOutput = "";
	const received: Received[] = [];
	let orderId = "";
	const timings: Record<string, number> = {};

	function origin(): string {
		if (server === undefined) throw new Error("wrangler dev did not start");
		return server.origin;
	}

	function startListener(extra: string[]): ChildProcess {
		listenerOutput = "";
		const child = spawn(
			PLAIN_NODE,
			[
				path.join(project, "node_modules", ".bin", "framed-print"),
				"listen",
				"--forward-to",
				`${receiverOrigin}/listen`,
				"--api-url",
				`${origin()}/v1`,
				"--interval",
				"500",
				...extra,
			],
			{
				cwd: project,
				env: {
					PATH: process.env.PATH,
					FRAMED_PRINT_API_KEY: partner.keys.test.key,
					FRAMED_PRINT_WEBHOOK_SECRET: partner.webhook_secrets.test,
				},
				stdio: ["ignore", "pipe", "pipe"],
			},
		);
		child.stdout?.on("data", (chunk: Buffer) => {
			listenerOutput += chunk.toString();
		});
		child.stderr?.on("data", (chunk: Buffer) => {
			listenerOutput += chunk.toString();
		});
		return child;
	}

	beforeAll(async () => {
		serverFolder = await mkdtemp(path.join(tmpdir(), "fps-sdk-server-"));
		project = await mkdtemp(path.join(tmpdir(), "fps-sdk-project-"));
		receiver = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on("data", (chunk: Buffer) => chunks.push(chunk));
			request.on("end", () => {
				const body = Buffer.concat(chunks).toString("utf8");
				let verified = false;
				try {
					new Webhook(partner.webhook_secrets.test).verify(body, {
						"webhook-id": String(request.headers["webhook-id"]),
						"webhook-timestamp": String(request.headers["webhook-timestamp"]),
						"webhook-signature": String(request.headers["webhook-signature"]),
					});
					verified = true;
				} catch {
					verified = false;
				}
				received.push({ path: request.url ?? "", headers: request.headers, body, verified });
				response.writeHead(verified ? 204 : 400).end();
			});
		});
		receiver.listen(0, "127.0.0.1");
		await once(receiver, "listening");
		const address = receiver.address();
		if (address === null || typeof address === "string") throw new Error("the receiver has no port");
		receiverOrigin = `http://127.0.0.1:${address.port}`;

		// The server, as npm start runs it; the package built and packed meanwhile.
		const serverReady = (async () => {
			await migrateFreshFolder(serverFolder);
			partner = await createAccount({ remote: false, persistTo: serverFolder }, "SDK Package Partner");
			const port = await freePort();
			server = await startDevServer({
				port,
				persistTo: serverFolder,
				vars: { ENVIRONMENT: "development", ...presignedUploadVars(`http://127.0.0.1:${port}`) },
			});
		})();
		const installed = (async () => {
			const started = performance.now();
			timings.buildMs = await buildSdk();
			const { tarball, bytes } = await packSdk(project);
			timings.tarballBytes = bytes;
			await writeFile(
				path.join(project, "package.json"),
				`${JSON.stringify({ name: "sdk-consumer", private: true, type: "module" })}\n`,
			);
			const installing = performance.now();
			await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball], {
				cwd: project,
				timeout: 90_000,
				env: { ...process.env, npm_config_update_notifier: "false" },
			});
			timings.installMs = Math.round(performance.now() - installing);
			timings.packageMs = Math.round(performance.now() - started);
		})();
		await Promise.all([serverReady, installed]);
		await writeFile(path.join(project, "print.tif"), tiffWithIfdAtEnd(2400, 3000, 2400 * 3000 * 3));
		await writeFile(path.join(project, "walkthrough.js"), WALKTHROUGH);
		await writeFile(path.join(project, "consumer.ts"), TYPED_CONSUMER);
	});

	afterAll(async () => {
		await stopChild(listener, "SIGKILL");
		await server?.stop();
		await closeServer(receiver);
		await rm(serverFolder, { recursive: true, force: true });
		await rm(project, { recursive: true, force: true });
		console.log(`SDK package: ${JSON.stringify(timings)}`);
	});

	it("installs from the tarball: ESM with declarations, the framed-print bin, Node >= 20", async () => {
		const manifest = JSON.parse(
			await readFile(path.join(project, "node_modules", "@framed-print", "client", "package.json"), "utf8"),
		);
		expect(manifest).toMatchObject({
			type: "module",
			engines: { node: ">=20" },
			bin: { "framed-print": "./dist/cli.js" },
		});
		expect(manifest.exports["."]).toEqual({ types: "./dist/index.d.ts", default: "./dist/index.js" });
		const { stdout } = await run(
			PLAIN_NODE,
			[path.join(project, "node_modules", ".bin", "framed-print"), "--version"],
			{
				cwd: project,
				timeout: 20_000,
			},
		);
		expect(stdout.trim()).toBe(manifest.version);
		expect(timings.tarballBytes).toBeLessThan(200_000);
	});

	it("runs the walkthrough with plain node: upload, test order, read, events", async () => {
		const started = performance.now();
		const { stdout } = await run(PLAIN_NODE, ["walkthrough.js"], {
			cwd: project,
			timeout: 90_000,
			env: {
				PATH: process.env.PATH,
				FPS_ORIGIN: origin(),
				FPS_KEY: partner.keys.test.key,
				FPS_CALLBACK_URL: `${receiverOrigin}/delivered`,
			},
		});
		timings.walkthroughMs = Math.round(performance.now() - started);
		const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
		expect(result.file).toMatchObject({ status: "ready", width_px: 2400 });
		expect(result.order).toMatchObject({ mode: "test", status: "in_production", quantity: 1 });
		expect(result.events).toEqual(expect.arrayContaining(["order.received", "order.in_production"]));
		orderId = result.order.id;
	});

	it("type-checks a TypeScript consumer against the installed declarations (tsc, nodenext)", async () => {
		const checked = await typeErrorsOf("consumer.ts", project, {
			extraArgs: ["--lib", "es2022,dom"],
			timeoutMs: 90_000,
		});
		expect(checked).toBe("");
	});

	it("framed-print listen forwards the order's webhooks, verified and byte for byte as delivered, and resumes without resending", async () => {
		expect(orderId, "the walkthrough made no order").not.toBe("");
		const forwarded = () => received.filter((request) => request.path === "/listen");
		const forwardedOf = (type: string) =>
			forwarded().filter((request) => request.body.includes(`"event":"${type}"`) && request.body.includes(orderId));
		const delivered = (type: string) =>
			received.find((request) => request.path === "/delivered" && request.body.includes(`"event":"${type}"`));

		listener = startListener(["--from", "start"]);
		await waitUntil(
			"listen forwards order.in_production and the service delivers it",
			() => forwardedOf("order.in_production").length > 0 && delivered("order.in_production") !== undefined,
		);
		const [mine] = forwardedOf("order.in_production");
		const real = delivered("order.in_production");
		if (mine === undefined || real === undefined) throw new Error("unreachable");

		// Verified with standardwebhooks and the test secret; the very bytes the service delivered.
		expect(mine.verified).toBe(true);
		expect(real.verified).toBe(true);
		expect(mine.body).toBe(real.body);
		expect(mine.headers["webhook-id"]).toBe(real.headers["webhook-id"]);
		for (const name of ["content-type", "user-agent", "svc-signature", "webhook-timestamp", "webhook-signature"]) {
			expect(mine.headers[name], name).toBeDefined();
		}
		expect(mine.headers["content-type"]).toBe(real.headers["content-type"]);
		expect(mine.headers["user-agent"]).toBe(real.headers["user-agent"]);
		expect(mine.headers["svc-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
		// order.received is listed in the log but never sent: listen does not forward it either.
		expect(forwardedOf("order.received")).toEqual([]);
		await waitUntil("listen prints a line for the event", () =>
			listenerOutput.includes(mine.headers["webhook-id"] as string),
		);
		expect(listenerOutput).toMatch(
			new RegExp(`order\\.in_production\\s+${mine.headers["webhook-id"]}\\s+${orderId}\\s+-> 204 \\(\\d+ ms\\)`),
		);

		// Ctrl-C: a clean stop, its position kept.
		expect(await stopChild(listener, "SIGINT")).toBe(0);
		const state = JSON.parse(await readFile(path.join(project, ".framed-print", "listen-test.json"), "utf8"));
		expect(state[origin()].after).toMatch(/^evt_/);
		const before = forwarded().length;

		// Started again without --from: it resumes after the last event, sending none twice, and forwards what is new.
		listener = startListener([]);
		await waitUntil("listen starts again", () => listenerOutput.includes(`after ${state[origin()].after}`));
		const advanced = await fetch(`${origin()}/v1/sandbox/orders/${orderId}/advance`, {
			method: "POST",
			headers: { Authorization: `Bearer ${partner.keys.test.key}` },
		});
		expect(advanced.status, await advanced.text()).toBe(200);
		await waitUntil("listen forwards the next event", () => forwarded().length > before);
		const resent = forwarded()
			.slice(before)
			.filter((request) =>
				forwarded()
					.slice(0, before)
					.some((earlier) => earlier.headers["webhook-id"] === request.headers["webhook-id"]),
			);
		expect(resent).toEqual([]);
		expect(
			forwarded()
				.slice(before)
				.every((request) => request.verified),
		).toBe(true);
		expect(await stopChild(listener, "SIGINT")).toBe(0);
	});
});
