/**
 * Seeding a local D1 database with orders straight in SQL (not through the API), for `npm run
 * bench:cost`: each order with its items, the history of its moves, its events and their webhook
 * deliveries, and besides them print files and quotes, spread over 100 partner accounts. Rows are
 * generated inside SQLite by recursive common table expressions over a range of order numbers, so a
 * range of 80,000 orders is a few statements; ranges seeded one after another grow the same database.
 *
 * Order `n` belongs to account `n % 100` and is created `n` × 5 minutes after a base instant a year
 * back. Its status follows its number within its account, `(n / 100) % 20`, so every account has every
 * status from its tenth order on: 70% delivered, 10% shipped, 10% in production, 5% on hold, 5% canceled. Every tenth is a test order (`n % 10 = 7`).
 * Every seventh delivered order has a claim (`wrong_item`, its first item's unit, made the day it was delivered): a
 * third of them submitted, a third approved with a refund, a third rejected.
 * The ledger holds what those orders caused: a charge of each order released to the floor (in production, shipped,
 * delivered, and the canceled ones, canceled from production) when it passed validation, a cancellation credit of
 * each canceled one when it was canceled, and a claim credit of each refunded claim, so a year's entries spread over
 * the months; the trigger of migration 0026 keeps `ledger_months` as each entry is inserted.
 */

/**
 * The statuses a seeded order is in, by `(n / 100) % 20`, and the version its moves bring it to. Orders
 * numbered below `finishedBefore` are all finished: canceled where the rule says canceled, else delivered.
 */
function statusSql(finishedBefore: number): string {
	return `CASE WHEN n < ${finishedBefore} THEN CASE (n / 100) % 20 WHEN 4 THEN 'canceled' ELSE 'delivered' END
  ELSE CASE (n / 100) % 20
  WHEN 1 THEN 'shipped' WHEN 6 THEN 'shipped'
  WHEN 2 THEN 'in_production' WHEN 5 THEN 'in_production'
  WHEN 3 THEN 'on_hold'
  WHEN 4 THEN 'canceled'
  ELSE 'delivered' END END`;
}

function versionSql(finishedBefore: number): string {
	return `CASE WHEN n < ${finishedBefore} THEN CASE (n / 100) % 20 WHEN 4 THEN 4 ELSE 5 END
  ELSE CASE (n / 100) % 20
  WHEN 1 THEN 4 WHEN 6 THEN 4
  WHEN 2 THEN 3 WHEN 5 THEN 3
  WHEN 3 THEN 3
  WHEN 4 THEN 4
  ELSE 5 END END`;
}

/** Every seventh order, when delivered, has a claim on its first item's unit (about 10% of the orders). */
const CLAIM_EVERY = 7;

/** A seeded claim's status by `(n / 7) % 3`: a third each submitted, approved with a refund, rejected. */
const CLAIM_STATUS_SQL = `CASE (n / ${CLAIM_EVERY}) % 3 WHEN 0 THEN 'submitted' WHEN 1 THEN 'approved' ELSE 'rejected' END`;

/** Where seeded webhooks would go: a loopback port nobody listens on (the discard port), so an attempt fails at once. */
export const SEED_HOOK_URL = "http://127.0.0.1:9/hooks";

/** Seconds between two seeded orders' creation. */
const SPACING_SECONDS = 300;

function sqlText(value: string): string {
	return `'${value.replaceAll("'", "''")}'`;
}

/**
 * The SQL that seeds orders `from` to `to - 1` (each with everything it comes with), for accounts
 * given in order (account `i` gets orders with `n % accounts.length = i`). `baseUnix` is order 0's
 * creation, in unix seconds. `finishedBefore` (none by default) makes the orders numbered below it all
 * delivered or canceled: the old history of `npm run bench:capacity`'s archive.
 */
export function seedOrdersSql(options: {
	from: number;
	to: number;
	accounts: readonly string[];
	baseUnix: number;
	finishedBefore?: number;
}): string {
	const { from, to, accounts, baseUnix, finishedBefore = 0 } = options;
	const statusCase = statusSql(finishedBefore);
	const versionCase = versionSql(finishedBefore);
	const count = accounts.length;
	const seq = `WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to - 1})`;
	// A row per order with what every table derives from it.
	const order = `${seq}, o AS (
  SELECT n,
    'ord_seed' || printf('%08d', n) AS id,
    (SELECT id FROM bench_seed_accounts WHERE idx = n % ${count}) AS account_id,
    CASE WHEN n % 10 = 7 THEN 'test' ELSE 'live' END AS mode,
    'PO-' || printf('%08d', n) AS external_id,
    ${statusCase} AS status,
    ${versionCase} AS version,
    CASE WHEN n % 2 = 0 THEN ${sqlText(SEED_HOOK_URL)} ELSE NULL END AS callback_url,
    strftime('%Y-%m-%dT%H:%M:%fZ', ${baseUnix} + n * ${SPACING_SECONDS}, 'unixepoch') AS created_at,
    strftime('%Y-%m-%dT%H:%M:%fZ', ${baseUnix} + n * ${SPACING_SECONDS} + 86400, 'unixepoch') AS updated_at,
    strftime('%Y-%m-%dT%H:%M:%fZ', ${baseUnix} + n * ${SPACING_SECONDS} + 3600, 'unixepoch') AS validated_at,
    strftime('%Y-%m-%dT%H:%M:%fZ', ${baseUnix} + n * ${SPACING_SECONDS} + 43200, 'unixepoch') AS shipped_at,
    strftime('%Y-%m-%dT%H:%M:%fZ', ${baseUnix} + n * ${SPACING_SECONDS} + 86400, 'unixepoch') AS delivered_at
  FROM seq)`;
	// One row per move of each order: 1 create, 2 start_validation, 3 pass or fail validation, 4 ship or cancel, 5 deliver.
	const steps = `steps(s) AS (VALUES (1), (2), (3), (4), (5)), m AS (
  SELECT o.*, s,
    CASE s WHEN 1 THEN 'received' WHEN 2 THEN 'validating'
      WHEN 3 THEN CASE status WHEN 'on_hold' THEN 'on_hold' ELSE 'in_production' END
      WHEN 4 THEN CASE status WHEN 'canceled' THEN 'canceled' ELSE 'shipped' END
      ELSE 'delivered' END AS to_status,
    CASE s WHEN 1 THEN NULL WHEN 2 THEN 'received' WHEN 3 THEN 'validating' WHEN 4 THEN 'in_production' ELSE 'shipped' END
      AS from_status,
    CASE s WHEN 1 THEN 'create' WHEN 2 THEN 'start_validation'
      WHEN 3 THEN CASE status WHEN 'on_hold' THEN 'fail_validation' ELSE 'pass_validation' END
      WHEN 4 THEN CASE status WHEN 'canceled' THEN 'cancel' ELSE 'ship' END
      ELSE 'deliver' END AS move,
    CASE s WHEN 1 THEN created_at WHEN 2 THEN created_at WHEN 3 THEN validated_at WHEN 4 THEN shipped_at ELSE delivered_at END
      AS at
  FROM o JOIN steps ON s <= o.version)`;
	const eventType = `CASE to_status WHEN 'received' THEN 'order.received' ELSE 'order.' || to_status END`;
	return `
${order}
INSERT INTO orders (id, account_id, mode, external_id, request_hash, status, version, write_token, ship_to, callback_url,
  hold_reason, hold_details, tracking_carrier, tracking_number, tracking_url, created_at, updated_at, shipped_at,
  delivered_at, canceled_at, gift_message, shipping_method, quote_id, costs)
SELECT id, account_id, mode, external_id, printf('%064d', n), status, version, 'seed', 
  json_object('name', 'Buyer ' || n, 'address1', n || ' Harbour Street', 'city', 'Portland', 'state', 'ME', 'zip', '04101', 'country', 'US'),
  callback_url,
  CASE status WHEN 'on_hold' THEN 'file_unreadable' ELSE NULL END,
  CASE status WHEN 'on_hold' THEN '[{"item_index":0,"reason":"file_unreadable","detail":"The file could not be fetched."}]' ELSE '[]' END,
  CASE WHEN status IN ('shipped', 'delivered') THEN 'UPS' END,
  CASE WHEN status IN ('shipped', 'delivered') THEN '1Z' || printf('%016d', n) END,
  CASE WHEN status IN ('shipped', 'delivered') THEN 'https://www.ups.com/track?tracknum=1Z' || printf('%016d', n) END,
  created_at, updated_at,
  CASE WHEN status IN ('shipped', 'delivered') THEN shipped_at END,
  CASE WHEN status = 'delivered' THEN delivered_at END,
  CASE WHEN status = 'canceled' THEN shipped_at END,
  NULL, 'standard', NULL,
  '{"currency":"USD","items":4000,"shipping":1155,"total":5155,"price_book_version":1,"quote_id":null}'
FROM o;

${seq}, o AS (SELECT n, 'ord_seed' || printf('%08d', n) AS id FROM seq), pos(p) AS (VALUES (0), (1))
INSERT INTO order_items (id, order_id, position, print_file_id, print_file_url, width_in, height_in, frame, mat, quantity,
  effective_dpi, warnings, mat_border_in, mat_bottom_border_in, inner_mat, inner_mat_reveal_in, glazing, paper, fit, priced,
  cropped_percent)
SELECT 'itm_seed' || printf('%08d', n) || '_' || p, id, p, NULL, 'http://127.0.0.1:9/print-' || n || '.png', 8, 10,
  'walnut-flat-075', 'bright-white', 1, 300, '[]', 2, 2, NULL, NULL, 'acrylic', 'archival-matte', 'fill', NULL, 0
FROM o JOIN pos ON p = 0 OR n % 3 = 0;

${order}, ${steps}
INSERT INTO order_moves (order_id, version, move, actor, from_status, to_status, note, created_at)
SELECT id, s, move,
  CASE move WHEN 'create' THEN 'partner' WHEN 'cancel' THEN 'partner' WHEN 'ship' THEN 'operator' WHEN 'deliver' THEN 'operator'
    ELSE 'system' END,
  from_status, to_status, NULL, at
FROM m;

${order}, ${steps}
INSERT INTO events (id, account_id, mode, order_id, type, body, created_at)
SELECT 'evt_seed' || printf('%08d', n) || '_' || s, account_id, mode, id, ${eventType},
  json_object('id', 'evt_seed' || printf('%08d', n) || '_' || s, 'event', ${eventType}, 'created_at', at, 'order_id', id,
    'external_id', external_id, 'status', to_status, 'version', s),
  at
FROM m WHERE s <> 2;

${order}, ${steps}
INSERT INTO deliveries (id, event_id, endpoint_id, account_id, mode, url, status, attempts, next_attempt_at, enqueued_at,
  last_attempt_at, last_status_code, last_error, delivered_at, created_at)
SELECT 'dlv_seed' || printf('%08d', n) || '_' || s, 'evt_seed' || printf('%08d', n) || '_' || s, NULL, account_id, mode,
  callback_url, CASE WHEN callback_url IS NULL THEN 'no_endpoint' ELSE 'delivered' END,
  CASE WHEN callback_url IS NULL THEN 0 ELSE 1 END, NULL, NULL,
  CASE WHEN callback_url IS NULL THEN NULL ELSE at END,
  CASE WHEN callback_url IS NULL THEN NULL ELSE 204 END, NULL,
  CASE WHEN callback_url IS NULL THEN NULL ELSE at END, at
FROM m WHERE s >= 3;

${order}
INSERT INTO print_files (id, account_id, mode, status, filename, content_type, declared_size_bytes, r2_key, created_at,
  expires_at, uploaded_at, format, width_px, height_px, size_bytes, inspected_at, inspection_bytes_read, r2_etag,
  retention_clock)
SELECT 'pf_seed' || printf('%08d', n), account_id, mode, 'ready', 'print-' || n || '.tif', 'image/tiff', NULL,
  'seed/' || printf('%08d', n), created_at, created_at, created_at, 'tiff', 2400, 3000, 21600122, created_at, 4794,
  'seed-etag-' || n, created_at
FROM o;

${order}
INSERT INTO claims (id, account_id, mode, order_id, reason, description, photos, status, resolution, resolution_id,
  created_at, resolved_at)
SELECT 'clm_seed' || printf('%08d', n), account_id, mode, id, 'wrong_item', 'A landscape came instead of the portrait.', '[]',
  ${CLAIM_STATUS_SQL},
  CASE (n / ${CLAIM_EVERY}) % 3 WHEN 0 THEN NULL
    ELSE json_object('remedy', CASE (n / ${CLAIM_EVERY}) % 3 WHEN 1 THEN 'refund' END, 'reprint_order_id', NULL,
      'credit_cents', CASE (n / ${CLAIM_EVERY}) % 3 WHEN 1 THEN 4000 END, 'message', NULL, 'resolved_at', delivered_at) END,
  CASE (n / ${CLAIM_EVERY}) % 3 WHEN 0 THEN NULL ELSE 'seed' || n END,
  delivered_at,
  CASE (n / ${CLAIM_EVERY}) % 3 WHEN 0 THEN NULL ELSE delivered_at END
FROM o WHERE status = 'delivered' AND n % ${CLAIM_EVERY} = 0;

${seq}, o AS (SELECT n, ${statusCase} AS status FROM seq)
INSERT INTO claim_items (claim_id, item_id, quantity)
SELECT 'clm_seed' || printf('%08d', n), 'itm_seed' || printf('%08d', n) || '_0', 1
FROM o WHERE status = 'delivered' AND n % ${CLAIM_EVERY} = 0;

${order}
INSERT INTO ledger_entries (id, account_id, mode, at, type, order_id, claim_id, amount_cents, currency, memo, cause_key)
SELECT 'led_seedc' || printf('%08d', n), account_id, mode, validated_at, 'charge', id, NULL, 5155, 'USD',
  'Order ' || external_id, 'charge:' || id
FROM o WHERE status <> 'on_hold' ORDER BY n;

${order}
INSERT INTO ledger_entries (id, account_id, mode, at, type, order_id, claim_id, amount_cents, currency, memo, cause_key)
SELECT 'led_seedx' || printf('%08d', n), account_id, mode, shipped_at, 'cancellation_credit', id, NULL, -5155, 'USD',
  'Order ' || external_id || ' canceled', 'cancel:' || id
FROM o WHERE status = 'canceled' ORDER BY n;

${order}
INSERT INTO ledger_entries (id, account_id, mode, at, type, order_id, claim_id, amount_cents, currency, memo, cause_key)
SELECT 'led_seedk' || printf('%08d', n), account_id, mode, delivered_at, 'claim_credit', id, 'clm_seed' || printf('%08d', n),
  -4000, 'USD', 'Claim clm_seed' || printf('%08d', n) || ' on order ' || external_id, 'claim:clm_seed' || printf('%08d', n)
FROM o WHERE status = 'delivered' AND n % ${CLAIM_EVERY} = 0 AND (n / ${CLAIM_EVERY}) % 3 = 1 ORDER BY n;

${order}
INSERT INTO quotes (id, account_id, mode, price_book_version, created_at, expires_at, body)
SELECT 'quo_seed' || printf('%08d', n), account_id, mode, 1, created_at, created_at, '{"seeded":true}'
FROM o WHERE n % 10 = 0;
`;
}

/** The table that maps account numbers to ids while seeding (dropped by `dropSeedAccountsSql`). */
export function seedAccountsSql(accounts: readonly string[]): string {
	const rows = accounts.map((id, index) => `(${index}, ${sqlText(id)})`).join(",\n  ");
	return `DROP TABLE IF EXISTS bench_seed_accounts;
CREATE TABLE bench_seed_accounts (idx INTEGER PRIMARY KEY, id TEXT NOT NULL);
INSERT INTO bench_seed_accounts (idx, id) VALUES
  ${rows};
`;
}

export const DROP_SEED_ACCOUNTS_SQL = "DROP TABLE IF EXISTS bench_seed_accounts;\n";

/**
 * The most each cron job takes in one run (src/index.ts's `cron`): stalled orders restarted
 * (src/orders/resume.ts), overdue deliveries enqueued (src/webhooks/sweep.ts), overdue thumbnails sent
 * again (src/thumbnails/consumer.ts), orders charged at their edit window's end
 * (src/orders/ledger-moves.ts), events archived (ARCHIVE_BATCH) and print files expired (RETENTION_BATCH).
 * Keyed by the names the tracer's cron entry runs them under; test/cost/cron-jobs.test.ts holds each
 * job to its number.
 */
export const CRON_BATCHES = {
	"restart-stalled-orders": 100,
	"sweep-deliveries": 100,
	"sweep-thumbnails": 50,
	"charge-released-orders": 100,
	"archive-events": 500,
	"expire-print-files": 50,
} as const;

export type CronJobName = keyof typeof CRON_BATCHES;

/** `WITH RECURSIVE k(i)`: the numbers 0 to `count - 1`, for seeding `count` rows of one kind in one statement. */
function numbers(count: number): string {
	return `WITH RECURSIVE k(i) AS (SELECT 0 WHERE ${count} > 0 UNION ALL SELECT i + 1 FROM k WHERE i < ${count - 1})`;
}

/** An ISO instant `secondsBefore` before `nowUnix`, in SQL. */
function instantSql(nowUnix: number, secondsBefore = 0): string {
	return `strftime('%Y-%m-%dT%H:%M:%fZ', ${nowUnix - secondsBefore}, 'unixepoch')`;
}

/**
 * What the cron's four safety nets find due at `nowUnix` (each `count` times, labelled `tag` for unique
 * ids), as a minute after an outage would leave them, all of `accountId`'s live mode: orders left
 * `received` an hour ago (restarted; their file URL is refused, so they end on hold), pending deliveries an
 * hour overdue (enqueued; the queue hands them to their sender), ready files whose thumbnail's message
 * was sent an hour ago and never answered (sent again), and orders in production whose edit window ended
 * an hour ago with no charge (charged).
 */
export function cronWorkDueSql(options: {
	tag: string;
	accountId: string;
	nowUnix: number;
	counts: Pick<
		Record<CronJobName, number>,
		"restart-stalled-orders" | "sweep-deliveries" | "sweep-thumbnails" | "charge-released-orders"
	>;
}): string {
	const { tag, nowUnix, counts } = options;
	const account = sqlText(options.accountId);
	const hourAgo = instantSql(nowUnix, 3600);
	const label = sqlText(tag);
	const costs = sqlText(
		'{"currency":"USD","items":4000,"shipping":1155,"total":5155,"price_book_version":1,"quote_id":null}',
	);
	const shipTo = sqlText(
		'{"name":"Cron Buyer","address1":"1 Main St","city":"Portland","state":"OR","zip":"97201","country":"US"}',
	);
	/** `count` orders of `kind` in `status`, each with one item, its create move and `extra` columns. */
	const orders = (kind: string, count: number, status: string, extra: { columns: string; values: string }) => `
${numbers(count)}
INSERT INTO orders (id, account_id, mode, external_id, request_hash, status, version, write_token, ship_to, callback_url,
  hold_details, created_at, updated_at, shipping_method, costs${extra.columns})
SELECT 'ord_${kind}' || ${label} || '_' || i, ${account}, 'live', '${kind.toUpperCase()}-' || ${label} || '-' || i,
  printf('%064d', i), ${sqlText(status)}, 1, 'seed', ${shipTo}, NULL, '[]', ${hourAgo}, ${hourAgo}, 'standard', ${costs}${extra.values}
FROM k;
${numbers(count)}
INSERT INTO order_items (id, order_id, position, print_file_url, width_in, height_in, quantity, warnings, glazing, paper, fit)
SELECT 'itm_${kind}' || ${label} || '_' || i, 'ord_${kind}' || ${label} || '_' || i, 0, 'http://127.0.0.1:9/${kind}.png', 8, 10, 1,
  '[]', 'none', 'archival-matte', 'fill'
FROM k;
${numbers(count)}
INSERT INTO order_moves (order_id, version, move, actor, from_status, to_status, created_at)
SELECT 'ord_${kind}' || ${label} || '_' || i, 1, 'create', 'partner', NULL, 'received', ${hourAgo}
FROM k;
`;
	return `${orders("stall", counts["restart-stalled-orders"], "received", { columns: "", values: "" })}
${orders("charge", counts["charge-released-orders"], "in_production", {
	columns: ", editable_until, awaiting_charge",
	values: `, ${hourAgo}, 1`,
})}
${numbers(counts["sweep-deliveries"])}
INSERT INTO events (id, account_id, mode, order_id, type, body, created_at)
SELECT 'evt_overdue' || ${label} || '_' || i, ${account}, 'live', 'ord_seed00000001', 'order.shipped', '{"seeded":true}', ${hourAgo}
FROM k;
${numbers(counts["sweep-deliveries"])}
INSERT INTO deliveries (id, event_id, endpoint_id, account_id, mode, url, status, attempts, next_attempt_at, created_at)
SELECT 'dlv_overdue' || ${label} || '_' || i, 'evt_overdue' || ${label} || '_' || i, NULL, ${account}, 'live',
  ${sqlText(SEED_HOOK_URL)}, 'pending', 1, ${hourAgo}, ${hourAgo}
FROM k;
${numbers(counts["sweep-thumbnails"])}
INSERT INTO print_files (id, account_id, mode, status, filename, content_type, declared_size_bytes, r2_key, created_at,
  expires_at, uploaded_at, format, width_px, height_px, size_bytes, inspected_at, inspection_bytes_read, r2_etag,
  retention_clock, thumbnail_status, thumbnail_queued_at)
SELECT 'pf_thumb' || ${label} || '_' || i, ${account}, 'live', 'ready', 'thumb-' || i || '.tif', 'image/tiff', NULL,
  'seed/thumb-' || ${label} || '-' || i, ${hourAgo}, ${hourAgo}, ${hourAgo}, 'tiff', 2400, 3000, 21600122, ${hourAgo}, 4794,
  'seed-etag-thumb-' || i, ${hourAgo}, 'pending', ${hourAgo}
FROM k;
`;
}

/**
 * The seeded backlog worked off as the cron's catch-up runs leave it at `nowUnix`, but for one batch
 * of each retention job: every event past `eventRetentionDays` archived (out of D1, with its
 * deliveries) but the newest `keepEvents` of them, every file past `fileRetentionDays` expired and
 * purged but the newest `keepFiles` of them (the seeded files are on no order, so the sweep would expire
 * them all), pending deliveries and thumbnails already sent again, as the sweeps leave them. Events a
 * pending delivery holds stay, as the archive leaves them.
 */
export function drainCronBacklogSql(options: {
	nowUnix: number;
	eventRetentionDays: number;
	fileRetentionDays: number;
	keepEvents: number;
	keepFiles: number;
}): string {
	const { nowUnix, keepEvents, keepFiles } = options;
	const now = instantSql(nowUnix);
	// The archive's cutoff: the start of the UTC day the window's edge falls in (src/webhooks/archive.ts).
	const eventEdge = nowUnix - options.eventRetentionDays * 86400;
	const eventCutoff = instantSql(eventEdge - (eventEdge % 86400));
	const fileCutoff = instantSql(nowUnix, options.fileRetentionDays * 86400);
	return `DROP TABLE IF EXISTS bench_archived_events;
CREATE TABLE bench_archived_events (id TEXT PRIMARY KEY);
INSERT INTO bench_archived_events (id)
SELECT id FROM events e WHERE created_at < ${eventCutoff}
  AND NOT EXISTS (SELECT 1 FROM deliveries p WHERE p.event_id = e.id AND p.status = 'pending')
ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ${keepEvents};
DELETE FROM deliveries WHERE event_id IN (SELECT id FROM bench_archived_events);
DELETE FROM events WHERE id IN (SELECT id FROM bench_archived_events);
DROP TABLE bench_archived_events;
UPDATE print_files SET expired_at = ${now}, purged_at = ${now}
 WHERE id IN (SELECT id FROM print_files WHERE expired_at IS NULL AND retention_clock <= ${fileCutoff}
   ORDER BY retention_clock DESC LIMIT -1 OFFSET ${keepFiles});
UPDATE print_files SET purged_at = ${now} WHERE expired_at IS NOT NULL AND purged_at IS NULL;
UPDATE deliveries SET next_attempt_at = ${now} WHERE status = 'pending' AND next_attempt_at < ${now};
UPDATE print_files SET thumbnail_queued_at = ${now} WHERE thumbnail_status = 'pending' AND thumbnail_queued_at < ${now};
`;
}
