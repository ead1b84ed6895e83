/**
 * The ledger's statements: one entry per cause (its `cause_key` is unique, so a move replayed or raced
 * writes one entry), each written in the batch of the move that causes it under that move's condition,
 * and the reads a monthly statement needs.
 */
import type { BatchedRead } from "../http/batched-read.ts";
import { newOrderedId } from "../ids.ts";
import { conditionAfter, type WriteCondition } from "../webhooks/store.ts";
import { type EntryTaxRule, type TaxTreatment, taxOn } from "./entry-tax.ts";

/** The kinds of entries; credits are negative amounts, charges positive, adjustments either. */
export const ENTRY_TYPES = ["charge", "repricing", "cancellation_credit", "claim_credit", "adjustment"] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/** An entry as stored and shown. */
export type LedgerEntry = {
	id: string;
	at: string;
	type: EntryType;
	order_id: string | null;
	claim_id: string | null;
	amount_cents: number;
	currency: string;
	memo: string;
	/** The partner's tax on the entry, signed like its amount, in the same currency. */
	tax_cents: number;
	tax_treatment: TaxTreatment;
	tax_rate_bp: number;
};

/** Whose ledger an entry goes in. */
export type LedgerOwner = { accountId: string; mode: string };

/** The order an entry is about: its id, its external id for the memo, its currency and the partner tax it kept. */
export type EntryOrder = { id: string; externalId: string; currency: string; tax: EntryTaxRule };

/** An order's amount on an entry, and the part of it the partner tax applies to. */
export type TaxedAmount = { cents: number; taxableCents: number };

/** The columns an entry's read selects, in the order `LedgerEntry` lists them. */
export const ENTRY_COLUMNS =
	"id, at, type, order_id, claim_id, amount_cents, currency, memo, tax_cents, tax_treatment, tax_rate_bp";

const INSERT = `INSERT INTO ledger_entries (id, account_id, mode, at, type, order_id, claim_id, amount_cents, currency, memo, cause_key, tax_cents, tax_treatment, tax_rate_bp)`;
/** The charge the order has, with what repriced it since: what a cancellation gives back. */
const CHARGED_NET = `(SELECT COALESCE(SUM(amount_cents), 0) FROM ledger_entries WHERE order_id = ?6 AND type IN ('charge', 'repricing'))`;
/** The tax on that charge and its repricings: what a cancellation gives back with it, exactly. */
const CHARGED_TAX = `(SELECT COALESCE(SUM(tax_cents), 0) FROM ledger_entries WHERE order_id = ?6 AND type IN ('charge', 'repricing'))`;
const HAS_CHARGE = `EXISTS (SELECT 1 FROM ledger_entries WHERE cause_key = 'charge:' || ?6)`;

type EntryDraft = {
	owner: LedgerOwner;
	at: Date;
	type: EntryType;
	orderId: string | null;
	claimId: string | null;
	/** A number of cents, or SQL reading it (numbered as the insert's own parameters). */
	amount: number | typeof CHARGED_NET;
	/** The tax on it: its rule, and its minor units or SQL reading them (with CHARGED_NET, CHARGED_TAX). */
	tax: EntryTaxRule & { cents: number | typeof CHARGED_TAX };
	currency: string;
	memo: string;
	causeKey: string;
	/** Only when the order already has its charge. */
	needsCharge: boolean;
};

function entryStatement(db: D1Database, draft: EntryDraft, condition: WriteCondition | null): D1PreparedStatement {
	const guards: string[] = [];
	if (draft.needsCharge) guards.push(HAS_CHARGE);
	if (condition !== null) guards.push(conditionAfter(condition, 14));
	const where = guards.length === 0 ? "WHERE 1" : `WHERE ${guards.join(" AND ")}`;
	const amount = typeof draft.amount === "number" ? "?8" : `-${draft.amount}`;
	const taxCents = typeof draft.tax.cents === "number" ? "?12" : `-${draft.tax.cents}`;
	return db
		.prepare(
			`${INSERT} SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ${amount}, ?9, ?10, ?11, ${taxCents}, ?13, ?14 ${where}
			 ON CONFLICT (cause_key) DO NOTHING`,
		)
		.bind(
			// Ordered: entries one batch writes at one instant list in the order written (a repricing before a charge).
			newOrderedId("led"),
			draft.owner.accountId,
			draft.owner.mode,
			draft.at.toISOString(),
			draft.type,
			draft.orderId,
			draft.claimId,
			typeof draft.amount === "number" ? draft.amount : null,
			draft.currency,
			draft.memo,
			draft.causeKey,
			typeof draft.tax.cents === "number" ? draft.tax.cents : null,
			draft.tax.treatment,
			draft.tax.rate_bp,
			...(condition?.params ?? []),
		);
}

/** What sets one order entry apart from another: its type, amount, tax, memo and cause, and whether it needs the charge. */
type EntryKind = Pick<EntryDraft, "type" | "amount" | "tax" | "memo" | "causeKey" | "needsCharge"> & {
	claimId?: string;
};

function orderEntry(
	db: D1Database,
	owner: LedgerOwner,
	order: EntryOrder,
	at: Date,
	condition: WriteCondition | null,
	kind: EntryKind,
): D1PreparedStatement {
	const draft = { owner, at, orderId: order.id, currency: order.currency, ...kind, claimId: kind.claimId ?? null };
	return entryStatement(db, draft, condition);
}

/** The order's charge at its release to the floor: its total and the tax on its taxable part, once (`charge:<order>`). */
export function chargeEntry(
	db: D1Database,
	owner: LedgerOwner,
	order: EntryOrder,
	total: TaxedAmount,
	at: Date,
	condition: WriteCondition | null,
): D1PreparedStatement {
	const memo = `Order ${order.externalId}`;
	const kind = {
		type: "charge",
		amount: total.cents,
		tax: taxOn(total.taxableCents, order.tax),
		memo,
		causeKey: `charge:${order.id}`,
		needsCharge: false,
	} as const;
	return orderEntry(db, owner, order, at, condition, kind);
}

/**
 * The difference a change of a charged order's costs makes, taxed on the difference of its taxable
 * parts (`reprice:<order>:<version>`); nothing before its charge.
 */
export function repricingEntry(
	db: D1Database,
	owner: LedgerOwner,
	order: EntryOrder & { version: number },
	difference: TaxedAmount,
	at: Date,
	condition: WriteCondition | null,
): D1PreparedStatement {
	const causeKey = `reprice:${order.id}:${order.version}`;
	const memo = `Order ${order.externalId} repriced`;
	const tax = taxOn(difference.taxableCents, order.tax);
	const kind = { type: "repricing", amount: difference.cents, tax, memo, causeKey, needsCharge: true } as const;
	return orderEntry(db, owner, order, at, condition, kind);
}

/**
 * A canceled order's charge (and its repricings) given back with exactly the tax they charged
 * (`cancel:<order>`); nothing when it was never charged.
 */
export function cancellationEntry(
	db: D1Database,
	owner: LedgerOwner,
	order: EntryOrder,
	at: Date,
	condition: WriteCondition | null,
): D1PreparedStatement {
	const memo = `Order ${order.externalId} canceled`;
	const causeKey = `cancel:${order.id}`;
	const tax = { ...taxOn(0, order.tax), cents: CHARGED_TAX } as const;
	const kind = { type: "cancellation_credit", amount: CHARGED_NET, tax, memo, causeKey, needsCharge: true } as const;
	return orderEntry(db, owner, order, at, condition, kind);
}

/** A refund remedy's credit (`claim:<claim>`), a negative amount, and the tax on it at the order's rule given back. */
export function claimCreditEntry(
	db: D1Database,
	owner: LedgerOwner,
	claim: { id: string; order: EntryOrder; creditCents: number },
	at: Date,
	condition: WriteCondition | null,
): D1PreparedStatement {
	const memo = `Claim ${claim.id} on order ${claim.order.externalId}`;
	const kind = {
		type: "claim_credit",
		amount: -claim.creditCents,
		tax: taxOn(-claim.creditCents, claim.order.tax),
		memo,
		causeKey: `claim:${claim.id}`,
		needsCharge: false,
	} as const;
	return orderEntry(db, owner, claim.order, at, condition, { ...kind, claimId: claim.id });
}

/** Writes an adjustment by the service team (`adjust:<entry>`), taxed on its amount under `tax`, and returns it. */
export async function writeAdjustment(
	db: D1Database,
	owner: LedgerOwner,
	adjustment: { amountCents: number; currency: string; memo: string; tax: EntryTaxRule },
	at: Date,
): Promise<LedgerEntry> {
	const id = newOrderedId("led");
	const tax = taxOn(adjustment.amountCents, adjustment.tax);
	await db
		.prepare(`${INSERT} VALUES (?1, ?2, ?3, ?4, 'adjustment', NULL, NULL, ?5, ?6, ?7, 'adjust:' || ?1, ?8, ?9, ?10)`)
		.bind(
			id,
			owner.accountId,
			owner.mode,
			at.toISOString(),
			adjustment.amountCents,
			adjustment.currency,
			adjustment.memo,
			tax.cents,
			tax.treatment,
			tax.rate_bp,
		)
		.run();
	return {
		id,
		at: at.toISOString(),
		type: "adjustment",
		order_id: null,
		claim_id: null,
		amount_cents: adjustment.amountCents,
		currency: adjustment.currency,
		memo: adjustment.memo,
		tax_cents: tax.cents,
		tax_treatment: tax.treatment,
		tax_rate_bp: tax.rate_bp,
	};
}

/**
 * SQL true when the order in `ordersAlias` has no charge yet, for a sweep that finds released orders
 * left uncharged (the charge's cause key is indexed, so each order costs one lookup).
 */
export function unchargedCondition(orderIdColumn: string): string {
	return `NOT EXISTS (SELECT 1 FROM ledger_entries WHERE cause_key = 'charge:' || ${orderIdColumn})`;
}

/** A month of the ledger as a statement reads it: the closing balance before it in each currency, and its entries. */
export type LedgerMonth = { openingByCurrency: ReadonlyMap<string, number>; entries: LedgerEntry[] };

/**
 * A month's statement reads, as a read that can share a batch: the closing balance, in each currency the
 * account had entries in, of the latest earlier month with entries in it (a row of ledger_months per
 * currency), and the month's entries in order.
 */
export function monthOfLedgerRead(
	db: D1Database,
	owner: LedgerOwner,
	month: string,
	bounds: { start: string; end: string },
): BatchedRead<LedgerMonth> {
	return {
		statements: [
			db
				.prepare(
					`SELECT currency, closing_balance_cents FROM ledger_months AS earlier
					 WHERE account_id = ?1 AND mode = ?2 AND month < ?3
					   AND month = (SELECT MAX(month) FROM ledger_months
					     WHERE account_id = ?1 AND mode = ?2 AND currency = earlier.currency AND month < ?3)`,
				)
				.bind(owner.accountId, owner.mode, month),
			db
				.prepare(
					`SELECT ${ENTRY_COLUMNS} FROM ledger_entries
					 WHERE account_id = ?1 AND mode = ?2 AND at >= ?3 AND at < ?4 ORDER BY at, id`,
				)
				.bind(owner.accountId, owner.mode, bounds.start, bounds.end),
		],
		read: ([openings, entries]) => {
			const rows = (openings?.results ?? []) as { currency: string; closing_balance_cents: number }[];
			return {
				openingByCurrency: new Map(rows.map((row) => [row.currency, row.closing_balance_cents])),
				entries: (entries?.results ?? []) as LedgerEntry[],
			};
		},
	};
}

/**
 * An account's balance at the end of a month: the month's net and closing (the opening is closing less
 * net), in the currency of its latest month with entries (USD when it has none).
 */
export type MonthBalance = { accountId: string; currency: string; netCents: number; closingCents: number };

/**
 * Each account's balance at the end of `month` in `mode`, in one batch of one indexed row per account
 * (its latest month with entries up to `month`): the console's overview of every partner's month.
 */
export async function monthBalances(
	db: D1Database,
	accountIds: readonly string[],
	mode: string,
	month: string,
): Promise<MonthBalance[]> {
	if (accountIds.length === 0) return [];
	const results = await db.batch(
		accountIds.map((accountId) =>
			db
				.prepare(
					`SELECT month, currency, net_cents, closing_balance_cents FROM ledger_months
					 WHERE account_id = ?1 AND mode = ?2 AND month <= ?3 ORDER BY month DESC LIMIT 1`,
				)
				.bind(accountId, mode, month),
		),
	);
	return accountIds.map((accountId, index) => {
		const row = results[index]?.results[0] as
			| { month: string; currency: string; net_cents: number; closing_balance_cents: number }
			| undefined;
		return {
			accountId,
			currency: row?.currency ?? "USD",
			netCents: row?.month === month ? row.net_cents : 0,
			closingCents: row?.closing_balance_cents ?? 0,
		};
	});
}

/** An account's entries of one mode in one currency: their sum, and how many were made from a given time on. */
export type CurrencyHold = { mode: string; currency: string; balanceCents: number; entriesSince: number };

/**
 * What holds an account to its billing currency: per mode and currency, the balance of all its entries
 * and the number of entries from `since` (the start of the current month) on. One row per mode and
 * currency the account has entries in; none for an account without entries.
 */
export async function currencyLockOf(db: D1Database, accountId: string, since: Date): Promise<CurrencyHold[]> {
	const { results } = await db
		.prepare(
			`SELECT mode, currency, COALESCE(SUM(amount_cents), 0) AS balance_cents,
			  SUM(CASE WHEN at >= ?2 THEN 1 ELSE 0 END) AS entries_since
			 FROM ledger_entries WHERE account_id = ?1 GROUP BY mode, currency ORDER BY mode, currency`,
		)
		.bind(accountId, since.toISOString())
		.all<{ mode: string; currency: string; balance_cents: number; entries_since: number }>();
	return results.map((row) => ({
		mode: row.mode,
		currency: row.currency,
		balanceCents: row.balance_cents,
		entriesSince: row.entries_since,
	}));
}
