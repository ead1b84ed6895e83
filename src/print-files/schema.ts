import { z } from "@hono/zod-openapi";
import { dateTime } from "../http/date-time.ts";
import { IMAGE_FORMATS } from "../imaging/formats.ts";
import { BIDI_CONTROLS_REFUSED, NO_BIDI_CONTROLS } from "../text-rules.ts";
import { MAX_PRINT_FILE_BYTES } from "./inspection.ts";
import { INVALID_REASONS } from "./invalid-reasons.ts";
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
