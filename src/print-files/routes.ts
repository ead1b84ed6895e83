import { createRoute, z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { isolateCatalog } from "../catalog/cache.ts";
import { configOf } from "../config.ts";
import { databaseOf, findInEveryDatabase } from "../databases.ts";
import type { PublicEnv } from "../http/app-env.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses } from "../http/errors.ts";
import { newId } from "../ids.ts";
import { MAX_PRINT_FILE_BYTES, printFileNow } from "./inspection.ts";
import { askedSizeOf, preflightOf } from "./preflight.ts";
import {
	CreatePrintFileBody,
	PreflightQuery,
	type PrintFile,
	PrintFileIdParams,
	PrintFileSchema,
	PrintFileWithPreflightSchema,
	thumbnailPngResponse,
	UploadTargetSchema,
} from "./schema.ts";
import {
	findOwnedPrintFile,
	findPrintFileById,
	insertPrintFile,
	markUploaded,
	type PrintFileRow,
	printFileKey,
	readStatus,
} from "./store.ts";
import { servedThumbnail, thumbnailOf } from "./thumbnail-read.ts";
import { verifyUpload } from "./upload-signature.ts";
import { uploadUrlIssuer } from "./upload-url.ts";

/** The API shape of a stored file. */
export function toPrintFile(row: PrintFileRow): PrintFile {
	return {
		id: row.id,
		status: readStatus(row),
		filename: row.filename,
		content_type: row.content_type,
		format: row.format,
		width_px: row.width_px,
		height_px: row.height_px,
		size_bytes: row.size_bytes,
		invalid_reason: row.invalid_reason,
		invalid_message: row.invalid_message,
		created_at: row.created_at,
		expires_at: row.expires_at,
		uploaded_at: row.uploaded_at,
		expired_at: row.expired_at,
		thumbnail: thumbnailOf(row),
	};
}

function uploadUrlLifetimeMs(env: Env): number {
	return configOf(env).UPLOAD_URL_TTL_SECONDS * 1000;
}

const createPrintFile = protectedRoute("files:write", {
	method: "post",
	path: "/print-files",
	tags: ["Print files"],
	summary: "Obtain a signed upload URL for a print file",
	request: { body: { required: true, content: { "application/json": { schema: CreatePrintFileBody } } } },
	responses: {
		201: jsonResponse(UploadTargetSchema, "Upload the file with PUT to `upload_url`."),
		...errorResponses(400, 422),
	},
});

const getPrintFile = protectedRoute("files:write", {
	method: "get",
	path: "/print-files/{id}",
	tags: ["Print files"],
	summary: "Read a print file: its status, once inspected its format and pixel size, and its preflight",
	description:
		"`preflight` says how the file will print: its colour and content facts, the largest sizes at 300 and 150 DPI, and a verdict (`good`, `acceptable`, `poor`, `refused`) with reasons for each size asked with `?size=` (repeated, at most 20) or, without it, the standard sizes. A malformed `size` is a 422 `invalid_field`.",
	request: { params: PrintFileIdParams, query: PreflightQuery },
	responses: {
		200: jsonResponse(PrintFileWithPreflightSchema, "The print file and its preflight."),
		...errorResponses(404, 422),
	},
});

const getThumbnail = protectedRoute("files:write", {
	method: "get",
	path: "/print-files/{id}/thumbnail",
	tags: ["Print files"],
	summary: "A print file's thumbnail (PNG, longest side 1024 px), once made",
	description:
		"409 `thumbnail_pending` while it is being made (the file's `thumbnail.status` is `pending`); 404 `thumbnail_unavailable` when there will be none, and 404 `print_file_not_found` for another account's or mode's file.",
	request: { params: PrintFileIdParams },
	responses: { 200: thumbnailPngResponse, ...errorResponses(404, 409) },
});

/** `POST /v1/print-files`, `GET /v1/print-files/{id}` and its thumbnail (scope `files:write`). */
export const printFileRoutes = createApp<AuthedEnv>()
	.openapi(createPrintFile, async (c) => {
		const body = c.req.valid("json");
		const { accountId, mode } = c.var.principal;
		const now = new Date();
		const id = newId("pf");
		const expiresAt = new Date(now.getTime() + uploadUrlLifetimeMs(c.env));
		const r2Key = printFileKey({ accountId, mode }, id);
		const target = await uploadUrlIssuer(c.env, new URL(c.req.url).origin).issue({
			id,
			r2Key,
			contentType: body.content_type,
			declaredSizeBytes: body.size_bytes ?? null,
			expiresAt,
		});
		await insertPrintFile(databaseOf(c.env, accountId), {
			id,
			account_id: accountId,
			mode,
			filename: body.filename ?? null,
			content_type: body.content_type,
			declared_size_bytes: body.size_bytes ?? null,
			r2_key: r2Key,
			created_at: now.toISOString(),
			expires_at: expiresAt.toISOString(),
		});
		return c.json(
			{
				id,
				status: "awaiting_upload" as const,
				upload_url: target.url,
				upload_method: target.method,
				upload_headers: target.headers,
				expires_at: expiresAt.toISOString(),
			},
			201,
		);
	})
	.openapi(getPrintFile, async (c) => {
		const { id } = c.req.valid("param");
		const { size } = c.req.valid("query");
		const db = databaseOf(c.env, c.var.principal.accountId);
		const [row, snapshot] = await Promise.all([findOwnedPrintFile(db, c.var.principal, id), isolateCatalog.get(db)]);
		if (row === null) throw new ApiError("print_file_not_found", `No print file ${id}.`, "id");
		const file = await printFileNow(c.env, row);
		const asked = size?.flatMap((text) => askedSizeOf(text) ?? []) ?? null;
		return c.json({ ...toPrintFile(file), preflight: preflightOf(file, snapshot.catalog.sizes, asked) }, 200);
	})
	.openapi(getThumbnail, async (c) => {
		const { id } = c.req.valid("param");
		const row = await findOwnedPrintFile(databaseOf(c.env, c.var.principal.accountId), c.var.principal, id);
		if (row === null) throw new ApiError("print_file_not_found", `No print file ${id}.`, "id");
		const served = await servedThumbnail(c.env, row);
		if (!served.ok) throw new ApiError(served.code, served.message, "id");
		// Through the context, so the headers every answer carries (X-Request-Id, the rate limit's) come too.
		return c.body(served.body, 200, served.headers);
	});

const UploadQuery = z.object({
	expires: z
		.string()
		.optional()
		.openapi({ param: { name: "expires", in: "query" } }),
	sig: z
		.string()
		.optional()
		.openapi({ param: { name: "sig", in: "query" } }),
});

const putUpload = createRoute({
	method: "put",
	path: "/uploads/{id}",
	tags: ["Print files"],
	summary: "Upload a print file's bytes to a signed URL (no API key: the signature is the authority)",
	request: {
		params: PrintFileIdParams,
		query: UploadQuery,
		body: { content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
	},
	responses: {
		200: jsonResponse(PrintFileSchema, "Stored; the file is inspected when first read."),
		...errorResponses(400, 403, 404, 409),
	},
});

/** `PUT /v1/uploads/{id}?expires=&sig=`: streams the body into R2, at most once, within the URL's lifetime. */
export const uploadRoutes = createApp<PublicEnv>().openapi(putUpload, async (c) => {
	const { id } = c.req.valid("param");
	const { expires, sig } = c.req.valid("query");
	const secret = configOf(c.env).UPLOAD_SIGNING_SECRET;
	if (secret === undefined) throw new Error("UPLOAD_SIGNING_SECRET is not set");
	const expiresUnix = Number(expires);
	if (expires === undefined || sig === undefined || !Number.isSafeInteger(expiresUnix)) {
		throw new ApiError(
			"upload_url_incomplete",
			"This upload URL is incomplete: it needs its expires and sig parameters.",
		);
	}
	if (!(await verifyUpload(secret, id, expiresUnix, sig))) {
		throw new ApiError(
			"upload_url_signature_invalid",
			"This upload URL's signature does not match: use the URL exactly as issued.",
		);
	}
	if (Date.now() >= expiresUnix * 1000) {
		throw new ApiError(
			"upload_url_expired",
			`This upload URL expired at ${new Date(expiresUnix * 1000).toISOString()}; request a new one with POST /v1/print-files.`,
		);
	}
	const file = await findInEveryDatabase(c.env, (database) => findPrintFileById(database, id));
	if (file === null) throw new ApiError("print_file_not_found", `No print file ${id}.`);
	// Past its retention no bytes go under its key again (they would never be deleted): its URL is dead.
	if (file.expired_at !== null) {
		throw new ApiError(
			"upload_url_expired",
			`Print file ${id} passed its retention at ${file.expired_at}; request a new upload URL with POST /v1/print-files.`,
		);
	}
	if (file.status !== "awaiting_upload") {
		throw new ApiError(
			"print_file_already_uploaded",
			`Print file ${id} has already been uploaded; request a new upload URL for another file.`,
		);
	}

	const lengthHeader = c.req.header("Content-Length");
	const length = lengthHeader === undefined ? Number.NaN : Number(lengthHeader);
	if (!Number.isSafeInteger(length) || length < 0) {
		throw new ApiError(
			"upload_length_required",
			"The upload needs a Content-Length header giving the file's exact size in bytes.",
		);
	}
	if (length > MAX_PRINT_FILE_BYTES) {
		throw new ApiError(
			"upload_too_large",
			`The file is ${length} bytes; the largest accepted is ${MAX_PRINT_FILE_BYTES} bytes (512 MiB).`,
		);
	}
	if (file.declared_size_bytes !== null && length !== file.declared_size_bytes) {
		throw new ApiError(
			"upload_size_mismatch",
			`The upload is ${length} bytes but the print file was declared as ${file.declared_size_bytes} bytes.`,
		);
	}

	const stored = await storeBody(c.env.PRINT_FILES, file, c.req.raw.body, length);
	if (stored === null) {
		throw new ApiError(
			"print_file_already_uploaded",
			`Print file ${id} has already been uploaded; request a new upload URL for another file.`,
		);
	}
	const database = databaseOf(c.env, file.account_id);
	await markUploaded(database, id, length, new Date());
	const updated = (await findPrintFileById(database, id)) ?? file;
	return c.json(toPrintFile(updated), 200);
});

/**
 * Streams the body into R2 through a FixedLengthStream (R2 needs the length up front), only if the
 * object does not exist yet: two racing uploads cannot both land. Null when it already existed.
 */
async function storeBody(
	bucket: R2Bucket,
	file: PrintFileRow,
	body: ReadableStream<Uint8Array> | null,
	length: number,
): Promise<R2Object | null> {
	const options: R2PutOptions = {
		onlyIf: { etagDoesNotMatch: "*" },
		httpMetadata: { contentType: file.content_type },
	};
	if (body === null || length === 0) {
		if (length !== 0) throw new ApiError("upload_incomplete", "The upload has no body.");
		return bucket.put(file.r2_key, new Uint8Array(0), options);
	}
	const sized = new FixedLengthStream(length);
	const abort = new AbortController();
	const piping = body.pipeTo(sized.writable, { signal: abort.signal });
	const stop = async () => {
		abort.abort();
		await piping.catch(() => undefined);
	};
	let stored: R2Object | null;
	try {
		stored = await bucket.put(file.r2_key, sized.readable, options);
	} catch {
		// A FixedLengthStream fails the put when the body is shorter or longer than Content-Length.
		await stop();
		throw new ApiError(
			"upload_incomplete",
			`The upload was cut short or ran past its Content-Length of ${length} bytes; send the whole file again.`,
		);
	}
	if (stored === null) {
		await stop();
		return null;
	}
	await piping;
	return stored;
}
