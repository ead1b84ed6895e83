-- Partner and internal accounts, their API keys and webhook secrets (contract, "Authentication and accounts").
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at TEXT NOT NULL,
  -- Per-account rate-limit overrides; NULL means the service default.
  requests_per_minute INTEGER CHECK (requests_per_minute > 0),
  orders_per_second REAL CHECK (orders_per_second > 0),
  order_burst INTEGER CHECK (order_burst > 0)
);

-- Only the SHA-256 of a key is kept, plus a short display prefix; the key itself is shown once at issue.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  key_hash TEXT NOT NULL UNIQUE,
  display_prefix TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  scopes TEXT NOT NULL, -- space-separated
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX api_keys_by_account ON api_keys (account_id);

-- The secret that signs an account's webhooks. During a rotation the old row gets expires_at and keeps signing until then.
CREATE TABLE webhook_secrets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  secret TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT
);
CREATE INDEX webhook_secrets_by_account ON webhook_secrets (account_id);
