import { z } from "@hono/zod-openapi";
import { protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { createApp } from "../http/create-app.ts";
import { errorResponses, okOrThrow, refusalError } from "../http/errors.ts";
import {
	EffectiveAtSchema,
	effectiveAtRefusal,
	nothingChosen,
	publishToEveryDatabase,
	VersionedTableQuery,
	versionChosen,
} from "../money/versioned-tables.ts";
import { landedCostTables } from "./store.ts";
import {
	LandedCostTableBody,
	type LandedCostTableInput,
	LandedCostTableSchema,
	tableCoverageRefusal,
} from "./tables.ts";

/** A table as an admin publishes it: when it takes effect, and its body. */
const PublishTableBody = z
	.strictObject({ effective_at: EffectiveAtSchema, ...LandedCostTableBody.shape })
	.openapi("LandedCostTablePublication");

/** Two destinations of the seed's table from July 2026: Germany, and the origin's own country. */
const LANDED_COST_TABLE_EXAMPLE = {
	origin: "US",
	destinations: {
		DE: {
			currency: "EUR",
			customs: {
				import_tax: { name: "VAT", rate_bp: 1900, includes_shipping: true, includes_duty: true },
				duty: {
					tariff_codes: { framed_print: "4911.91.00", unframed_print: "4911.91.00", frame: "4414.90.00" },
					rate_bp: { framed_print: 0, unframed_print: 0, frame: 0 },
					includes_shipping: true,
				},
				thresholds: { tax_at_sale_up_to: null, ioss_up_to: 15000, tax_free_up_to: null, duty_free_up_to: 15000 },
				low_value_duty_per_line: 300,
				clearance_fee: { ddp: 1250, dap: 600 },
			},
			partner_tax: { name: "VAT", rate_bp: 1900, reverse_charge: true },
			sources: [
				{
					title: "European Commission: VAT e-commerce rules, IOSS for consignments up to EUR 150",
					url: "https://taxation-customs.ec.europa.eu/taxation/vat/vat-e-commerce_en",
					as_of: "2025-12-15",
				},
				{
					title:
						"TARIC: 4911 91 00 (pictures, designs and photographs, printed) and 4414 90 00 (wooden frames), third-country duty 0 %",
					url: "https://ec.europa.eu/taxation_customs/dds2/taric/",
					as_of: "2025-12-15",
				},
				{ title: "The service's carrier contract: clearance fees, 2026 rate card", url: null, as_of: "2026-01-01" },
			],
		},
		US: {
			currency: "USD",
			customs: null,
			partner_tax: null,
			sources: [
				{
					title: "Pieces ship from the United States: a US delivery crosses no border",
					url: null,
					as_of: "2026-01-01",
				},
			],
		},
	},
} satisfies LandedCostTableInput;

const PUBLISHED_EXAMPLE = {
	version: 3,
	effective_at: "2027-01-01T00:00:00.000Z",
	published_at: "2026-12-01T09:30:00.000Z",
	...LANDED_COST_TABLE_EXAMPLE,
};

const getTable = protectedRoute(null, {
	method: "get",
	path: "/landed-cost-tables",
	tags: ["Pricing"],
	summary:
		"The landed-cost table in force now (or at a time, or a version): import tax, duty and tariff codes, thresholds and clearance fees per destination",
	description:
		"Each destination's figures are in its own currency (minor units; rates in hundredths of a percent), with the sources they were read from. A destination with `customs: null` is the origin's own country: no border is crossed.",
	request: { query: VersionedTableQuery },
	responses: {
		200: {
			description: "The table.",
			content: { "application/json": { schema: LandedCostTableSchema, example: PUBLISHED_EXAMPLE } },
		},
		...errorResponses(404, 422),
	},
});

const publishTable = protectedRoute("admin", {
	method: "post",
	path: "/admin/landed-cost-tables",
	tags: ["Admin"],
	summary: "Publish a landed-cost table from an effective time on (the whole table); earlier tables are kept unchanged",
	description:
		"The origin country is listed among the destinations as domestic (`customs: null`), and every other destination has its customs: a tariff code and a duty rate for every kind of piece, the import tax, the thresholds and the clearance fees. `effective_at` is from now (at most 5 minutes back) to 366 days ahead.",
	request: {
		body: {
			required: true,
			content: {
				"application/json": {
					schema: PublishTableBody,
					example: { effective_at: PUBLISHED_EXAMPLE.effective_at, ...LANDED_COST_TABLE_EXAMPLE },
				},
			},
			description: "The example is shortened to two destinations: a table covers every country the service ships to.",
		},
	},
	responses: {
		201: {
			description: "The published table.",
			content: { "application/json": { schema: LandedCostTableSchema, example: PUBLISHED_EXAMPLE } },
		},
		...errorResponses(400, 422),
	},
});

/** `GET /v1/landed-cost-tables` (any valid key) and the admin's `POST /v1/admin/landed-cost-tables`. */
export const landedCostTableRoutes = createApp<AuthedEnv>()
	.openapi(getTable, async (c) => {
		const choice = c.req.valid("query");
		const { value: table } = okOrThrow(await versionChosen(c.env, landedCostTables, choice, new Date()));
		if (table === null) throw refusalError(nothingChosen("landed_cost_table_not_found", "landed-cost table", choice));
		return c.json(table, 200);
	})
	.openapi(publishTable, async (c) => {
		const { effective_at: effectiveAt, ...table } = c.req.valid("json");
		const now = new Date();
		const refused = effectiveAtRefusal(new Date(effectiveAt), now) ?? tableCoverageRefusal(table);
		if (refused !== null) throw refusalError(refused);
		const published = await publishToEveryDatabase(c.env, landedCostTables, table, new Date(effectiveAt), now);
		return c.json(published, 201);
	});
