import { z } from "@hono/zod-openapi";
import { FramingFields, refineFraming } from "../framing/spec.ts";
import { PREVIEW_WIDTH } from "./render.ts";

const inches = z
	.number()
	.positive("must be greater than 0")
	.max(1000, "must be at most 1000 inches")
	.openapi({ description: "Inches: a whole number within the catalog's sizes.", example: 16 });

const widthPx = z
	.number()
	.int("must be a whole number of pixels")
	.min(PREVIEW_WIDTH.min, `must be at least ${PREVIEW_WIDTH.min} px`)
	.max(PREVIEW_WIDTH.max, `must be at most ${PREVIEW_WIDTH.max} px`);

const WIDTH_DESCRIPTION = `The PNG's width in pixels, ${PREVIEW_WIDTH.min} to ${PREVIEW_WIDTH.max}; default ${PREVIEW_WIDTH.default}. The piece's outside width maps to it (a piece over 1.5 times as tall as wide may be drawn narrower, at most 3000 px tall).`;

/** `POST /v1/previews`: a piece not yet ordered, as an order's item spells it, and the width to draw it. */
export const PreviewBody = z
	.strictObject({
		print_file_id: z.string().min(1).max(64, "must be at most 64 characters").openapi({
			description: "A print file of this account and mode; its thumbnail is the image drawn.",
			example: "pf_7cQm2x",
		}),
		width_in: inches,
		height_in: inches.openapi({ example: 20 }),
		...FramingFields,
		width_px: widthPx.optional().openapi({ description: WIDTH_DESCRIPTION, example: 1200 }),
	})
	.superRefine(refineFraming)
	.openapi("PreviewRequest");

/** `?width_px=` of an item's preview. */
export const PreviewQuery = z.object({
	width_px: z.coerce
		.number()
		.pipe(widthPx)
		.optional()
		.openapi({ param: { name: "width_px", in: "query" }, description: WIDTH_DESCRIPTION, example: 1200 }),
});

/** The order and item of `GET /v1/orders/{id}/items/{item_id}/preview`. */
export const ItemPreviewParams = z.object({
	id: z.string().openapi({ param: { name: "id", in: "path" }, example: "ord_3xYq9" }),
	item_id: z.string().openapi({ param: { name: "item_id", in: "path" }, example: "itm_8fd2" }),
});

/** How a preview's PNG is declared. */
export const previewPngResponse = {
	description:
		"The framed preview: an 8-bit RGB PNG of the finished piece drawn to scale, its outside width `width_px` pixels.",
	content: { "image/png": { schema: z.string().openapi({ format: "binary" }) } },
	headers: z.object({
		ETag: z.string().openapi({ example: '"3f1c9a0b7e5d4c2a8b6f0e1d2c3b4a59"' }),
		"Cache-Control": z.string().openapi({ example: "private, max-age=300" }),
		"X-Preview-Image": z.enum(["thumbnail", "placeholder"]).openapi({
			description:
				"`thumbnail`: the opening shows the print file's image; `placeholder`: the file has no thumbnail (X-Preview-Placeholder-Reason says why) and the opening is a neutral grey.",
			example: "thumbnail",
		}),
		"X-Preview-Placeholder-Reason": z
			.string()
			.optional()
			.openapi({ description: "With a placeholder: the thumbnail's `reason`.", example: "unsupported_variant" }),
	}),
};
