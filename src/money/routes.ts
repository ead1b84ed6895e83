import { z } from "@hono/zod-openapi";
import { protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { createApp } from "../http/create-app.ts";
import { errorResponses, okOrThrow, refusalError } from "../http/errors.ts";
import { PerUsdMicrosSchema, type RateSheet, RateSheetSchema } from "./exchange.ts";
import { rateSheets } from "./store.ts";
import {
	EffectiveAtSchema,
	effectiveAtRefusal,
	nothingChosen,
	publishToEveryDatabase,
	VersionedTableQuery,
	versionChosen,
} from "./versioned-tables.ts";

/** A sheet as an admin publishes it: when it takes effect, where its rates come from, and the rates. */
const RateSheetBody = z
	.strictObject({
		effective_at: EffectiveAtSchema,
		source: RateSheetSchema.shape.source,
		per_usd_micros: PerUsdMicrosSchema,
	})
	.openapi("ExchangeRateSheetBody");

const SHEET_EXAMPLE = {
	version: 2,
	effective_at: "2026-11-01T00:00:00.000Z",
	published_at: "2026-10-31T12:00:00.000Z",
	source: "ECB euro reference rates of 2026-10-30, via EUR/USD",
	per_usd_micros: { USD: 1_000_000, EUR: 862_000, GBP: 760_000, CAD: 1_400_000, AUD: 1_530_000, JPY: 155_000_000 },
} satisfies RateSheet;

const getSheet = protectedRoute(null, {
	method: "get",
	path: "/exchange-rates",
	tags: ["Pricing"],
	summary: "The exchange-rate sheet in force now (or at a time, or a version): units of each currency per US dollar",
	description:
		"Prices are set in US cents; an account billed in another currency has each amount converted once, by the sheet in force when it is quoted or ordered, rounded half away from zero to a whole minor unit.",
	request: { query: VersionedTableQuery },
	responses: {
		200: {
			description: "The sheet.",
			content: { "application/json": { schema: RateSheetSchema, example: SHEET_EXAMPLE } },
		},
		...errorResponses(404, 422),
	},
});

const publishSheet = protectedRoute("admin", {
	method: "post",
	path: "/admin/exchange-rates",
	tags: ["Admin"],
	summary: "Publish an exchange-rate sheet from an effective time on; earlier sheets are kept unchanged",
	description:
		"Every rate is in millionths of a unit per US dollar, from 100 (0.0001) to 100,000,000,000 (100,000); USD is always 1000000. `effective_at` is from now (at most 5 minutes back) to 366 days ahead: quotes and orders priced already keep their amounts, and a sheet cannot change what was in force before it was published.",
	request: {
		body: {
			required: true,
			content: {
				"application/json": {
					schema: RateSheetBody,
					example: {
						effective_at: SHEET_EXAMPLE.effective_at,
						source: SHEET_EXAMPLE.source,
						per_usd_micros: SHEET_EXAMPLE.per_usd_micros,
					},
				},
			},
		},
	},
	responses: {
		201: {
			description: "The published sheet.",
			content: { "application/json": { schema: RateSheetSchema, example: SHEET_EXAMPLE } },
		},
		...errorResponses(400, 422),
	},
});

/** `GET /v1/exchange-rates` (any valid key) and the admin's `POST /v1/admin/exchange-rates`. */
export const exchangeRateRoutes = createApp<AuthedEnv>()
	.openapi(getSheet, async (c) => {
		const choice = c.req.valid("query");
		const { value: sheet } = okOrThrow(await versionChosen(c.env, rateSheets, choice, new Date()));
		if (sheet === null) throw refusalError(nothingChosen("exchange_rates_not_found", "exchange-rate sheet", choice));
		return c.json(sheet, 200);
	})
	.openapi(publishSheet, async (c) => {
		const { effective_at: effectiveAt, ...sheet } = c.req.valid("json");
		const now = new Date();
		const refused = effectiveAtRefusal(new Date(effectiveAt), now);
		if (refused !== null) throw refusalError(refused);
		const published = await publishToEveryDatabase(c.env, rateSheets, sheet, new Date(effectiveAt), now);
		return c.json(published, 201);
	});
