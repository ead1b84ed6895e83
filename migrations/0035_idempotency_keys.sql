-- The answers kept for the Idempotency-Key header (src/idempotency/). A key belongs to an account, a
-- mode and a kind of credential (a partner's key, an ops key, an admin key), so the same text from
-- anyone else is another key. A request claims its key by inserting the row (`in_flight`): the primary
-- key settles racing requests. The answer is then written on the row (`done`) and replayed to every
-- retry with the same request until `expires_at`, 24 hours on; the cron deletes expired rows through
-- the index below. `request` and `body_sha256` are the fingerprint: the method and path, and the
-- SHA-256 of the body's bytes.
CREATE TABLE idempotency_keys (
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  credential_kind TEXT NOT NULL CHECK (credential_kind IN ('partner', 'ops', 'admin')),
  idempotency_key TEXT NOT NULL,
  request TEXT NOT NULL,
  body_sha256 TEXT NOT NULL,
  -- Who holds the claim: only that request writes the answer or lets the key go.
  claim_token TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
  status INTEGER,
  headers TEXT,
  body TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (account_id, mode, credential_kind, idempotency_key)
);

CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
