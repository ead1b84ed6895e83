-- Issue 15: webhook endpoints. Besides each order's callback_url, an account registers endpoints per
-- mode, each subscribed to some event types; every event then has one delivery per receiver, each
-- with its own attempts, retries and log.

CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  url TEXT NOT NULL,
  -- The event types it receives, space-separated.
  events TEXT NOT NULL,
  description TEXT,
  created_at TEXT NOT NULL
);
-- One endpoint per URL in an account's mode (a second would send each event twice); also the
-- account's list, and the fan-out's lookup when an event is recorded.
CREATE UNIQUE INDEX webhook_endpoints_by_account_url ON webhook_endpoints (account_id, mode, url);

-- Deliveries get an id of their own: an event now has one per receiver. endpoint_id NULL is the
-- delivery to the order's callback_url (or its no_endpoint record), as every delivery was before.
CREATE TABLE deliveries_by_receiver (
  id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL REFERENCES events (id),
  endpoint_id TEXT,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  url TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'no_endpoint')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  enqueued_at TEXT,
  last_attempt_at TEXT,
  last_status_code INTEGER,
  last_error TEXT,
  delivered_at TEXT,
  created_at TEXT NOT NULL
);
INSERT INTO deliveries_by_receiver (id, event_id, endpoint_id, account_id, mode, url, status, attempts, next_attempt_at,
    enqueued_at, last_attempt_at, last_status_code, last_error, delivered_at, created_at)
  SELECT 'dlv_' || lower(hex(randomblob(16))), event_id, NULL, account_id, mode, url, status, attempts, next_attempt_at,
    enqueued_at, last_attempt_at, last_status_code, last_error, delivered_at, created_at
  FROM deliveries;
DROP TABLE deliveries;
ALTER TABLE deliveries_by_receiver RENAME TO deliveries;
CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
-- An event's deliveries (the log, redelivery, and queue messages sent before deliveries had ids).
CREATE INDEX deliveries_by_event ON deliveries (event_id, endpoint_id);
-- A deleted endpoint's pending deliveries.
CREATE INDEX deliveries_by_endpoint ON deliveries (endpoint_id, status) WHERE endpoint_id IS NOT NULL;
