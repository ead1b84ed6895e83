/** A webhook receiver on loopback for the benchmark: answers 200 and notes when each event arrived. */

import { once } from "node:events";
import { createServer, type Server } from "node:http";

/** One event as it reached the receiver. */
export type Arrival = { arrivedAt: number; createdAt: number; orderId: string; event: string };

export type WebhookReceiver = {
	url: string;
	/** Arrival time (ms since epoch), the event's `created_at`, its order and its type, by event id. */
	arrivals: Map<string, Arrival>;
	close(): Promise<void>;
};

/**
 * Starts the receiver on a free loopback port. A `hang` receiver reads each request and never
 * answers (a tenant's dead endpoint); its arrivals are still noted, and `close` drops the sockets.
 */
export async function startWebhookReceiver(options: { hang?: boolean } = {}): Promise<WebhookReceiver> {
	const arrivals = new Map<string, Arrival>();
	const server: Server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => {
			const arrivedAt = Date.now();
			try {
				const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
					id: string;
					created_at: string;
					order_id: string;
					event: string;
				};
				if (!arrivals.has(body.id)) {
					arrivals.set(body.id, {
						arrivedAt,
						createdAt: Date.parse(body.created_at),
						orderId: body.order_id,
						event: body.event,
					});
				}
			} catch {
				// Not an event: ignored, still answered.
			}
			if (options.hang === true) return;
			response.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
		});
	});
	server.listen(0, "127.0.0.1");
	await once(server, "listening");
	const address = server.address();
	if (address === null || typeof address === "string") throw new Error("receiver has no port");
	return {
		url: `http://127.0.0.1:${address.port}/hooks`,
		arrivals,
		close: () =>
			new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
