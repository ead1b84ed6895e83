/** Settings that make a local `wrangler dev` issue real R2 presigned upload URLs. */
import path from "node:path";
import { unstable_readConfig } from "wrangler";
import { PROJECT_ROOT } from "./wrangler.ts";

/**
 * `--var` values for `UPLOAD_METHOD=r2-presigned` against wrangler's local R2 S3 endpoint, using the
 * local-only credentials declared in wrangler.toml (`local_dev.experimental_s3_credentials`).
 */
export function presignedUploadVars(origin: string): Record<string, string> {
	const config = unstable_readConfig({ config: path.join(PROJECT_ROOT, "wrangler.toml") });
	// wrangler's published types do not resolve its Config type here, so the fields used are named.
	const buckets = config.r2_buckets as ReadonlyArray<{
		binding: string;
		local_dev?: { experimental_s3_credentials?: { accessKeyId: string; secretAccessKey: string } };
	}>;
	const bucket = buckets.find((candidate) => candidate.binding === "PRINT_FILES");
	const credentials = bucket?.local_dev?.experimental_s3_credentials;
	if (credentials === undefined) {
		throw new Error("wrangler.toml declares no local_dev.experimental_s3_credentials for PRINT_FILES");
	}
	return {
		UPLOAD_METHOD: "r2-presigned",
		R2_S3_ENDPOINT: `${origin}/cdn-cgi/local/r2/s3`,
		R2_S3_ACCESS_KEY_ID: credentials.accessKeyId,
		R2_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
	};
}
