/** The landed-cost tables as stored (migration 0040): published, in force at an instant, by version. */
import { versionedTable } from "../money/versioned-tables.ts";
import { LandedCostTableSchema } from "./tables.ts";

export const landedCostTables = versionedTable("landed_cost_tables", "body", (value) =>
	LandedCostTableSchema.parse(value),
);
