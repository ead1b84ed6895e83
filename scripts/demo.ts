/**
 * `npm run demo`: a partner's walkthrough against the server `npm start` runs (http://localhost:8787,
 * or DEMO_ORIGIN). It creates a partner account with the development admin key, uploads a real TIFF
 * through `upload_url` with a plain PUT, creates an order whose `callback_url` is a webhook receiver
 * on loopback, moves it through production with the operator routes to `delivered`, and prints every
 * response and every webhook (its signature verified). Before ordering it saves a brand profile with a
 * PNG logo; the order carries a gift message, and its packing slip is fetched with the ops key, checked
 * (the brand on it, the service's name nowhere) and saved. Then the same in the sandbox with the test
 * key, stepped by the sandbox route instead of an operator. Exits non-zero if any step goes wrong.
 */

import { once } from "node:events";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { verifySignature } from "../src/webhooks/signature.ts";
import { drawBrandLogo } from "./lib/brand-logo.ts";
import { CREDENTIALS_FILE, devServerPort, readSavedCredentials } from "./lib/dev-credentials.ts";
import { tiffWithIfdAtEnd } from "./lib/image-fixtures.ts";
import { PROJECT_ROOT } from "./lib/wrangler.ts";

// The server `npm start` runs: on the port it noted (or PORT), unless DEMO_ORIGIN names another.
const ORIGIN = process.env.DEMO_ORIGIN ?? `http://localhost:${devServerPort()}`;
const SHIP_TO = {
	name: "Ada Lovelace",
	address1: "12 Harbour Street",
	city: "Portland",
	state: "ME",
	zip: "04101",
	country: "US",
};

function show(label: string, value: unknown): void {
	console.log(`\n── ${label}\n${JSON.stringify(value, null, 2)}`);
}

async function call(method: string, route: string, key: string, body?: unknown): Promise<Record<string, unknown>> {
	const response = await fetch(`${ORIGIN}${route}`, {
		method,
		headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const parsed = (await response.json()) as Record<string, unknown>;
	if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${JSON.stringify(parsed)}`);
	return parsed;
}

async function until<T>(what: string, probe: () => Promise<T | null>, seconds = 60): Promise<T> {
	const deadline = Date.now() + seconds * 1000;
	while (Date.now() < deadline) {
		const found = await probe();
		if (found !== null) return found;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`timed out waiting for ${what}`);
}

/** A webhook receiver on loopback that verifies each delivery's signature before answering 200. */
/** Whether the Standard Webhooks headers verify with the `standardwebhooks` package. */
function standardWebhooksVerify(secret: string, raw: string, headers: IncomingHttpHeaders): boolean {
	try {
		new Webhook(secret).verify(raw, {
			"webhook-id": String(headers["webhook-id"] ?? ""),
			"webhook-timestamp": String(headers["webhook-timestamp"] ?? ""),
			"webhook-signature": String(headers["webhook-signature"] ?? ""),
		});
		return true;
	} catch {
		return false;
	}
}

async function startReceiver(secret: string) {
	const received: Array<{ event: string; verified: boolean }> = [];
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => {
			const raw = Buffer.concat(chunks).toString("utf8");
			const header = String(request.headers["svc-signature"] ?? "");
			// Both signatures must hold: the spec's SVC-Signature, and the Standard Webhooks headers as its
			// maintained library verifies them with the secret exactly as issued.
			const standard = standardWebhooksVerify(secret, raw, request.headers);
			void verifySignature(raw, header, [secret], { toleranceSeconds: 300 }).then((signed) => {
				const verified = signed && standard;
				const body = JSON.parse(raw) as { event: string };
				received.push({ event: body.event, verified });
				console.log(
					`\n── webhook ${body.event} (SVC-Signature ${signed ? "verified" : "INVALID"}, Standard Webhooks ${standard ? "verified" : "INVALID"})\n${raw}`,
				);
				response.writeHead(verified ? 200 : 401).end();
			});
		});
	});
	server.listen(0, "127.0.0.1");
	await once(server, "listening");
	const address = server.address();
	if (address === null || typeof address === "string") throw new Error("receiver has no port");
	return {
		url: `http://127.0.0.1:${address.port}/webhooks`,
		received,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** Uploads a file through its upload URL and waits for its inspection; the file's id. */
async function upload(key: string, contentType: string, filename: string, bytes: Uint8Array): Promise<string> {
	const ticket = await call("POST", "/v1/print-files", key, { content_type: contentType, filename });
	show("POST /v1/print-files", ticket);
	const put = await fetch(String(ticket.upload_url), {
		method: "PUT",
		headers: ticket.upload_headers as Record<string, string>,
		body: bytes,
	});
	console.log(`\n── PUT upload_url (${bytes.byteLength} bytes): ${put.status}`);
	if (!put.ok) throw new Error(`upload failed: ${put.status} ${await put.text()}`);
	const file = await until("the file to be inspected", async () => {
		const current = await call("GET", `/v1/print-files/${String(ticket.id)}`, key);
		return current.status === "ready" || current.status === "invalid" ? current : null;
	});
	show(`GET /v1/print-files/${String(ticket.id)}`, file);
	if (file.status !== "ready") throw new Error(`${filename} was not accepted`);
	return String(ticket.id);
}

/** A real uncompressed RGB TIFF (2400 × 3000 px: 300 DPI at 8 × 10 in). */
function uploadTiff(key: string): Promise<string> {
	return upload(key, "image/tiff", "harbour.tif", tiffWithIfdAtEnd(2400, 3000, 2400 * 3000 * 3));
}

/** Fetches the order's packing slip with the ops key, checks it is the partner's and saves it. */
async function checkPackingSlip(opsKey: string, orderId: string, brandName: string, giftMessage: string) {
	const response = await fetch(`${ORIGIN}/v1/ops/orders/${orderId}/packing-slip`, {
		headers: { Authorization: `Bearer ${opsKey}` },
	});
	const html = await response.text();
	if (!response.ok) throw new Error(`packing slip answered ${response.status}: ${html}`);
	const problems = [
		html.includes(brandName) ? null : "the brand name is missing",
		html.includes(giftMessage) ? null : "the gift message is missing",
		/framed-print|fulfillment api/i.test(html) ? "the service's name is on it" : null,
	].filter((problem) => problem !== null);
	if (problems.length > 0) throw new Error(`packing slip: ${problems.join("; ")}`);
	const saved = path.join(PROJECT_ROOT, ".wrangler", "demo-packing-slip.html");
	await mkdir(path.dirname(saved), { recursive: true });
	await writeFile(saved, html);
	console.log(
		`\n── GET /v1/ops/orders/{id}/packing-slip (ops key): ${html.length} characters of HTML with "${brandName}" and the gift message, no service name; saved to ${saved}`,
	);
	console.log(`   In the operator console: ${ORIGIN}/ops/orders/${orderId}`);
}

async function waitForStatus(key: string, orderId: string, status: string): Promise<Record<string, unknown>> {
	return until(`order ${orderId} to be ${status}`, async () => {
		const order = await call("GET", `/v1/orders/${orderId}`, key);
		return order.status === status ? order : null;
	});
}

const credentials = readSavedCredentials();
if (credentials?.service_team === undefined) throw new Error(`no ${CREDENTIALS_FILE}: run npm start first`);
const partner = await call("POST", "/v1/admin/accounts", credentials.service_team.admin_key, { name: "Demo Gallery" });
show("POST /v1/admin/accounts (admin key)", partner);
const keys = partner.keys as { live: { key: string }; test: { key: string } };
// Live and test webhooks are signed with separate secrets: each receiver verifies with its mode's only.
const secrets = partner.webhook_secrets as { live: string; test: string };
const receiver = await startReceiver(secrets.live);
const testReceiver = await startReceiver(secrets.test);
try {
	// The partner's brand: what the packing slip and the label's return address carry.
	const logo = await upload(keys.live.key, "image/png", "logo.png", drawBrandLogo());
	const brandName = "Demo Gallery Editions";
	show(
		"PUT /v1/branding",
		await call("PUT", "/v1/branding", keys.live.key, {
			brand_name: brandName,
			return_address: { ...SHIP_TO, name: "Demo Gallery Returns", address1: "1 Gallery Row" },
			support_email: "help@demo-gallery.example",
			support_url: "https://demo-gallery.example/help",
			packing_slip_message: "Thank you for supporting independent artists.",
			logo_print_file_id: logo,
		}),
	);

	// Live: the price book, then a quote of the piece with every shipping option, before the order.
	const liveFile = await uploadTiff(keys.live.key);
	const book = await call("GET", "/v1/price-book", keys.live.key);
	console.log(`\n── GET /v1/price-book: version ${String(book.version)}, ${String(book.currency)}`);
	const framedItem = {
		print_file_id: liveFile,
		width_in: 8,
		height_in: 10,
		frame: "walnut-flat-075",
		mat: "bright-white",
	};
	const quote = await call("POST", "/v1/quotes", keys.live.key, { ship_to: SHIP_TO, items: [framedItem] });
	show("POST /v1/quotes", quote);
	const quoted = quote.items as { unit_price: { total: number }; resolution: string | null }[];
	const options = quote.shipping_options as { method: string; cost: number }[];
	if (quoted[0]?.resolution !== "ok" || options.length === 0)
		throw new Error("the quote is not a priced, printable piece");
	console.log(
		`quoted: ${(quoted[0].unit_price.total / 100).toFixed(2)} USD the piece; shipping ${options.map((option) => `${option.method} ${(option.cost / 100).toFixed(2)}`).join(", ")}`,
	);

	// Live: the order against the quote, charged exactly what it said; an operator moves it through production.
	const giftMessage = "Happy birthday, Grace! Love, Ada";
	const order = await call("POST", "/v1/orders", keys.live.key, {
		external_id: `DEMO-${Date.now()}`,
		callback_url: receiver.url,
		ship_to: SHIP_TO,
		gift_message: giftMessage,
		items: [framedItem],
		quote_id: quote.id,
		shipping_method: "standard",
	});
	show("POST /v1/orders", order);
	const costs = order.costs as { total: number; quote_id: string | null } | null;
	const byMethod = (quote.totals as { by_method: Record<string, { total: number }> }).by_method;
	if (costs === null || costs.quote_id !== quote.id || costs.total !== byMethod.standard?.total) {
		throw new Error("the order is not charged what its quote said");
	}
	console.log(`charged: ${(costs.total / 100).toFixed(2)} USD, as quote ${String(quote.id)} said`);
	show("in production", await waitForStatus(keys.live.key, String(order.id), "in_production"));
	const ops = credentials.service_team.ops_key;
	await checkPackingSlip(ops, String(order.id), brandName, giftMessage);
	show(
		"POST /v1/ops/orders/{id}/ship (ops key)",
		await call("POST", `/v1/ops/orders/${String(order.id)}/ship`, ops, {
			carrier: "UPS",
			number: "1Z999AA10123456784",
			url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
		}),
	);
	show(
		"POST /v1/ops/orders/{id}/deliver (ops key)",
		await call("POST", `/v1/ops/orders/${String(order.id)}/deliver`, ops),
	);

	// Sandbox: the test key, no operator; each step on request.
	const testFile = await uploadTiff(keys.test.key);
	const sandboxOrder = await call("POST", "/v1/orders", keys.test.key, {
		external_id: `DEMO-SANDBOX-${Date.now()}`,
		callback_url: testReceiver.url,
		ship_to: SHIP_TO,
		items: [{ print_file_id: testFile, width_in: 8, height_in: 10 }],
	});
	show("POST /v1/orders (test key)", sandboxOrder);
	let current = await waitForStatus(keys.test.key, String(sandboxOrder.id), "in_production");
	while (current.status !== "delivered") {
		current = await call("POST", `/v1/sandbox/orders/${String(sandboxOrder.id)}/advance`, keys.test.key);
		show(`POST /v1/sandbox/orders/{id}/advance → ${String(current.status)}`, current);
	}

	// Every webhook of both orders arrives, each signed.
	const expected = ["order.in_production", "order.shipped", "order.delivered"];
	const received = () => [...receiver.received, ...testReceiver.received];
	await until("all webhooks", async () => (received().length >= expected.length * 2 ? true : null), 60);
	const unverified = received().filter((entry) => !entry.verified);
	const events = received().map((entry) => entry.event);
	console.log(`\nwebhooks received: ${events.join(", ")}`);
	if (unverified.length > 0) throw new Error(`${unverified.length} webhooks failed verification`);
	for (const event of expected) {
		if (events.filter((name) => name === event).length < 2) throw new Error(`missing ${event} webhooks`);
	}
	console.log("\ndemo complete: both orders delivered, every webhook received and verified");
} finally {
	await Promise.all([receiver.close(), testReceiver.close()]);
}
