import { z } from "@hono/zod-openapi";
import { dateTime } from "../http/date-time.ts";
import { IMAGE_FORMATS } from "../imaging/formats.ts";
import { BIDI_CONTROLS_REFUSED, NO_BIDI_CONTROLS } from "../text-rules.ts";
import { ColourFactsSchema } from "./colour-facts-read.ts";
import { ContentStatsSchema } from "./content-stats-read.ts";
import { MAX_PRINT_FILE_BYTES } from "./inspection.ts";
import { INVALID_REASONS } from "./invalid-reasons.ts";
import { ASKED_SIZE_PATTERN, MAX_ASKED_SIZES, PREFLIGHT_REFUSALS, PREFLIGHT_VERDICTS } from "./preflight.ts";
import { PRINT_WARNINGS } from "./print-warnings.ts";
import { PRINT_FILE_READ_STATUSES } from "./store.ts";
import { THUMBNAIL_STATUSES, THUMBNAIL_UNAVAILABLE_REASONS } from "./thumbnail-store.ts";

/** Declared types accepted; the real format is read from the file's magic bytes. */
export const PRINT_FILE_CONTENT_TYPES = ["image/tiff", "image/png", "image/jpeg"] as const;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse control characters.
const PLAIN_FILENAME = /^[^\u0000-\u001f\u007f/\\]+$/;

export const CreatePrintFileBody = z
	.strictObject({
		filename: z
			.string()
			.min(1)
			.max(255)
			.regex(PLAIN_FILENAME, "must be a plain file name, without slashes or control characters")
			// A name shown to people: "invoice<U+202E>gnp.exe" must not pass for "invoiceexe.png".
			.regex(NO_BIDI_CONTROLS, BIDI_CONTROLS_REFUSED)
			.optional()
			.openapi({ example: "harbour-at-dusk.tif" }),
		content_type: z
			.enum(PRINT_FILE_CONTENT_TYPES)
			.openapi({ description: "TIFF is preferred for framed art.", example: "image/tiff" }),
		size_bytes: z
			.number()
			.int()
			.min(1)
			.max(MAX_PRINT_FILE_BYTES, "must be at most 536870912 (512 MiB)")
			.optional()
			.openapi({
				description: "The file's exact size. When given, an upload of another size is refused.",
				example: 86_402_048,
			}),
	})
	.openapi("CreatePrintFileRequest");

export const PrintFileIdParams = z.object({
	id: z.string().openapi({ param: { name: "id", in: "path" }, example: "pf_7cQm2x" }),
});

export const UploadTargetSchema = z
	.object({
		id: z.string().openapi({ example: "pf_7cQm2x" }),
		status: z.literal("awaiting_upload"),
		upload_url: z.string().openapi({
			description: "Send the file here with HTTP PUT before `expires_at`.",
			example: "https://api.example.com/v1/uploads/pf_7cQm2x?expires=1795345200&signature=6f1c0e5a9b",
		}),
		upload_method: z.literal("PUT"),
		upload_headers: z
			.record(z.string(), z.string())
			.openapi({ description: "Headers the PUT must carry.", example: { "Content-Type": "image/tiff" } }),
		expires_at: dateTime(),
	})
	.openapi("PrintFileUpload");

export const ThumbnailSchema = z
	.object({
		status: z.enum(THUMBNAIL_STATUSES).openapi({
			description:
				"`pending` until the file is ready and its thumbnail made (seconds after the file becomes `ready`); `ready`: `GET /v1/print-files/{id}/thumbnail` serves it; `unavailable`: there will be none, `reason` says why.",
			example: "ready",
		}),
		width_px: z
			.number()
			.int()
			.nullable()
			.openapi({ description: "Once `ready`; the longest side is at most 1024.", example: 819 }),
		height_px: z.number().int().nullable().openapi({ example: 1024 }),
		reason: z.enum(THUMBNAIL_UNAVAILABLE_REASONS).nullable().openapi({
			description:
				"Why an `unavailable` thumbnail will not be made: a variant the decoder does not read, a corrupt or truncated file, too many pixels, `failed` (kept failing), `file_changed` (the stored bytes are not the inspected ones) or `file_invalid`. Never holds an order.",
			example: null,
		}),
	})
	.openapi("PrintFileThumbnail", {
		description: "A PNG of the file, longest side 1024 px, made after inspection; never affects the file's status.",
	});

export type PrintFileThumbnail = z.infer<typeof ThumbnailSchema>;

export const PrintFileSchema = z
	.object({
		id: z.string().openapi({ example: "pf_7cQm2x" }),
		status: z.enum(PRINT_FILE_READ_STATUSES).openapi({
			description:
				"`awaiting_upload` → `processing` → `ready` or `invalid`; `expired` once the file passed its retention (its bytes deleted, `expired_at` says when): it can no longer be used on an order, a quote, an item's fix, a claim, a logo or a preview.",
			example: "ready",
		}),
		filename: z.string().nullable().openapi({ example: "harbour-at-dusk.tif" }),
		content_type: z.string().openapi({ description: "As declared at creation.", example: "image/tiff" }),
		format: z.enum(IMAGE_FORMATS).nullable().openapi({ description: "As read from the file itself." }),
		width_px: z.number().int().nullable().openapi({ example: 4800 }),
		height_px: z.number().int().nullable().openapi({ example: 6000 }),
		size_bytes: z.number().int().nullable().openapi({ example: 86_402_048 }),
		invalid_reason: z
			.enum(INVALID_REASONS)
			.nullable()
			.openapi({ description: "Why an `invalid` file was refused; `invalid_message` says it in a sentence." }),
		invalid_message: z.string().nullable().openapi({
			example: "The file is 1200 × 1500 px: 75 DPI at 16 × 20 in, below the 150 DPI minimum.",
		}),
		created_at: dateTime(),
		expires_at: dateTime().openapi({ description: "When the upload URL stops working." }),
		uploaded_at: dateTime().nullable(),
		expired_at: dateTime().nullable().openapi({
			description:
				"When the file passed its retention and its bytes were deleted; null while it is kept. Its thumbnail stays.",
			example: null,
		}),
		thumbnail: ThumbnailSchema,
	})
	.openapi("PrintFile");

export type PrintFile = z.infer<typeof PrintFileSchema>;

/** How a thumbnail's PNG is declared, for partners and the floor alike. */
export const thumbnailPngResponse = {
	description:
		"The thumbnail: an 8-bit RGB PNG, longest side at most 1024 px, the image's own orientation, transparency on white.",
	content: { "image/png": { schema: z.string().openapi({ format: "binary" }) } },
	headers: z.object({
		ETag: z.string().openapi({ example: '"9b2cf535f27731c974343645a3985328"' }),
		"Cache-Control": z.string().openapi({ example: "private, max-age=300" }),
	}),
};

const sidesSchema = (unit: string) =>
	z.object({ left: z.number(), right: z.number(), top: z.number(), bottom: z.number() }).openapi({ description: unit });

/** A 6000 × 4000 px image at 16 × 20 in, fill, with a mat: the figures' example, here and in a size's. */
const FIT_FIGURES_EXAMPLE = {
	turned: true,
	dpi: 250,
	crop: {
		px: { left: 500, right: 500, top: 0, bottom: 0 },
		percent: { left: 8.33, right: 8.33, top: 0, bottom: 0 },
	},
	bands_in: null,
	mat: {
		overlap_in: 0.125,
		px: { left: 31.3, right: 31.3, top: 31.3, bottom: 31.3 },
		percent: { left: 0.52, right: 0.52, top: 0.78, bottom: 0.78 },
		area_percent: 2.59,
		bands_hidden: null,
	},
};

const FitFiguresSchema = z
	.object({
		turned: z.boolean().openapi({
			description:
				"The image is turned a quarter (clockwise) so its long side runs along the print's long side: a landscape image on a portrait print, or the other way round. The framed preview draws it turned too.",
		}),
		dpi: z.number().openapi({ description: "Image pixels per inch of print.", example: 250 }),
		crop: z
			.object({
				px: sidesSchema("Image pixels cut from each of the image's sides (centred: left = right, top = bottom)."),
				percent: sidesSchema(
					"Each side's cut as a percentage of the image's width (left, right) or height (top, bottom).",
				),
			})
			.nullable()
			.openapi({ description: "With fill: what the print's edges cut off the image; null with fit." }),
		bands_in: sidesSchema("With fit: the white band on each side of the print as it hangs, in inches.")
			.nullable()
			.openapi({
				description: "With fit: the white band on each side of the print as it hangs, in inches; null with fill.",
			}),
		mat: z
			.object({
				overlap_in: z
					.number()
					.openapi({ description: "How far the mat lies over each side of the print.", example: 0.125 }),
				px: sidesSchema("Image pixels the mat hides on each of the image's sides."),
				percent: sidesSchema("Each side's hidden pixels as a percentage of the image's width or height."),
				area_percent: z.number().openapi({ description: "The share of the image's area the mat hides, in percent." }),
				bands_hidden: z
					.boolean()
					.nullable()
					.openapi({ description: "With fit: whether every white band lies wholly under the mat; null with fill." }),
			})
			.nullable()
			.openapi({ description: "With a mat: what its 1/8 in overlap hides of the image; null without." }),
	})
	.openapi("FitFigures", {
		example: FIT_FIGURES_EXAMPLE,
		description:
			"How the image meets the print: fill's crop per side, fit's white bands, what a mat hides. Pixels to 0.1, inches to 0.001, percentages to 0.01.",
	});

const LargestSizeSchema = z
	.object({
		long_in: z.number().openapi({ description: "The image's long side at this DPI, in inches.", example: 20 }),
		short_in: z.number().openapi({ example: 16 }),
		catalog_size: z
			.object({ long_in: z.number().int(), short_in: z.number().int() })
			.nullable()
			.openapi({
				description:
					"The largest whole-inch size the catalog offers within it (long side by short side, either orientation); null when even the smallest is too large.",
				example: { long_in: 20, short_in: 16 },
			}),
	})
	.nullable()
	.openapi("PreflightLargestSize", {
		example: { long_in: 20, short_in: 13.33, catalog_size: { long_in: 20, short_in: 13 } },
		description:
			"The largest print at a resolution: 300 DPI (the aim) in `largest_size_at_300_dpi`, 150 DPI (the least accepted) in `largest_size_at_150_dpi`; null while the pixels are unknown.",
	});

const SizeVerdictSchema = z
	.object({
		width_in: z.number().int().openapi({ example: 16 }),
		height_in: z.number().int().openapi({ example: 20 }),
		fit: z.enum(["fill", "fit"]),
		mat: z.boolean().openapi({ description: "Whether a mat lies over the print (its 1/8 in overlap)." }),
		verdict: z.enum(PREFLIGHT_VERDICTS).openapi({
			description:
				"`good`: 300 DPI or more and nothing to say. `acceptable`: 150 to 299 DPI, nothing else. `poor`: accepted, but a warning that changes the print (a crop past 2%, white bands, CMYK, untagged colour, a content flag). `refused`: an order would refuse it (under 150 DPI, a size not offered, a file not uploaded, invalid or expired).",
			example: "good",
		}),
		effective_dpi: z.number().nullable().openapi({ example: 300 }),
		figures: FitFiguresSchema.nullable(),
		reasons: z.array(
			z.object({
				code: z.enum([...PREFLIGHT_REFUSALS, ...PRINT_WARNINGS]),
				message: z.string().openapi({ description: "What it means (a warning's words from the error catalog)." }),
				action: z.string().openapi({ description: "What to do, from the error catalog." }),
			}),
		),
	})
	.openapi("PreflightSize", {
		example: {
			width_in: 16,
			height_in: 20,
			fit: "fill",
			mat: true,
			verdict: "poor",
			effective_dpi: 250,
			figures: FIT_FIGURES_EXAMPLE,
			reasons: [
				{
					code: "low_resolution",
					message: "the file gives 150 to 299 DPI at the item's size (300 is the aim)",
					action: "if the print matters, send a larger file with `PATCH` while it is still on hold, or accept it",
				},
				{
					code: "image_cropped",
					message: 'with `fit: "fill"`, more than 2% of the image is cut off',
					action: 'send a file of the print\'s proportions, or use `fit: "fit"` to keep the whole image',
				},
			],
		},
	});

export const PreflightSchema = z
	.object({
		colour: ColourFactsSchema.nullable().openapi({
			description: "What the headers say of the file's colour; null until read (a file inspected before they were).",
		}),
		content: ContentStatsSchema.nullable().openapi({
			description: "What the pixels say, once the thumbnail is made; null until then.",
		}),
		// Plain references: a description beside a nullable component is an allOf Scalar's reader refuses.
		largest_size_at_300_dpi: LargestSizeSchema,
		largest_size_at_150_dpi: LargestSizeSchema,
		sizes: z.array(SizeVerdictSchema).openapi({
			description:
				"A verdict per size asked with `?size=`, or for the standard sizes within the catalog's range (in the image's orientation, fill, no mat) when none is asked.",
		}),
	})
	.openapi("Preflight", {
		description: "How the file will print: its colour and content facts, the largest sizes, and a verdict per size.",
	});

/** A print file as its own read answers it: the file and its preflight (a plain object, not an allOf over PrintFile). */
export const PrintFileWithPreflightSchema = z
	.object({ ...PrintFileSchema.shape, preflight: PreflightSchema })
	.openapi("PrintFileWithPreflight");

/** `?size=` of a print file's read: the sizes and framings to judge. */
export const PreflightQuery = z.object({
	size: z
		.preprocess(
			(value) => (typeof value === "string" ? [value] : value),
			z
				.array(
					z
						.string()
						.max(16)
						.regex(ASKED_SIZE_PATTERN, "must be WIDTHxHEIGHT in whole inches, then optionally ,fill or ,fit and ,mat"),
				)
				.max(MAX_ASKED_SIZES, `must be asked at most ${MAX_ASKED_SIZES} times`),
		)
		.optional()
		.openapi({
			param: { name: "size", in: "query", style: "form", explode: true },
			description:
				"A size to judge, repeated for more (at most 20): `16x20` (fill, no mat), `16x20,fit`, `16x20,fill,mat`, `16x20,fit,mat`. Width by height in whole inches. Without it, the standard sizes within the catalog's range.",
			example: ["16x20", "16x20,fit,mat"],
		}),
});
