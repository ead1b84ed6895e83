import { AwsClient } from "aws4fetch";
import { configOf } from "../config.ts";
import { signUpload } from "./upload-signature.ts";

/** Where and how a partner sends a file's bytes. */
export type UploadTarget = { url: string; method: "PUT"; headers: Record<string, string> };

/** The file an upload URL is for. */
export type UploadSubject = {
	id: string;
	r2Key: string;
	contentType: string;
	declaredSizeBytes: number | null;
	expiresAt: Date;
};

/** Issues upload URLs; one implementation per upload path, chosen by configuration. */
export interface UploadUrlIssuer {
	issue(subject: UploadSubject): Promise<UploadTarget>;
}

/**
 * The worker's own signed route. The bytes stream through the worker into R2, so the worker
 * enforces the size cap and refuses a second upload itself.
 */
export class WorkerRouteIssuer implements UploadUrlIssuer {
	constructor(
		private readonly origin: string,
		private readonly secret: string,
	) {}

	async issue(subject: UploadSubject): Promise<UploadTarget> {
		const expires = Math.floor(subject.expiresAt.getTime() / 1000);
		const sig = await signUpload(this.secret, subject.id, expires);
		const url = `${this.origin}/v1/uploads/${encodeURIComponent(subject.id)}?expires=${expires}&sig=${sig}`;
		return { url, method: "PUT", headers: { "Content-Type": subject.contentType } };
	}
}

/** S3 credentials and address of the R2 bucket, for presigned URLs. */
export type R2S3Config = { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string };

/**
 * R2's S3-compatible presigned PUT: the file never passes through the worker. The host, the
 * precondition `If-None-Match: *` (and, when the partner declared `size_bytes`, the exact
 * Content-Length) are signed, so the URL works only with the `upload_headers`: a PUT without the
 * precondition is refused (403, the signature does not match) and a second one with it too (412).
 * Nobody can replace the bytes once they are stored. R2 also refuses an expired or tampered URL (403).
 */
export class R2PresignedIssuer implements UploadUrlIssuer {
	private readonly client: AwsClient;

	constructor(private readonly config: R2S3Config) {
		this.client = new AwsClient({
			accessKeyId: config.accessKeyId,
			secretAccessKey: config.secretAccessKey,
			service: "s3",
			region: "auto",
		});
	}

	async issue(subject: UploadSubject): Promise<UploadTarget> {
		const base = this.config.endpoint.replace(/\/+$/, "");
		const url = new URL(`${base}/${this.config.bucket}/${subject.r2Key}`);
		const lifetime = Math.max(1, Math.round((subject.expiresAt.getTime() - Date.now()) / 1000));
		url.searchParams.set("X-Amz-Expires", String(lifetime));
		const signedHeaders: Record<string, string> = {
			"If-None-Match": "*",
			...(subject.declaredSizeBytes === null ? {} : { "Content-Length": String(subject.declaredSizeBytes) }),
		};
		const signed = await this.client.sign(url.toString(), {
			method: "PUT",
			headers: signedHeaders,
			aws: { signQuery: true, allHeaders: true },
		});
		return {
			url: signed.url,
			method: "PUT",
			headers: { "Content-Type": subject.contentType, ...signedHeaders },
		};
	}
}

/**
 * The issuer the configuration asks for: `UPLOAD_METHOD=r2-presigned` with the R2 S3 settings, else
 * the worker route with `UPLOAD_SIGNING_SECRET`. Missing settings throw (a logged 500), never a weak URL.
 */
export function uploadUrlIssuer(env: Env, requestOrigin: string): UploadUrlIssuer {
	const config = configOf(env);
	if (config.UPLOAD_METHOD === "r2-presigned") {
		const { R2_S3_ENDPOINT, R2_S3_ACCESS_KEY_ID, R2_S3_SECRET_ACCESS_KEY, R2_BUCKET_NAME } = config;
		if (!R2_S3_ENDPOINT || !R2_S3_ACCESS_KEY_ID || !R2_S3_SECRET_ACCESS_KEY || !R2_BUCKET_NAME) {
			throw new Error(
				"UPLOAD_METHOD is r2-presigned but R2_S3_ENDPOINT, R2_S3_ACCESS_KEY_ID, R2_S3_SECRET_ACCESS_KEY or R2_BUCKET_NAME is not set",
			);
		}
		return new R2PresignedIssuer({
			endpoint: R2_S3_ENDPOINT,
			bucket: R2_BUCKET_NAME,
			accessKeyId: R2_S3_ACCESS_KEY_ID,
			secretAccessKey: R2_S3_SECRET_ACCESS_KEY,
		});
	}
	if (config.UPLOAD_SIGNING_SECRET === undefined) throw new Error("UPLOAD_SIGNING_SECRET is not set");
	return new WorkerRouteIssuer(requestOrigin, config.UPLOAD_SIGNING_SECRET);
}
