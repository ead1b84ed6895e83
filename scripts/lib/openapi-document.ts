/**
 * The OpenAPI document built in this Node process, without a server: `src/app.ts` bundled in memory
 * by esbuild (the bundler wrangler runs), imported, and asked for `GET /v1/openapi.json` through
 * Hono's `app.request`. The route is the served one, so the answer is the document `wrangler dev`
 * serves but for `servers`, which names the origin asked (test/cli/typed-client.test.ts compares the
 * two).
 *
 * Node cannot import the app as it is: its `.txt` modules (Scalar's bundle) and `.tsx` pages need
 * a bundler, and the Durable Object classes extend `DurableObject` from `cloudflare:workers`, which
 * only workerd provides. The bundle gets that module as a stand-in class; nothing on the document's
 * path constructs a Durable Object.
 */
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { PROJECT_ROOT } from "./wrangler.ts";

/** The parsed document; its shape is openapi-typescript's business, not this script's. */
export type OpenApiDocument = Record<string, unknown>;

/** The origin the in-process document names in `servers`. */
export const IN_PROCESS_ORIGIN = "http://localhost:8787";

/** `cloudflare:*` modules for Node: `DurableObject` as a plain base class keeping ctx and env. */
const workersRuntimeStandIn: Plugin = {
	name: "cloudflare-workers-stand-in",
	setup(bundler) {
		bundler.onResolve({ filter: /^cloudflare:/ }, (args) => ({ path: args.path, namespace: "cloudflare-stand-in" }));
		bundler.onLoad({ filter: /.*/, namespace: "cloudflare-stand-in" }, () => ({
			contents: "export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }",
			loader: "js",
		}));
	},
};

function isJsonObject(value: unknown): value is OpenApiDocument {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

type AppModule = { app: { request(url: string, init: RequestInit, env: object): Response | Promise<Response> } };

function isAppModule(value: unknown): value is AppModule {
	if (typeof value !== "object" || value === null || !("app" in value)) return false;
	const { app } = value;
	return typeof app === "object" && app !== null && "request" in app && typeof app.request === "function";
}

/** Builds the app in memory and returns what its `GET <documentPath>` answers (the partner's document by default). */
export async function buildOpenApiDocument(documentPath = "/v1/openapi.json"): Promise<OpenApiDocument> {
	const [document] = await buildOpenApiDocuments([documentPath]);
	if (document === undefined) throw new Error(`no document for ${documentPath}`);
	return document;
}

/** Builds the app in memory once and returns what each `GET <documentPath>` answers, in order. */
export async function buildOpenApiDocuments(documentPaths: readonly string[]): Promise<OpenApiDocument[]> {
	const bundled = await build({
		entryPoints: [path.join(PROJECT_ROOT, "src", "app.ts")],
		absWorkingDir: PROJECT_ROOT,
		bundle: true,
		write: false,
		format: "esm",
		platform: "neutral",
		// As wrangler resolves packages for workerd.
		conditions: ["workerd", "worker", "browser"],
		mainFields: ["browser", "module", "main"],
		loader: { ".txt": "text" },
		external: ["node:*"],
		plugins: [workersRuntimeStandIn],
		logLevel: "silent",
	});
	const code = bundled.outputFiles[0]?.text;
	if (code === undefined) throw new Error("esbuild produced no bundle of src/app.ts");
	const loaded: unknown = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
	if (!isAppModule(loaded)) throw new Error("src/app.ts does not export the Hono app as `app`");
	const { app } = loaded;
	const documents: OpenApiDocument[] = [];
	for (const documentPath of documentPaths) {
		// Every setting has a default (src/config.ts), so an empty environment is a valid one.
		const response = await app.request(`${IN_PROCESS_ORIGIN}${documentPath}`, {}, {});
		if (response.status !== 200) {
			throw new Error(`GET ${documentPath} answered ${response.status} in process: ${await response.text()}`);
		}
		const document: unknown = await response.json();
		if (!isJsonObject(document)) throw new Error(`GET ${documentPath} did not answer a JSON object`);
		documents.push(document);
	}
	return documents;
}
