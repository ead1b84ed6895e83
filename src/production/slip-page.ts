import { logoDataUrl } from "../branding/logo.ts";
import type { OrderSheet } from "./order-sheet.ts";
import { PackingSlip, type PaperSize, type SlipContent } from "./packing-slip.tsx";

/**
 * Headers of every page the floor prints or works from: nothing runs, nothing loads from elsewhere
 * (the logo is inline), no page may frame it, and nothing about a partner's order is cached.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
	"Content-Security-Policy":
		"default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
	"X-Frame-Options": "DENY",
	"X-Content-Type-Options": "nosniff",
	"Referrer-Policy": "no-referrer",
	"Cache-Control": "no-store",
};

/**
 * The policy of a console page that shows images the console serves itself (an item's thumbnail and
 * preview, a claim's photos): the floor's policy with this origin's images allowed.
 */
export const OWN_IMAGES_POLICY = (PAGE_SECURITY_HEADERS["Content-Security-Policy"] ?? "default-src 'none'").replace(
	/img-src [^;]*/,
	"img-src 'self' data:",
);

/** The packing slip of an order's sheet as a complete HTML document. */
export function renderPackingSlip(env: Env, sheet: OrderSheet, paper: PaperSize | null): Promise<string> {
	return renderSlip(env, sheet.order.account_id, sheet, paper);
}

/**
 * A slip of `accountId` as a complete HTML document. The brand profile is that account's, and so is the
 * logo: looked up by that account only.
 */
export async function renderSlip(
	env: Env,
	accountId: string,
	content: SlipContent,
	paper: PaperSize | null,
	screenNotice?: string,
): Promise<string> {
	const logoId = content.brand?.logo_print_file_id ?? null;
	const logo = logoId === null ? null : await logoDataUrl(env, accountId, logoId);
	const page = await PackingSlip({ sheet: content, logoDataUrl: logo, paper, screenNotice }).toString();
	return `<!doctype html>${page}`;
}
