/**
 * Quoting a cart: the request priced against the book in force, the account's discount and its print
 * files as they are now, and the quote stored for 48 hours. The API's route and the partner console's
 * order form both quote through here.
 */
import type { Owner } from "../accounts/owner.ts";
import { databaseOf } from "../databases.ts";
import { newId } from "../ids.ts";
import { printFileNow } from "../print-files/inspection.ts";
import { findOwnedPrintFile, type PrintFileRow } from "../print-files/store.ts";
import type { Refusal } from "../problem.ts";
import { pieceFactsOf } from "./facts.ts";
import { priceQuote } from "./price-quote.ts";
import type { CreateQuoteInput, Quote } from "./schema.ts";
import { insertQuote } from "./store.ts";

/** How long a quote can be ordered against. */
export const QUOTE_LIFETIME_MS = 48 * 3600_000;

/** The request's print files in the owner's account and mode, as they stand now. */
async function filesOf(env: Env, owner: Owner, input: CreateQuoteInput): Promise<Map<string, PrintFileRow>> {
	const ids = [
		...new Set(input.items.flatMap((item) => (item.print_file_id === undefined ? [] : [item.print_file_id]))),
	];
	const found = await Promise.all(ids.map((id) => findOwnedPrintFile(databaseOf(env, owner.accountId), owner, id)));
	const current = await Promise.all(found.flatMap((file) => (file === null ? [] : [printFileNow(env, file)])));
	return new Map<string, PrintFileRow>(current.map((file) => [file.id, file]));
}

/**
 * Prices `input` for `owner` and stores the quote; or the refusal naming the field at fault (its message
 * prefixed with the field, as the API says it).
 */
export async function createQuote(
	env: Env,
	owner: Owner,
	input: CreateQuoteInput,
	now = new Date(),
): Promise<{ ok: true; quote: Quote } | Refusal> {
	const [facts, files] = await Promise.all([
		pieceFactsOf(databaseOf(env, owner.accountId), owner.accountId),
		filesOf(env, owner, input),
	]);
	const outcome = priceQuote(input, { ...facts, files });
	if (!outcome.ok) {
		return { ok: false, code: outcome.code, field: outcome.field, message: `${outcome.field}: ${outcome.message}` };
	}
	const quote = {
		id: newId("quo"),
		created_at: now.toISOString(),
		expires_at: new Date(now.getTime() + QUOTE_LIFETIME_MS).toISOString(),
		...outcome.quote,
	};
	await insertQuote(databaseOf(env, owner.accountId), owner, quote);
	return { ok: true, quote };
}
