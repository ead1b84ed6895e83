/** The exchange-rate sheets as stored (migration 0040): published, in force at an instant, by version. */
import { RateSheetSchema } from "./exchange.ts";
import { versionedTable } from "./versioned-tables.ts";

export const rateSheets = versionedTable("exchange_rate_sheets", "sheet", (value) => RateSheetSchema.parse(value));
