import { bodyLimit } from "hono/body-limit";
import { except } from "hono/combine";
import { accountMoveRoutes } from "./account-moves/routes.ts";
import { addressCheckRoutes } from "./addresses/routes.ts";
import { adminBillingRoutes } from "./admin/billing-routes.ts";
import { adminRoutes } from "./admin/routes.ts";
import { adminUserRoutes } from "./admin/user-routes.ts";
import { brandingRoutes } from "./branding/routes.ts";
import { catalogRoutes } from "./catalog/routes.ts";
import { opsClaimRoutes } from "./claims/ops-routes.ts";
import { claimRoutes } from "./claims/routes.ts";
import { configOf } from "./config.ts";
import { consoleRoutes } from "./console/routes.tsx";
import { accountBillingRoutes } from "./customs/billing-routes.ts";
import { landedCostTableRoutes } from "./customs/routes.ts";
import { refreshPlacements } from "./databases.ts";
import { previewRoutes } from "./framed-previews/routes.ts";
import { healthRoutes } from "./health/routes.ts";
import type { PublicEnv } from "./http/app-env.ts";
import { createApp } from "./http/create-app.ts";
import { ApiError } from "./http/errors.ts";
import { noSniff } from "./http/no-sniff.ts";
import { renderError, renderNotFound } from "./http/on-error.ts";
import { stampRequestId } from "./http/request-id.ts";
import { ledgerRoutes } from "./ledger/routes.ts";
import { exchangeRateRoutes } from "./money/routes.ts";
import { serveApiDocs } from "./openapi/document.ts";
import { EVENT_TYPES } from "./openapi/event-catalog.ts";
import { orderArchiveRoutes } from "./order-archive/routes.ts";
import { opsRoutes } from "./orders/ops-routes.ts";
import { orderRoutes } from "./orders/routes.ts";
import { partnerConsoleRoutes } from "./partner-console/routes.tsx";
import { pricingRoutes } from "./pricing/routes.ts";
import { printSettingsRoutes } from "./print-files/print-settings-routes.ts";
import { printFileRoutes, uploadRoutes } from "./print-files/routes.ts";
import { productionRoutes } from "./production/routes.ts";
import { quoteRoutes } from "./quotes/routes.ts";
import { sandboxRoutes } from "./sandbox/routes.ts";
import { MAX_IMPORT_BYTES } from "./shipment-import/csv-file.ts";
import { shipmentImportRoutes } from "./shipment-import/routes.ts";
import { eventArchiveRoutes } from "./webhooks/archive-routes.ts";
import { webhookEndpointRoutes } from "./webhooks/endpoint-routes.ts";
import { webhookRoutes } from "./webhooks/routes.ts";

/** The largest JSON body the API takes, 1 MiB: far more than the largest order needs. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
const API_IMPORT_PATHS = ["/v1/ops/shipments/import", "/v1/ops/shipments/import/preview"];
const SHIPMENTS_IMPORT_PATHS = [...API_IMPORT_PATHS, "/ops/shipments/import", "/ops/shipments/import/confirm"];

/** The whole HTTP API: plumbing first, then each capability's routes under /v1. */
export const app = createApp<PublicEnv>();

app.use(
	"*",
	stampRequestId,
	noSniff,
	// File bytes go to the signed upload route, which has its own 512 MiB cap; a shipments CSV has 4 MiB
	// (and its confirm carries it in base64, a third more); the partner console's forms carry print files,
	// photos and logos of up to 64 MiB, under the console's own limit (src/partner-console/routes.tsx).
	except(
		["/v1/uploads/*", ...SHIPMENTS_IMPORT_PATHS, "/partner/*"],
		bodyLimit({
			maxSize: MAX_JSON_BODY_BYTES,
			onError: () => {
				throw new ApiError("body_too_large", "The request body is larger than 1 MiB.");
			},
		}),
	),
);
// The console's import has the same limit in its own routes, so that refusal is a page, not JSON.
app.on(
	"POST",
	API_IMPORT_PATHS,
	bodyLimit({
		maxSize: MAX_IMPORT_BYTES,
		onError: () => {
			throw new ApiError("body_too_large", `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB: split it.`);
		},
	}),
);
// The settings are parsed before anything else, so a bad one fails the first request, naming the variable;
// then the moved accounts' placements are read, when this isolate's copy is old, before the first databaseOf.
app.use("*", async (c, next) => {
	configOf(c.env);
	await refreshPlacements(c.env);
	await next();
});
app.onError(renderError);
app.notFound(renderNotFound);

app.route("/v1", healthRoutes);
app.route("/v1", catalogRoutes);
app.route("/v1", adminRoutes);
app.route("/v1", adminUserRoutes);
app.route("/v1", orderArchiveRoutes);
app.route("/v1", printFileRoutes);
app.route("/v1", uploadRoutes);
app.route("/v1", orderRoutes);
app.route("/v1", addressCheckRoutes);
app.route("/v1", claimRoutes);
app.route("/v1", opsClaimRoutes);
app.route("/v1", opsRoutes);
app.route("/v1", productionRoutes);
app.route("/v1", shipmentImportRoutes);
app.route("/v1", sandboxRoutes(EVENT_TYPES));
// Webhooks stores and sends events it does not know: their names come from the capabilities that own them.
app.route("/v1", webhookRoutes(EVENT_TYPES));
app.route("/v1", webhookEndpointRoutes(EVENT_TYPES));
app.route("/v1", eventArchiveRoutes);
app.route("/v1", brandingRoutes);
app.route("/v1", pricingRoutes);
app.route("/v1", exchangeRateRoutes);
app.route("/v1", landedCostTableRoutes);
app.route("/v1", accountBillingRoutes);
app.route("/v1", printSettingsRoutes);
app.route("/v1", adminBillingRoutes);
app.route("/v1", accountMoveRoutes);
app.route("/v1", quoteRoutes);
app.route("/v1", ledgerRoutes);
app.route("/v1", previewRoutes);
app.route("/ops", consoleRoutes);
app.route("/partner", partnerConsoleRoutes);
serveApiDocs(app);
