/** The service team's work list of claims across accounts: a page from every database, merged oldest first. */
import { byCreatedAtThenId, pageFromEveryDatabase } from "../databases.ts";
import type { Cursor } from "../http/cursor.ts";
import type { ClaimStatus } from "./schema.ts";
import { listClaimsInStatus, type StoredClaim } from "./store.ts";

/** Every account's claims in `status`, oldest first (listClaimsInStatus over every database). */
export function claimsInStatus(
	env: Env,
	status: ClaimStatus,
	limit: number,
	cursor: Cursor | undefined,
): Promise<{ page: StoredClaim[]; more: boolean }> {
	return pageFromEveryDatabase(
		env,
		limit,
		(database) => listClaimsInStatus(database, status, limit, cursor),
		(a: StoredClaim, b: StoredClaim) => byCreatedAtThenId(a.claim, b.claim),
	);
}
