-- An API key may end by itself: a key with expires_at is refused (401 api_key_expired) from that time
-- on. last_used_at says when the key was last used, to the nearest few minutes: the bearer check
-- writes it at most once per key per KEY_USE_RECORD_MINUTES (src/accounts/key-life.ts), never once
-- per request.
ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;
-- The console's list of an account's keys in one mode, newest first.
CREATE INDEX api_keys_by_account_mode ON api_keys (account_id, mode, created_at);

-- A paused webhook endpoint keeps its URL and filter but receives nothing: events recorded while it is
-- paused get no delivery to it, and a redelivery leaves it out.
ALTER TABLE webhook_endpoints ADD COLUMN paused_at TEXT;
