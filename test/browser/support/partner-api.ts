/** What a partner and the service team do over the HTTP API before the browser takes over. */
import UPNG from "upng-js";
import { drawBrandLogo } from "../../../scripts/lib/brand-logo.ts";
import { liftLimits } from "../../../scripts/lib/scenario.ts";
import type { NewAccount } from "../../../src/admin/provisioning.ts";
import type { LocalService } from "./local-service.ts";

export type Tracking = { carrier: string; number: string; url: string };

/** The fields of an order the browser tests read. */
export type Order = {
	id: string;
	external_id: string;
	status: string;
	gift_message: string | null;
	tracking: Tracking | null;
	items: { id: string }[];
};

export type ShipTo = {
	name: string;
	address1: string;
	address2?: string;
	city: string;
	state?: string;
	zip: string;
	country: string;
};

/** Calls the API with a key; throws with the status and body unless the answer is 2xx. */
export async function callApi<T>(
	origin: string,
	key: string,
	method: string,
	route: string,
	body?: unknown,
): Promise<T> {
	const response = await fetch(`${origin}${route}`, {
		method,
		headers: {
			Authorization: `Bearer ${key}`,
			...(body === undefined ? {} : { "Content-Type": "application/json" }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
	return JSON.parse(text) as T;
}

/** Polls `probe` every 250 ms until it returns something other than null. */
export async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const found = await probe();
		if (found !== null) return found;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** A partner account made with the admin key, its limits lifted so the tests' polling is never refused. */
export async function createPartner(service: LocalService, name: string): Promise<NewAccount> {
	const partner = await callApi<NewAccount>(service.origin, service.adminKey, "POST", "/v1/admin/accounts", { name });
	await liftLimits(service.origin, service.adminKey, partner.account.id);
	return partner;
}

/** An `ops` key on the service team's account, issued through the admin route. */
export async function issueOpsKey(service: LocalService): Promise<string> {
	const issued = await callApi<{ key: string }>(
		service.origin,
		service.adminKey,
		"POST",
		`/v1/admin/accounts/${service.teamAccountId}/keys`,
		{ mode: "live", scopes: ["ops"] },
	);
	await liftLimits(service.origin, service.adminKey, service.teamAccountId);
	return issued.key;
}

/** Uploads a PNG through its upload URL and returns the print file's id once it is inspected and ready. */
export async function uploadPng(origin: string, key: string, png: Uint8Array, filename: string): Promise<string> {
	const ticket = await callApi<{ id: string; upload_url: string; upload_headers: Record<string, string> }>(
		origin,
		key,
		"POST",
		"/v1/print-files",
		{ content_type: "image/png", filename, size_bytes: png.byteLength },
	);
	const stored = await fetch(ticket.upload_url, { method: "PUT", headers: ticket.upload_headers, body: png });
	if (!stored.ok) throw new Error(`upload of ${filename} answered ${stored.status}: ${await stored.text()}`);
	const file = await callApi<{ status: string; invalid_reason?: string | null }>(
		origin,
		key,
		"GET",
		`/v1/print-files/${ticket.id}`,
	);
	if (file.status !== "ready") throw new Error(`${filename} is ${file.status}: ${file.invalid_reason ?? ""}`);
	return ticket.id;
}

/** A real RGB PNG of the given size: a smooth two-colour gradient, as a scanned print might be. */
export function gradientPng(width: number, height: number): Uint8Array {
	const rgba = new Uint8Array(width * height * 4);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			rgba.set([40 + (x * 180) / width, 70 + (y * 150) / height, 150, 255], (y * width + x) * 4);
		}
	}
	return new Uint8Array(UPNG.encode([rgba.buffer], width, height, 0));
}

/** The brand the partner's slips carry in these tests. */
export const BRAND = {
	brand_name: "Lumen & Oak Editions",
	support_email: "help@lumen-oak.example",
	support_url: "https://lumen-oak.example/help",
	packing_slip_message: "Thank you for supporting independent artists.",
	return_address: {
		name: "Lumen & Oak Editions",
		address1: "88 Wharf Road",
		city: "Portland",
		state: "ME",
		zip: "04101",
		country: "US",
	},
} as const;

/** Any spelling of the service's own name ("Framed-Print Fulfillment API", "FramedPrint"): slips show none. */
export const SERVICE_NAME = /framed[- ]?print|fulfil+ment api/i;

/** The logo's accent colour: the slip's screenshot must show it, proving the logo was drawn. */
export const LOGO_ACCENT: [number, number, number] = [196, 84, 44];
export const LOGO_SIZE = { width: 600, height: 200 } as const;

/**
 * A partner with a brand profile (a real 600 × 200 PNG logo included) and a ready 2400 × 3000 px
 * print file (300 DPI at 8 × 10 in), as a partner sets itself up before sending orders.
 */
export async function setUpBrandedPartner(
	service: LocalService,
	accountName: string,
): Promise<{ partner: NewAccount; printFileId: string }> {
	const partner = await createPartner(service, accountName);
	const key = partner.keys.live.key;
	const logoId = await uploadPng(
		service.origin,
		key,
		drawBrandLogo(LOGO_SIZE.width, LOGO_SIZE.height, LOGO_ACCENT),
		"lumen-oak-logo.png",
	);
	await callApi(service.origin, key, "PUT", "/v1/branding", { ...BRAND, logo_print_file_id: logoId });
	return { partner, printFileId: await uploadPrintFile(service.origin, key) };
}

let printPng: Uint8Array | undefined;

/** Uploads a 2400 × 3000 px PNG (300 DPI at 8 × 10 in) and returns its id once ready; the PNG is drawn once per file. */
export function uploadPrintFile(origin: string, key: string): Promise<string> {
	printPng ??= gradientPng(2400, 3000);
	return uploadPng(origin, key, printPng, "harbour-at-dusk.png");
}

export type OrderItem = { widthIn: number; heightIn: number; frame: string; mat?: string; quantity?: number };

/** Creates a live order; every item prints the same file. */
export function createOrder(
	origin: string,
	key: string,
	order: {
		externalId: string;
		printFileId: string;
		shipTo: ShipTo;
		items: readonly OrderItem[];
		giftMessage?: string;
		callbackUrl?: string;
	},
): Promise<Order> {
	return callApi<Order>(origin, key, "POST", "/v1/orders", {
		external_id: order.externalId,
		ship_to: order.shipTo,
		items: order.items.map((item) => ({
			print_file_id: order.printFileId,
			width_in: item.widthIn,
			height_in: item.heightIn,
			frame: item.frame,
			...(item.mat === undefined ? {} : { mat: item.mat }),
			...(item.quantity === undefined ? {} : { quantity: item.quantity }),
		})),
		...(order.giftMessage === undefined ? {} : { gift_message: order.giftMessage }),
		...(order.callbackUrl === undefined ? {} : { callback_url: order.callbackUrl }),
	});
}

/** Waits until the service has validated the order into `status` (the queue consumer runs it). */
export function waitForOrderStatus(origin: string, key: string, orderId: string, status: string): Promise<Order> {
	return until(`order ${orderId} to be ${status}`, async () => {
		const order = await callApi<Order>(origin, key, "GET", `/v1/orders/${orderId}`);
		return order.status === status ? order : null;
	});
}
