/**
 * A packing slip for an order made up to show a brand: the partner's brand page previews, with it, the
 * slip their buyers receive. The same component and logo rules as a real order's slip; only the order,
 * the buyer and the items are samples.
 */
import { type BrandProfileRow, returnAddressOf } from "../branding/store.ts";
import type { SlipContent } from "./packing-slip.tsx";
import { renderSlip } from "./slip-page.ts";

/** The made-up order: its number says it is a sample, and a buyer of no one in particular. */
const SAMPLE_ORDER: SlipContent["order"] = {
	external_id: "SAMPLE-1001",
	created_at: "2026-11-02T15:30:00.000Z",
	gift_message: null,
	ship_to_warnings: [],
};

const SAMPLE_BUYER: SlipContent["shipTo"] = {
	name: "Sample Buyer",
	address1: "350 Fifth Avenue",
	address2: "Suite 2100",
	city: "New York",
	state: "NY",
	zip: "10118",
	country: "US",
};

const SAMPLE_ITEMS: SlipContent["items"] = [
	{
		position: 0,
		widthIn: 16,
		heightIn: 20,
		frame: { slug: "walnut-flat-075", name: "Walnut Flat 3/4 in" },
		mat: { slug: "bright-white", name: "Bright White" },
		quantity: 1,
	},
	{ position: 1, widthIn: 8, heightIn: 10, frame: null, mat: null, quantity: 2 },
];

/**
 * The sample slip of `accountId` with `brand` (that account's profile of one mode; null: the neutral
 * slip) as a complete HTML document, with `screenNotice` above it on screen only.
 */
export function renderSampleSlip(
	env: Env,
	accountId: string,
	brand: BrandProfileRow | null,
	screenNotice: string,
): Promise<string> {
	const content: SlipContent = {
		order: SAMPLE_ORDER,
		brand,
		shipTo: SAMPLE_BUYER,
		returnAddress: brand === null ? null : returnAddressOf(brand),
		items: SAMPLE_ITEMS,
	};
	return renderSlip(env, accountId, content, null, screenNotice);
}
