/**
 * The ledger's statements: one entry per cause (its `cause_key` is unique, so a move replayed or raced
 * writes one entry), each written in the batch of the move that causes it under that move's condition,
 * and the reads a monthly statement needs.
 */
import { newOrderedId } from "../ids.ts";
import { conditionAfter, type WriteCondition } from "../webhooks/store.ts";

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
};

/** Whose ledger an entry goes in. */
export type LedgerOwner = { accountId: string; mode: string };

/** The order an entry is about: its id, and its external id for the memo. */
export type EntryOrder = { id: string; externalId: string; currency: string };

const INSERT = `INSERT INTO ledger_entries (id, account_id, mode, at, type, order_id, claim_id, amount_cents, currency, memo, cause_key)`;
/** The charge the order has, with what repriced it since: what a cancellation gives back. */
const CHARGED_NET = `(SELECT COALESCE(SUM(amount_cents), 0) FROM ledger_entries WHERE order_id = ?6 AND type IN ('charge', 'repricing'))`;
const HAS_CHARGE = `EXISTS (SELECT 1 FROM ledger_entries WHERE cause_key = 'charge:' || ?6)`;

type EntryDraft = {
	owner: LedgerOwner;
	at: Date;
	type: EntryType;
	orderId: string | null;
	claimId: string | null;
	/** A number of cents, or SQL reading it (numbered as the insert's own parameters). */
	amount: number | typeof CHARGED_NET;
	currency: string;
	memo: string;
	causeKey: string;
	/** Only when the order already has its charge. */
	needsCharge: boolean;
};

function entryStatement(db: D1Database, draft: EntryDraft, condition: WriteCondition | null): D1PreparedStatement {
	const guards: string[] = [];
	if (draft.needsCharge) guards.push(HAS_CHARGE);
	if (condition !== null) guards.push(conditionAfter(condition, 11));
	const where = guards.length === 0 ? "WHERE 1" : `WHERE ${guards.join(" AND ")}`;
	const amount = typeof draft.amount === "number" ? "?8" : `-${draft.amount}`;
	return db
		.prepare(
			`${INSERT} SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ${amount}, ?9, ?10, ?11 ${where} ON CONFLICT (cause_key) DO NOTHING`,
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
			...(condition?.params ?? []),
		);
}

/** What sets one order entry apart from another: its type, amount, memo and cause, and whether it needs the charge. */
type EntryKind = Pick<EntryDraft, "type" | "amount" | "memo" | "causeKey" | "needsCharge"> & { claimId?: string };

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

/** The order's charge at its release to the floor: its total, once (`charge:<order>`). */
export function chargeEntry(
	db: D1Database,
	owner: LedgerOwner,
	order: EntryOrder,
	totalCents: number,
	at: Date,
	condition: WriteCondition | null,
): D1PreparedStatement {
	const memo = `Order ${order.externalId}`;
	const kind = {
		type: "charge",
		amount: totalCents,
		memo,
		causeKey: `charge:${order.id}`,
		needsCharge: false,
	} as const;
	return orderEntry(db, owner, order, at, condition, kind);
}

/** The difference a change of a charged order's costs makes (`reprice:<order>:<version>`); nothing before its charge. */
export function repricingEntry(
	db: D1Database,
	owner: LedgerOwner,
	order: EntryOrder & { version: number },
	differenceCents: number,
	at: Date,
	condition: WriteCondition | null,
): D1PreparedStatement {
	const causeKey = `reprice:${order.id}:${order.version}`;
	const memo = `Order ${order.externalId} repriced`;
	const kind = { type: "repricing", amount: differenceCents, memo, causeKey, needsCharge: true } as const;
	return orderEntry(db, owner, order, at, condition, kind);
}

/** A canceled order's charge (and its repricings) given back (`cancel:<order>`); nothing when it was never charged. */
export function cancellationEntry(
	db: D1Database,
	owner: LedgerOwner,
	order: EntryOrder,
	at: Date,
	condition: WriteCondition | null,
): D1PreparedStatement {
	const memo = `Order ${order.externalId} canceled`;
	const causeKey = `cancel:${order.id}`;
	const kind = { type: "cancellation_credit", amount: CHARGED_NET, memo, causeKey, needsCharge: true } as const;
	return orderEntry(db, owner, order, at, condition, kind);
}

/** A refund remedy's credit (`claim:<claim>`), a negative amount. */
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
		memo,
		causeKey: `claim:${claim.id}`,
		needsCharge: false,
	} as const;
	return orderEntry(db, owner, claim.order, at, condition, { ...kind, claimId: claim.id });
}

/** Writes an adjustment by the service team (`adjust:<entry>`) and returns it. */
export async function writeAdjustment(
	db: D1Database,
	owner: LedgerOwner,
	adjustment: { amountCents: number; currency: string; memo: string },
	at: Date,
): Promise<LedgerEntry> {
	const id = newOrderedId("led");
	await db
		.prepare(`${INSERT} VALUES (?1, ?2, ?3, ?4, 'adjustment', NULL, NULL, ?5, ?6, ?7, 'adjust:' || ?1)`)
		.bind(
			id,
			owner.accountId,
			owner.mode,
			at.toISOString(),
			adjustment.amountCents,
			adjustment.currency,
			adjustment.memo,
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
	};
}

/**
 * SQL true when the order in `ordersAlias` has no charge yet, for a sweep that finds released orders
 * left uncharged (the charge's cause key is indexed, so each order costs one lookup).
 */
export function unchargedCondition(orderIdColumn: string): string {
	return `NOT EXISTS (SELECT 1 FROM ledger_entries WHERE cause_key = 'charge:' || ${orderIdColumn})`;
}

/**
 * A month's statement reads, in one batch: the closing balance of the latest earlier month with entries
 * (one row of ledger_months), and the month's entries in order.
 */
export async function monthOfLedger(
	db: D1Database,
	owner: LedgerOwner,
	month: string,
	bounds: { start: string; end: string },
): Promise<{ openingCents: number; entries: LedgerEntry[] }> {
	const [opening, entries] = await db.batch([
		db
			.prepare(
				`SELECT closing_balance_cents FROM ledger_months WHERE account_id = ?1 AND mode = ?2 AND month < ?3
				 ORDER BY month DESC LIMIT 1`,
			)
			.bind(owner.accountId, owner.mode, month),
		db
			.prepare(
				`SELECT id, at, type, order_id, claim_id, amount_cents, currency, memo FROM ledger_entries
				 WHERE account_id = ?1 AND mode = ?2 AND at >= ?3 AND at < ?4 ORDER BY at, id`,
			)
			.bind(owner.accountId, owner.mode, bounds.start, bounds.end),
	]);
	const openingRow = opening?.results[0] as { closing_balance_cents: number } | undefined;
	return { openingCents: openingRow?.closing_balance_cents ?? 0, entries: (entries?.results ?? []) as LedgerEntry[] };
}

/** An account's balance at the end of a month: the month's net and closing (the opening is closing less net). */
export type MonthBalance = { accountId: string; netCents: number; closingCents: number };

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
					`SELECT month, net_cents, closing_balance_cents FROM ledger_months
					 WHERE account_id = ?1 AND mode = ?2 AND month <= ?3 ORDER BY month DESC LIMIT 1`,
				)
				.bind(accountId, mode, month),
		),
	);
	return accountIds.map((accountId, index) => {
		const row = results[index]?.results[0] as
			| { month: string; net_cents: number; closing_balance_cents: number }
			| undefined;
		return {
			accountId,
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
