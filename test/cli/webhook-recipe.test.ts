/**
 * The openssl recipe in docs/webhooks.md runs as written: `npm run receiver` saves a delivery signed by the
 * service's own signer, and the doc's shell block, run by bash against what was saved, says both signatures are
 * valid; with the saved body changed by one byte it says both are invalid.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/dev-server.ts";
import { PROJECT_ROOT } from "../../scripts/lib/wrangler.ts";
import { signatureHeader } from "../../src/webhooks/signature.ts";
import { standardWebhookHeaders } from "../../src/webhooks/standard-webhooks.ts";

const run = promisify(execFile);
const SECRET = "whsec_dGhpcyBpcyBhIHRlc3Qgc2VjcmV0IGtleSEh";
const folder = mkdtempSync(path.join(tmpdir(), "webhook-recipe-"));
const saveDir = path.join(folder, ".wrangler", "webhooks");
let receiver: ChildProcess | undefined;
let port = 0;

/** The shell block of docs/webhooks.md that checks a saved delivery with openssl. */
function recipe(): string {
	const doc = readFileSync(path.join(PROJECT_ROOT, "docs", "webhooks.md"), "utf8");
	const blocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
	const found = blocks.find((block) => block.includes(". .wrangler/webhooks/last.env"));
	if (found === undefined)
		throw new Error("docs/webhooks.md has no openssl recipe reading .wrangler/webhooks/last.env");
	return found;
}

async function runRecipe(): Promise<string> {
	const { stdout } = await run("bash", ["-euo", "pipefail", "-c", recipe()], {
		cwd: folder,
		env: { PATH: process.env.PATH, WEBHOOK_SECRET: SECRET },
	});
	return stdout;
}

beforeAll(async () => {
	port = await freePort();
	receiver = spawn(process.execPath, [path.join(PROJECT_ROOT, "scripts", "receiver.ts")], {
		cwd: folder,
		env: { ...process.env, RECEIVER_PORT: String(port), RECEIVER_SAVE_DIR: saveDir, WEBHOOK_SECRET: SECRET },
		stdio: ["ignore", "pipe", "pipe"],
	});
	let output = "";
	receiver.stdout?.on("data", (chunk: Buffer) => {
		output += chunk.toString();
	});
	const deadline = Date.now() + 20_000;
	while (!output.includes("Webhook receiver on")) {
		if (Date.now() > deadline || receiver.exitCode !== null) throw new Error(`receiver did not start: ${output}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
});

afterAll(async () => {
	if (receiver !== undefined && receiver.exitCode === null) {
		const exited = once(receiver, "exit");
		receiver.kill("SIGTERM");
		await exited;
	}
	rmSync(folder, { recursive: true, force: true });
});

describe("the openssl recipe in docs/webhooks.md", () => {
	it("says both signatures of a delivery the receiver saved are valid", async () => {
		const body = JSON.stringify({ id: "evt_recipe1", event: "order.shipped", order_id: "ord_ünïcode", version: 4 });
		const now = Math.floor(Date.now() / 1000);
		const response = await fetch(`http://127.0.0.1:${port}/webhooks`, {
			method: "POST",
			headers: {
				"Content-Type": "application/json",
				"SVC-Signature": await signatureHeader(body, [SECRET], now),
				...standardWebhookHeaders("evt_recipe1", body, [SECRET], now),
			},
			body,
		});
		expect(response.status).toBe(204);
		expect(readFileSync(path.join(saveDir, "last.body"), "utf8")).toBe(body);
		expect(await runRecipe()).toBe("SVC-Signature: valid\nwebhook-signature: valid\n");
	});

	it("says both are invalid when the saved body differs by one byte", async () => {
		const env = readFileSync(path.join(saveDir, "last.env"), "utf8");
		const bodyFile = /^BODY_FILE='([^']*)'$/m.exec(env)?.[1];
		expect(bodyFile).toBeDefined();
		const saved = readFileSync(bodyFile ?? "", "utf8");
		writeFileSync(bodyFile ?? "", saved.replace('"version":4', '"version":5'));
		expect(await runRecipe()).toBe("SVC-Signature: INVALID\nwebhook-signature: INVALID\n");
	});
});
