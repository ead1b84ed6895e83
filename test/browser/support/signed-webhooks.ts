/**
 * A partner's webhook receiver on loopback that keeps every delivery as sent (raw body and
 * `SVC-Signature` header), so a test can verify the signature as a partner would.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import { verifySignature } from "../../../src/webhooks/signature.ts";
import { until } from "./partner-api.ts";

export type Delivery = {
	rawBody: string;
	signature: string;
	event: { id: string; event: string; order_id: string; [field: string]: unknown };
};

export type SignedWebhookReceiver = {
	url: string;
	deliveries: Delivery[];
	/** The first delivery of `event` for the order, once it has arrived. */
	waitFor(event: string, orderId: string, timeoutMs?: number): Promise<Delivery>;
	close(): Promise<void>;
};

/**
 * Starts the receiver on a free loopback port; it answers 200 to every delivery, or with `failFirst`,
 * 500 to that many first deliveries (a receiver that was down), then 200.
 */
export async function startSignedWebhookReceiver(options: { failFirst?: number } = {}): Promise<SignedWebhookReceiver> {
	const deliveries: Delivery[] = [];
	let failuresLeft = options.failFirst ?? 0;
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => {
			const rawBody = Buffer.concat(chunks).toString("utf8");
			try {
				deliveries.push({
					rawBody,
					signature: String(request.headers["svc-signature"] ?? ""),
					event: JSON.parse(rawBody) as Delivery["event"],
				});
			} catch {
				// Not an event: answered all the same, and the test then times out on what it waits for.
			}
			if (failuresLeft > 0) {
				failuresLeft -= 1;
				response.writeHead(500, { "Content-Type": "text/plain" }).end("receiver down for maintenance");
				return;
			}
			response.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
		});
	});
	server.listen(0, "127.0.0.1");
	await once(server, "listening");
	const address = server.address();
	if (address === null || typeof address === "string") throw new Error("the receiver has no port");
	return {
		url: `http://127.0.0.1:${address.port}/webhooks`,
		deliveries,
		waitFor: (event, orderId, timeoutMs = 60_000) =>
			until(
				`${event} for ${orderId}`,
				async () =>
					deliveries.find((delivery) => delivery.event.event === event && delivery.event.order_id === orderId) ?? null,
				timeoutMs,
			),
		close: () => {
			// Webhook deliveries use keep-alive; without this, close would wait for the idle sockets to time out.
			server.closeAllConnections();
			return new Promise((resolve) => server.close(() => resolve()));
		},
	};
}

/** Whether the delivery is signed with the partner's webhook secret (5 minutes' tolerance, as docs/webhooks.md advises). */
export function isSignedWith(delivery: Delivery, secret: string): Promise<boolean> {
	return verifySignature(delivery.rawBody, delivery.signature, [secret], { toleranceSeconds: 300 });
}
