/** A claim's reason, status and remedy in the words the consoles show people, never the raw codes. */
import type { ClaimReason } from "./rules.ts";
import type { Claim, ClaimStatus } from "./schema.ts";

/** Each reason as people say it. */
export const REASON_WORDS: Readonly<Record<ClaimReason, string>> = {
	damaged_in_transit: "Damaged in transit",
	lost_in_transit: "Lost in transit",
	print_defect: "Print defect",
	frame_defect: "Frame defect",
	wrong_item: "Wrong item",
};

/** Where a claim stands, as the partner reads it. */
export const CLAIM_STATUS_WORDS: Readonly<Record<ClaimStatus, string>> = {
	submitted: "Waiting for a decision",
	approved: "Approved",
	rejected: "Rejected",
};

/** How an approved claim is made good, as the partner reads it. */
export const REMEDY_WORDS: Readonly<Record<NonNullable<NonNullable<Claim["resolution"]>["remedy"]>, string>> = {
	reprint: "Reprint: the claimed units are printed and shipped again, at no charge",
	refund: "Refund: the claimed units' share of the charges is credited to your statement",
};
