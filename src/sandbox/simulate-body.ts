/**
 * What a partner asks the sandbox to make happen to a test order or claim: one action per request,
 * each what the floor, a carrier or the service team would do to a live one.
 */
import { z } from "@hono/zod-openapi";
import { ApproveClaimBody, RejectClaimBody } from "../claims/decision-bodies.ts";
import { HOLD_REASONS } from "../error-catalog.ts";
import { singleLineText } from "../text-rules.ts";

const ItemUnits = z.strictObject({
	item_id: z.string().min(1).max(100).openapi({ example: "itm_5Tg8" }),
	quantity: z.number().int().min(1).max(1000).openapi({ example: 1 }),
});

const ShipmentId = z.string().min(1).max(100).openapi({ example: "shp_8Hd2kQ" });

/** The body of `POST /v1/sandbox/orders/{id}/simulate`. */
export const SimulateOrderBody = z
	.discriminatedUnion("action", [
		z
			.strictObject({ action: z.literal("validate") })
			.openapi({ description: "Validate an order the sandbox left `received` (progress `manual`)." }),
		z
			.strictObject({
				action: z.literal("hold"),
				reason: z.enum(HOLD_REASONS).openapi({ example: "file_resolution_too_low" }),
				item_id: z
					.string()
					.min(1)
					.max(100)
					.optional()
					.openapi({ description: "The item the hold names; the order's first when left out." }),
				message: singleLineText(1000)
					.optional()
					.openapi({ description: "For `operator_hold`: the floor's words to the partner." }),
			})
			.openapi({
				description:
					"Hold the order. Validation's reasons hold a `received` or `validating` order (as validation would); `operator_hold` and `file_unreadable` (the file changed after its check) hold one `in_production`, as the floor would.",
			}),
		z.strictObject({ action: z.literal("release") }).openapi({ description: "The floor releases a hold." }),
		z.strictObject({ action: z.literal("start") }).openapi({
			description:
				"The floor starts making the order: from then on the partner can no longer change or cancel it (`production_started_at`).",
		}),
		z
			.strictObject({
				action: z.literal("ship"),
				boxes: z
					.array(z.strictObject({ items: z.array(ItemUnits).min(1).max(100).optional() }))
					.min(1)
					.max(20)
					.optional()
					.openapi({
						description:
							"One shipment per box, each with its own sandbox tracking, recorded in order; a box without `items` carries every unit that remains. Left out: one box with every unit.",
						example: [{ items: [{ item_id: "itm_5Tg8", quantity: 1 }] }, {}],
					}),
			})
			.openapi({ description: "The floor ships the order's units, in one box or several." }),
		z
			.strictObject({
				action: z.literal("deliver"),
				shipment_id: ShipmentId.optional().openapi({ description: "The box delivered; left out: the whole order." }),
			})
			.openapi({ description: "The carrier delivers one box, or the order." }),
		z
			.strictObject({
				action: z.literal("return"),
				shipment_id: ShipmentId.optional().openapi({
					description: "The box returned to the sender; may be left out when one box is in transit.",
				}),
			})
			.openapi({ description: "The carrier returns a box to the sender." }),
		z
			.strictObject({
				action: z.literal("cancel"),
				reason: singleLineText(1000).optional().openapi({ example: "The buyer asked to cancel by phone." }),
			})
			.openapi({ description: "The floor cancels the order before it ships." }),
	])
	.openapi("SandboxOrderSimulation", {
		example: { action: "hold", reason: "operator_hold", message: "Banding in the sky: please upload a new export." },
	});

/** One action of the order simulation. */
export type OrderSimulation = z.infer<typeof SimulateOrderBody>;

/** The body of `POST /v1/sandbox/claims/{id}/simulate`: the service team's decision, as its own routes take it. */
export const SimulateClaimBody = z
	.discriminatedUnion("action", [
		z.strictObject({ action: z.literal("approve"), ...ApproveClaimBody.shape }),
		z.strictObject({ action: z.literal("reject"), ...RejectClaimBody.shape }),
	])
	.openapi("SandboxClaimSimulation", {
		example: { action: "approve", remedy: "refund", message: "Sorry: a refund is on its way." },
	});
