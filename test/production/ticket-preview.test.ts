import { describe, expect, it } from "vitest";
import { bytesOfBase64 } from "../../src/base64.ts";
import { TICKET_PREVIEW_PX } from "../../src/production/ticket-preview.ts";
import { textOf } from "../console/console-helpers.ts";
import { api, createKeyWithScopes } from "../helpers.ts";
import { orderWithThumbnail } from "../thumbnails/thumbnail-helpers.ts";

/** The order's work ticket as the ops API serves it. */
async function ticketOf(orderId: string): Promise<string> {
	const response = await api(`/v1/ops/orders/${orderId}/work-ticket`, { key: await createKeyWithScopes(["ops"]) });
	expect(response.status).toBe(200);
	return response.text();
}

/** The ticket's preview `<img>` tag, or "" without one. */
function previewTag(html: string): string {
	return /<div class="preview"[^>]*><img [^>]*>/.exec(html)?.[0] ?? "";
}

describe("the work ticket's framed preview", () => {
	it("prints the item's framed preview inline beside the drawing: the very PNG the preview route draws, with its width and height", async () => {
		const { key, orderId, itemId } = await orderWithThumbnail("ready");
		const html = await ticketOf(orderId);
		const tag = previewTag(html);
		const base64 = /src="data:image\/png;base64,([A-Za-z0-9+/=]+)"/.exec(tag)?.[1] ?? "";
		const inline = bytesOfBase64(base64);
		const drawn = await api(`/v1/orders/${orderId}/items/${itemId}/preview?width_px=${TICKET_PREVIEW_PX}`, { key });
		expect(inline).toEqual(new Uint8Array(await drawn.arrayBuffer()));
		expect(tag).toContain(`width="${TICKET_PREVIEW_PX}"`);
		expect(tag).toMatch(/height="\d+"/);
		expect(tag).toContain('alt="Framed preview of Item 1 of 1 · 8 × 10 in: the finished piece');
		// Beside the drawing, in the same column.
		expect(html.indexOf('class="preview"')).toBeGreaterThan(html.indexOf('class="legend"'));
		expect(html.indexOf('class="preview"')).toBeLessThan(html.indexOf("<h2>Cut list</h2>"));
		expect(textOf(html)).not.toContain("Grey placeholder");
	});

	it("says in words that the thumbnail is being made, and prints no image, while it is pending", async () => {
		const { orderId } = await orderWithThumbnail("pending");
		const html = await ticketOf(orderId);
		expect(previewTag(html)).toBe("");
		expect(textOf(html)).toContain("The file's thumbnail is being made, so this ticket has no preview yet");
	});

	it("prints the frame with a grey placeholder and the reason in words when the file will have no thumbnail", async () => {
		const { orderId } = await orderWithThumbnail("unavailable");
		const html = await ticketOf(orderId);
		expect(previewTag(html)).toContain("data:image/png;base64,");
		expect(textOf(html)).toContain("Grey placeholder: no thumbnail (the file's image data is damaged).");
	});
});
