/**
 * How claims hold print files for the retention sweep: a claim still `submitted` keeps its order's files
 * (a reprint may yet be made of them) and its own photos; a decided claim releases them when it was decided.
 */
import type { FileRelease } from "../print-files/retention-store.ts";

/** When a claim releases what it holds: now (`?1`) while it is submitted, else when it was decided. */
const CLAIM_RELEASE = "CASE c.status WHEN 'submitted' THEN ?1 ELSE c.resolved_at END";

/** The latest release by the claims on the order `orderIdSql` (an SQL expression), read through claims_by_order. */
export function claimsReleaseOfOrder(orderIdSql: string): string {
	return `(SELECT MAX(${CLAIM_RELEASE}) FROM claims c WHERE c.order_id = ${orderIdSql})`;
}

/** The latest release of the file `print_files.id` by the claims it is a photo of, read through claim_photos' key. */
export function photoReleaseOfFile(): FileRelease {
	return `(SELECT MAX(${CLAIM_RELEASE}) FROM claim_photos p JOIN claims c ON c.id = p.claim_id
	         WHERE p.print_file_id = print_files.id)`;
}
