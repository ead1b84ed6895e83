/**
 * The address check: an address judged as order creation would judge it (its problems are exactly
 * what creation refuses, through the same schema), the warnings a carrier's label would trip on, and
 * the address in normal form.
 */
import { z } from "@hono/zod-openapi";
import { problemOfIssue } from "../http/validation.ts";
import type { Problem } from "../problem.ts";
import { normalizedShipTo } from "./normalize.ts";
import { type ShipTo, ShipToSchema } from "./schema.ts";
import { type ShipToWarning, shipToWarnings } from "./ship-to-warnings.ts";

/** What the check says of an address. */
export type AddressCheck = {
	deliverable: boolean;
	problems: Required<Problem>[];
	warnings: ShipToWarning[];
	normalized: ShipTo | null;
};

const ShipToOfRequest = z.object({ ship_to: ShipToSchema });

/**
 * Checks `shipTo`, a request's untyped `ship_to`, for an order to ship by `shippingMethod` (null: not
 * known yet). Every refused field is a problem, one per field, as creation's 422 or 400 would name it.
 * Text that is not well-formed Unicode never gets here: the request's own validation refuses it (422).
 */
export function checkAddress(shipTo: unknown, shippingMethod: string | null): AddressCheck {
	const input = { ship_to: shipTo };
	const parsed = ShipToOfRequest.safeParse(input);
	if (!parsed.success) {
		const problems: Required<Problem>[] = [];
		for (const issue of parsed.error.issues) {
			const problem = problemOfIssue(issue, input);
			if (!problems.some((known) => known.field === problem.field)) problems.push(problem);
		}
		return { deliverable: false, problems, warnings: [], normalized: null };
	}
	const normalized = normalizedShipTo(parsed.data.ship_to);
	return { deliverable: true, problems: [], warnings: shipToWarnings(parsed.data.ship_to, shippingMethod), normalized };
}
