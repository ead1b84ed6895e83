-- White-label branding (issue 7): one brand profile per account, shared by live and test mode. It is what
-- the packing slip and the shipping label's return address show; without one they show no brand at all.
CREATE TABLE brand_profiles (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id),
  brand_name TEXT NOT NULL,
  return_address TEXT, -- JSON, the shape and rules of ship_to
  support_email TEXT,
  support_url TEXT,
  packing_slip_message TEXT,
  logo_print_file_id TEXT REFERENCES print_files (id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- The buyer's gift message, printed on the packing slip (an extension of spec 2.1).
ALTER TABLE orders ADD COLUMN gift_message TEXT;

-- Operator console sessions. The cookie carries the id, signed by the worker; the row is what signing
-- out deletes, and it ties the session to the ops key that opened it (revoking the key ends it).
CREATE TABLE ops_sessions (
  id TEXT PRIMARY KEY,
  key_id TEXT NOT NULL REFERENCES api_keys (id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);

-- Every move of every order, with who made it: the history on the operator console's order page.
-- Events only record the moves partners hear about; this records validation starts and releases too.
CREATE TABLE order_moves (
  order_id TEXT NOT NULL REFERENCES orders (id),
  version INTEGER NOT NULL, -- the order's version after the move
  move TEXT NOT NULL, -- 'create' or a state-machine move kind
  actor TEXT NOT NULL CHECK (actor IN ('partner', 'operator', 'system')),
  from_status TEXT,
  to_status TEXT NOT NULL,
  note TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (order_id, version)
);
