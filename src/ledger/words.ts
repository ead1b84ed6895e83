/** A ledger entry's type in the words the consoles show people, never the raw code. */
import type { LedgerEntry } from "./store.ts";

/** Each entry type as people say it. */
export const ENTRY_TYPE_WORDS: Readonly<Record<LedgerEntry["type"], string>> = {
	charge: "Charge",
	repricing: "Repricing",
	cancellation_credit: "Cancellation credit",
	claim_credit: "Claim credit",
	adjustment: "Adjustment",
};
