import type { Owner } from "./owner.ts";
import type { Statement } from "./provisioning.ts";
import { type KeyMode, parseScopes, type Scope } from "./scopes.ts";

/** Rate limits in force for an account: the service defaults unless an admin overrode them. */
export type AccountLimits = { requestsPerMinute: number; ordersPerSecond: number; orderBurst: number };

/** The service's limits for an account no admin has changed: requests a minute, and the order-creation bucket (rate and burst). */
export const DEFAULT_LIMITS: AccountLimits = { requestsPerMinute: 120, ordersPerSecond: 1, orderBurst: 30 };

/** Who is calling: set by the auth middleware from the key's row. */
export type Principal = {
	keyId: string;
	accountId: string;
	mode: KeyMode;
	scopes: Scope[];
	limits: AccountLimits;
	/** Minutes after creation the account's orders stay editable and unseen by the floor (0: none). */
	editWindowMinutes: number;
	/** How the sandbox moves the account's new test orders on. */
	sandboxProgress: SandboxProgress;
	/** When the key stops working by itself; null: never. */
	expiresAt: string | null;
	/** When its use was last written (at most once per KEY_USE_RECORD_MINUTES); null: never used. */
	lastUsedAt: string | null;
};

/** How the sandbox moves test orders on: by itself, or only by the partner's sandbox controls. */
export const SANDBOX_PROGRESS = ["automatic", "manual"] as const;
/** One of SANDBOX_PROGRESS. */
export type SandboxProgress = (typeof SANDBOX_PROGRESS)[number];

type KeyRow = {
	key_id: string;
	account_id: string;
	mode: KeyMode;
	scopes: string;
	revoked_at: string | null;
	expires_at: string | null;
	last_used_at: string | null;
	requests_per_minute: number | null;
	orders_per_second: number | null;
	order_burst: number | null;
	edit_window_minutes: number;
	sandbox_progress: SandboxProgress;
};

/** The key with this hash and its account's limits: `revoked` when it was revoked, null when unknown. */
export async function findKeyByHash(db: D1Database, keyHash: string): Promise<Principal | "revoked" | null> {
	const row = await db
		.prepare(
			`SELECT k.id AS key_id, k.account_id, k.mode, k.scopes, k.revoked_at, k.expires_at, k.last_used_at,
			        a.requests_per_minute, a.orders_per_second, a.order_burst, a.edit_window_minutes,
			        a.sandbox_progress
			   FROM api_keys k JOIN accounts a ON a.id = k.account_id
			  WHERE k.key_hash = ?1`,
		)
		.bind(keyHash)
		.first<KeyRow>();
	if (row === null) return null;
	if (row.revoked_at !== null) return "revoked";
	return {
		keyId: row.key_id,
		accountId: row.account_id,
		mode: row.mode,
		scopes: parseScopes(row.scopes),
		limits: limitsFromRow(row),
		editWindowMinutes: row.edit_window_minutes,
		sandboxProgress: row.sandbox_progress,
		expiresAt: row.expires_at,
		lastUsedAt: row.last_used_at,
	};
}

type LimitsRow = Pick<KeyRow, "requests_per_minute" | "orders_per_second" | "order_burst">;

function limitsFromRow(row: LimitsRow): AccountLimits {
	return {
		requestsPerMinute: row.requests_per_minute ?? DEFAULT_LIMITS.requestsPerMinute,
		ordersPerSecond: row.orders_per_second ?? DEFAULT_LIMITS.ordersPerSecond,
		orderBurst: row.order_burst ?? DEFAULT_LIMITS.orderBurst,
	};
}

/** Commits statements as one D1 batch (D1's transaction). */
export async function runBatch(db: D1Database, statements: readonly Statement[]): Promise<void> {
	await db.batch(statements.map((statement) => db.prepare(statement.sql).bind(...statement.params)));
}

/** Whether an account with this id exists. */
export async function accountExists(db: D1Database, accountId: string): Promise<boolean> {
	const row = await db.prepare("SELECT 1 AS found FROM accounts WHERE id = ?1").bind(accountId).first<{ found: 1 }>();
	return row !== null;
}

/** A key's public fields (never its hash). */
export type KeySummary = {
	id: string;
	account_id: string;
	display_prefix: string;
	mode: KeyMode;
	scopes: Scope[];
	created_at: string;
	revoked_at: string | null;
	/** When it stops working by itself; null: never. */
	expires_at: string | null;
	/** When it was last used, to the nearest KEY_USE_RECORD_MINUTES; null: never. */
	last_used_at: string | null;
};

type KeySummaryRow = Omit<KeySummary, "scopes"> & { scopes: string };

const KEY_SUMMARY_COLUMNS =
	"id, account_id, display_prefix, mode, scopes, created_at, revoked_at, expires_at, last_used_at";

/** A key's public fields by id, or null. */
export async function findKeyById(db: D1Database, keyId: string): Promise<KeySummary | null> {
	const row = await db
		.prepare(`SELECT ${KEY_SUMMARY_COLUMNS} FROM api_keys WHERE id = ?1`)
		.bind(keyId)
		.first<KeySummaryRow>();
	return row === null ? null : { ...row, scopes: parseScopes(row.scopes) };
}

/** The most keys a list shows: an account has a handful per mode, not hundreds. */
export const MAX_LISTED_KEYS = 200;

/** The owner's keys (an account in one mode), newest first, revoked ones included. */
export async function listKeys(db: D1Database, owner: Owner): Promise<KeySummary[]> {
	const { results } = await db
		.prepare(
			`SELECT ${KEY_SUMMARY_COLUMNS} FROM api_keys WHERE account_id = ?1 AND mode = ?2 ORDER BY created_at DESC, id DESC LIMIT ?3`,
		)
		.bind(owner.accountId, owner.mode, MAX_LISTED_KEYS)
		.all<KeySummaryRow>();
	return results.map((row) => ({ ...row, scopes: parseScopes(row.scopes) }));
}

/** One of the owner's keys by id, or null (another account's or the other mode's is not found). */
export async function findOwnedKey(db: D1Database, owner: Owner, keyId: string): Promise<KeySummary | null> {
	const key = await findKeyById(db, keyId);
	return key !== null && key.account_id === owner.accountId && key.mode === owner.mode ? key : null;
}

/**
 * The key hashes whose cached principals a change to this key (`keyId`) or to every key of this
 * account (`accountId`) makes stale: each key's limiter holds its principal (src/rate-limit).
 */
export async function keyHashesOf(db: D1Database, of: { keyId: string } | { accountId: string }): Promise<string[]> {
	const { results } =
		"keyId" in of
			? await db.prepare("SELECT key_hash FROM api_keys WHERE id = ?1").bind(of.keyId).all<{ key_hash: string }>()
			: await db
					.prepare("SELECT key_hash FROM api_keys WHERE account_id = ?1")
					.bind(of.accountId)
					.all<{ key_hash: string }>();
	return results.map((row) => row.key_hash);
}

/** Limit overrides to store: a number sets one, null clears it back to the default, absent leaves it. */
export type LimitOverrides = {
	requests_per_minute?: number | null;
	orders_per_second?: number | null;
	order_burst?: number | null;
};

/** Applies overrides and returns the limits now in force, or null when the account does not exist. */
export async function updateLimits(
	db: D1Database,
	accountId: string,
	overrides: LimitOverrides,
): Promise<AccountLimits | null> {
	// ?2..?4 carry the new values; ?5..?7 say whether each was given (absent keeps the stored value).
	const row = await db
		.prepare(
			`UPDATE accounts SET
			   requests_per_minute = CASE WHEN ?5 THEN ?2 ELSE requests_per_minute END,
			   orders_per_second = CASE WHEN ?6 THEN ?3 ELSE orders_per_second END,
			   order_burst = CASE WHEN ?7 THEN ?4 ELSE order_burst END
			 WHERE id = ?1
			 RETURNING requests_per_minute, orders_per_second, order_burst`,
		)
		.bind(
			accountId,
			overrides.requests_per_minute ?? null,
			overrides.orders_per_second ?? null,
			overrides.order_burst ?? null,
			Number(overrides.requests_per_minute !== undefined),
			Number(overrides.orders_per_second !== undefined),
			Number(overrides.order_burst !== undefined),
		)
		.first<LimitsRow>();
	return row === null ? null : limitsFromRow(row);
}

/** An account's id and name, or null when there is no such account. */
export function findAccount(db: D1Database, accountId: string): Promise<{ id: string; name: string } | null> {
	return db
		.prepare("SELECT id, name FROM accounts WHERE id = ?1")
		.bind(accountId)
		.first<{ id: string; name: string }>();
}

/** The names of these accounts by id (the queue's partner column). */
export async function accountNames(db: D1Database, accountIds: readonly string[]): Promise<Map<string, string>> {
	const unique = [...new Set(accountIds)];
	if (unique.length === 0) return new Map();
	const placeholders = unique.map((_, index) => `?${index + 1}`).join(", ");
	const { results } = await db
		.prepare(`SELECT id, name FROM accounts WHERE id IN (${placeholders})`)
		.bind(...unique)
		.all<{ id: string; name: string }>();
	return new Map(results.map((account) => [account.id, account.name]));
}

/** Every account's id and name, by name (the queue's partner filter; the service has partners by the dozen, not millions). */
export async function listAccountNames(db: D1Database): Promise<{ id: string; name: string }[]> {
	const { results } = await db
		.prepare("SELECT id, name FROM accounts ORDER BY name, id LIMIT 1000")
		.all<{ id: string; name: string }>();
	return results;
}

/** Most partners a search by name covers: the queue reads a page of orders for each (listProductionQueue). */
export const NAME_SEARCH_PARTNERS = 100;

/** The partners a search by name covers, and whether more partners' names match than it covers. */
export type PartnersNamed = { ids: string[]; more: boolean };

/**
 * The accounts whose name contains `text` in any case (ASCII letters fold, as they did with LIKE): the
 * first NAME_SEARCH_PARTNERS by name then id (the partner picker's order), and whether more match; or,
 * with `onlyId`, that one account if its name matches, so a partner picked is searched wherever its
 * name falls in that order. `instr`, not LIKE: D1 refuses a LIKE pattern over 50 bytes, which a search
 * of 128 characters (or 25 escaped `%`) passes, and `instr` takes the text as it is, `%` and `_`
 * included, with no pattern to build.
 */
export async function accountsNamed(db: D1Database, text: string, onlyId?: string): Promise<PartnersNamed> {
	const statement =
		onlyId === undefined
			? db
					.prepare("SELECT id FROM accounts WHERE instr(lower(name), lower(?1)) > 0 ORDER BY name, id LIMIT ?2")
					.bind(text, NAME_SEARCH_PARTNERS + 1)
			: db.prepare("SELECT id FROM accounts WHERE id = ?2 AND instr(lower(name), lower(?1)) > 0").bind(text, onlyId);
	const { results } = await statement.all<{ id: string }>();
	return {
		ids: results.slice(0, NAME_SEARCH_PARTNERS).map((row) => row.id),
		more: results.length > NAME_SEARCH_PARTNERS,
	};
}

/** An account's settings: the edit window of its new orders, in minutes. */
export type AccountSettings = { edit_window_minutes: number };

/** Stores an account's settings and returns them, or null when the account does not exist. */
export function updateSettings(
	db: D1Database,
	accountId: string,
	settings: AccountSettings,
): Promise<AccountSettings | null> {
	return db
		.prepare("UPDATE accounts SET edit_window_minutes = ?2 WHERE id = ?1 RETURNING edit_window_minutes")
		.bind(accountId, settings.edit_window_minutes)
		.first<AccountSettings>();
}

/** Stores how the sandbox moves the account's new test orders on; null when the account does not exist. */
export async function updateSandboxProgress(
	db: D1Database,
	accountId: string,
	progress: SandboxProgress,
): Promise<SandboxProgress | null> {
	const row = await db
		.prepare("UPDATE accounts SET sandbox_progress = ?2 WHERE id = ?1 RETURNING sandbox_progress")
		.bind(accountId, progress)
		.first<{ sandbox_progress: SandboxProgress }>();
	return row?.sandbox_progress ?? null;
}

/** What of an account's settings a new order keeps: its edit window and how the sandbox moves test orders on. */
export type OrderSettings = { editWindowMinutes: number; sandboxProgress: SandboxProgress };

/** The account's settings for its new orders (the API reads them with the key), or null when it does not exist. */
export async function orderSettingsOf(db: D1Database, accountId: string): Promise<OrderSettings | null> {
	const row = await db
		.prepare("SELECT edit_window_minutes, sandbox_progress FROM accounts WHERE id = ?1")
		.bind(accountId)
		.first<{ edit_window_minutes: number; sandbox_progress: SandboxProgress }>();
	return row === null ? null : { editWindowMinutes: row.edit_window_minutes, sandboxProgress: row.sandbox_progress };
}

/**
 * Writes `accountId`'s directory row to `target` as it is in `directory`, unless `target` has it already:
 * an account's database holds a copy of its row for its rows' references (an account move makes it).
 */
export async function copyAccountRow(directory: D1Database, target: D1Database, accountId: string): Promise<void> {
	const row = await directory
		.prepare("SELECT * FROM accounts WHERE id = ?1")
		.bind(accountId)
		.first<Record<string, unknown>>();
	if (row === null || directory === target) return;
	const columns = Object.keys(row);
	await target
		.prepare(
			`INSERT INTO accounts (${columns.join(", ")}) VALUES (${columns.map((_, index) => `?${index + 1}`).join(", ")}) ON CONFLICT DO NOTHING`,
		)
		.bind(...columns.map((column) => row[column] ?? null))
		.run();
}
