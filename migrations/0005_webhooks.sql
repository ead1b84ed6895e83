-- Webhook deliveries (contract, "Webhooks"): one row per event, written in the same batch as the event.
-- The queue is the fast path; this table is the record the cron sweep re-enqueues from.
CREATE TABLE deliveries (
  event_id TEXT PRIMARY KEY REFERENCES events (id),
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  -- The order's callback_url when the event happened; NULL: nothing to send, the event is only listed.
  url TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'no_endpoint')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  -- When a queue message for the next attempt was last sent; the sweep leaves recent ones alone.
  enqueued_at TEXT,
  last_attempt_at TEXT,
  last_status_code INTEGER,
  last_error TEXT,
  delivered_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
