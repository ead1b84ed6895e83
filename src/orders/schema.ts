import { z } from "@hono/zod-openapi";
import { ShipToSchema } from "../addresses/schema.ts";
import { DeclaredValueSchema, DutyTermsSchema, refineDeclaredCurrencies } from "../customs/schema.ts";
import { completeFraming, FramingFields, refineFraming, sentFraming } from "../framing/spec.ts";
import { SHIPPING_METHODS } from "../pricing/shipping.ts";
import {
	absoluteUrl,
	BIDI_CONTROLS_REFUSED,
	NO_BIDI_CONTROLS,
	NO_CONTROL_CHARACTERS,
	printedMessage,
} from "../text-rules.ts";
import { MetadataSchema } from "./metadata.ts";

/** The method an order that names none asks for (freight is forced where nothing else takes it). */
export const DEFAULT_SHIPPING_METHOD = "standard";
/** Most characters a gift message may have, counted as a reader would (code points, not UTF-16 units). */
export const GIFT_MESSAGE_MAX_CHARACTERS = 300;

/** `gift_message`: a message from the buyer, printed on the packing slip. */
function giftMessage() {
	return printedMessage(GIFT_MESSAGE_MAX_CHARACTERS)
		.optional()
		.openapi({
			description:
				"A message from the buyer, printed on the packing slip. At most 300 characters; " +
				"line breaks are kept. Part of the idempotency comparison like every other field.",
			example: "Happy birthday, Grace!",
			minLength: 1,
			maxLength: GIFT_MESSAGE_MAX_CHARACTERS,
		});
}

const inches = z
	.number()
	.positive("must be greater than 0")
	.max(1000, "must be at most 1000 inches")
	.openapi({ description: "Inches. Sizes outside the catalog's range put the order on hold.", example: 16 });

/** An order item as the document shows it: one uploaded file, 16 × 20 in, with every framing field's example. */
const ORDER_ITEM_EXAMPLE = {
	print_file_id: "pf_7cQm2x",
	width_in: 16,
	height_in: 20,
	frame: "walnut-flat-125",
	mat: "museum-rag-white-4ply",
	mat_border_in: 2.5,
	mat_bottom_border_in: 3,
	inner_mat: "black-core-black",
	inner_mat_reveal_in: 0.25,
	glazing: "museum-acrylic",
	paper: "cotton-rag",
	fit: "fill",
	quantity: 1,
};

export const OrderItemInputSchema = z
	.strictObject({
		print_file_id: z.string().min(1).max(64, "must be at most 64 characters").optional().openapi({
			description: "A print file uploaded beforehand. Exactly one of the two file fields.",
			example: "pf_7cQm2x",
		}),
		print_file_url: absoluteUrl().optional().openapi({
			description: "An https URL the service fetches the file from. Exactly one of the two file fields.",
			example: "https://lumen.example/prints/harbour-at-dusk.tif",
		}),
		width_in: inches,
		height_in: inches,
		...FramingFields,
		quantity: z
			.number()
			.int("must be a whole number")
			.min(1, "must be at least 1")
			.max(100, "must be at most 100")
			.default(1),
		declared_value: DeclaredValueSchema.optional(),
	})
	.superRefine((item, ctx) => {
		const hasId = item.print_file_id !== undefined;
		const hasUrl = item.print_file_url !== undefined;
		if (hasId && hasUrl) {
			ctx.addIssue({ code: "custom", path: [], message: "must have print_file_id or print_file_url, not both" });
		} else if (!hasId && !hasUrl) {
			ctx.addIssue({ code: "custom", path: [], message: "must have one of print_file_id or print_file_url" });
		}
		refineFraming(item, ctx);
	})
	// One file field, as the service takes it: the two fields' examples side by side would be refused.
	.openapi("OrderItemInput", { example: ORDER_ITEM_EXAMPLE });

export const CreateOrderBody = z
	.strictObject({
		// Taken exactly as sent, untrimmed: it is the partner's key for idempotency.
		external_id: z
			.string()
			.min(1, "must not be empty")
			.max(128, "must be at most 128 characters")
			.regex(NO_CONTROL_CHARACTERS, "must not contain control characters")
			// People compare it with their own records: it must read as what it is.
			.regex(NO_BIDI_CONTROLS, BIDI_CONTROLS_REFUSED)
			.openapi({
				description: "The partner's own order id; a repeat with the same content replays.",
				example: "PO-1001",
			}),
		ship_to: ShipToSchema,
		items: z.array(OrderItemInputSchema).min(1, "must hold at least 1 item").max(50, "must hold at most 50 items"),
		callback_url: absoluteUrl().optional().openapi({
			description: "An https URL that receives the order's webhooks.",
			example: "https://example.com/hooks",
		}),
		gift_message: giftMessage(),
		shipping_method: z.enum(SHIPPING_METHODS).optional().openapi({
			description:
				"budget (US only), standard, express or freight. Default: the quote's method when quote_id names a quote asked for with one; else standard, or freight when a package is too large for parcel services (then the only method). A method not offered for the items and destination is a 422.",
			example: "standard",
		}),
		quote_id: z.string().min(1).max(64, "must be at most 64 characters").optional().openapi({
			description:
				"A quote of this account and mode, not expired, for the same items and country: the order is charged exactly the quote, even under a newer price book.",
			example: "quo_4Zq8",
		}),
		metadata: MetadataSchema.optional(),
		duty_terms: DutyTermsSchema.optional().openapi({
			description:
				"For a delivery abroad: `ddp` (the service pays the border's charges and charges them with the order) or `dap` (the buyer is asked for them). Default: the account's (see GET /v1/account/billing).",
		}),
	})
	.superRefine(refineDeclaredCurrencies)
	.openapi("CreateOrderRequest");

export type CreateOrderInput = z.infer<typeof CreateOrderBody>;

/**
 * `PATCH /v1/orders/{id}/items/{item_id}`: what a partner may change on an item of an on-hold order.
 * At most one file field; a framing field set to null goes back to its default (`frame`, `mat` and
 * `inner_mat` null remove the part). The same field rules as at creation, on the item as changed.
 */
export const PatchItemBody = z
	.strictObject({
		print_file_id: z
			.string()
			.min(1)
			.max(64, "must be at most 64 characters")
			.optional()
			.openapi({ example: "pf_9Wd4Lm" }),
		print_file_url: absoluteUrl()
			.optional()
			.openapi({ example: "https://lumen.example/prints/harbour-at-dusk-300dpi.tif" }),
		width_in: inches.optional(),
		height_in: inches.optional(),
		frame: FramingFields.frame.unwrap().nullable().optional(),
		mat: FramingFields.mat.unwrap().nullable().optional(),
		mat_border_in: FramingFields.mat_border_in.unwrap().nullable().optional(),
		mat_bottom_border_in: FramingFields.mat_bottom_border_in.unwrap().nullable().optional(),
		inner_mat: FramingFields.inner_mat.unwrap().nullable().optional(),
		inner_mat_reveal_in: FramingFields.inner_mat_reveal_in.unwrap().nullable().optional(),
		glazing: FramingFields.glazing.unwrap().nullable().optional(),
		paper: FramingFields.paper.unwrap().nullable().optional(),
		fit: FramingFields.fit.unwrap().nullable().optional(),
	})
	// A typical fix of a hold: a sharper file in place of the one refused, framing left as it was.
	.openapi({ example: { print_file_id: "pf_9Wd4Lm" } })
	.superRefine((patch, ctx) => {
		if (patch.print_file_id !== undefined && patch.print_file_url !== undefined) {
			ctx.addIssue({ code: "custom", path: [], message: "must have print_file_id or print_file_url, not both" });
		}
		if (Object.values(patch).every((value) => value === undefined)) {
			ctx.addIssue({ code: "custom", path: [], message: "must change at least one of the item's fields" });
		}
	})
	.openapi("PatchItemRequest");

export type PatchItemInput = z.infer<typeof PatchItemBody>;

/** `value` with object keys sorted at every depth and undefined entries dropped; arrays keep their order. */
function withSortedKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withSortedKeys);
	if (typeof value !== "object" || value === null) return value;
	// Built from entries, not by assignment: a metadata key `__proto__` must stay a key like any other.
	return Object.fromEntries(
		Object.keys(value)
			.sort()
			.flatMap((key) => {
				const entry: unknown = Reflect.get(value, key);
				return entry === undefined ? [] : [[key, withSortedKeys(entry)]];
			}),
	);
}

/**
 * The canonical JSON of a parsed create request, compared on an idempotent repeat: parsing has applied
 * defaults and normalised values, so key order and an explicit `quantity: 1` make no difference. Each
 * item's framing is reduced to the fields that differ from their defaults, and `shipping_method` is left
 * out when it is `standard`, the default, as is an empty `metadata`: an order that spells out the
 * defaults is the same order, and one sent before these fields existed hashes as it did then.
 */
export function canonicalOrderRequest(input: CreateOrderInput): string {
	const items = input.items.map((item) => ({
		...item,
		frame: undefined,
		mat: undefined,
		mat_border_in: undefined,
		mat_bottom_border_in: undefined,
		inner_mat: undefined,
		inner_mat_reveal_in: undefined,
		glazing: undefined,
		paper: undefined,
		fit: undefined,
		...sentFraming(completeFraming(item)),
	}));
	const shippingMethod = input.shipping_method === DEFAULT_SHIPPING_METHOD ? undefined : input.shipping_method;
	// No metadata and `{}` are the same order, and hash as orders did before metadata existed.
	const metadata = Object.keys(input.metadata ?? {}).length === 0 ? undefined : input.metadata;
	return JSON.stringify(withSortedKeys({ ...input, items, shipping_method: shippingMethod, metadata }));
}
