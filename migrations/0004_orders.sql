-- Orders, their items and the events their state changes record (spec 2.1-2.3, 3; contract "Orders").
CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  external_id TEXT NOT NULL,
  -- SHA-256 of the canonical creation request: a repeat with the same hash is a replay, else a conflict.
  request_hash TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('received', 'validating', 'in_production', 'on_hold', 'shipped', 'delivered', 'canceled')),
  -- Bumped by every move; a writer that read an older version changes nothing.
  version INTEGER NOT NULL,
  -- Random per write: the statements batched with a move check it, so they apply only with their own update.
  write_token TEXT NOT NULL,
  ship_to TEXT NOT NULL, -- JSON
  callback_url TEXT,
  hold_reason TEXT,
  hold_details TEXT NOT NULL DEFAULT '[]', -- JSON
  tracking_carrier TEXT,
  tracking_number TEXT,
  tracking_url TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  shipped_at TEXT,
  delivered_at TEXT,
  canceled_at TEXT
);
-- The idempotency decision is this constraint, not a read-then-write.
CREATE UNIQUE INDEX orders_by_external_id ON orders (account_id, mode, external_id);
CREATE INDEX orders_by_owner ON orders (account_id, mode, created_at, id);
CREATE INDEX orders_by_status ON orders (status, created_at, id);

CREATE TABLE order_items (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders (id),
  position INTEGER NOT NULL,
  print_file_id TEXT,
  print_file_url TEXT,
  width_in REAL NOT NULL,
  height_in REAL NOT NULL,
  frame TEXT,
  mat TEXT,
  quantity INTEGER NOT NULL,
  effective_dpi REAL,
  warnings TEXT NOT NULL DEFAULT '[]', -- JSON array of codes, e.g. ["low_resolution"]
  UNIQUE (order_id, position)
);

CREATE TABLE events (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL,
  order_id TEXT NOT NULL REFERENCES orders (id),
  type TEXT NOT NULL,
  body TEXT NOT NULL, -- the webhook body, exactly as it will be signed and sent
  created_at TEXT NOT NULL
);
CREATE INDEX events_by_order ON events (order_id, created_at);
CREATE INDEX events_by_owner ON events (account_id, mode, created_at, id);
