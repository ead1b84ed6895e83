-- Issue 11 (hardening).
-- 1. The R2 etag of the bytes an inspection read: every later use of the file compares the object in R2
--    with it (and with size_bytes), so bytes replaced after the check are noticed (invalid, file_changed).
ALTER TABLE print_files ADD COLUMN r2_etag TEXT;

-- 2. Live and test webhooks are signed with separate secrets: a test key rotates only the test secret.
--    Existing secrets become the live ones, and each still-signing one is copied as the test secret, so
--    a partner's test receivers keep verifying after the upgrade until the first test rotation.
ALTER TABLE webhook_secrets ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test'));
INSERT INTO webhook_secrets (account_id, secret, created_at, expires_at, mode)
  SELECT account_id, secret, created_at, expires_at, 'test' FROM webhook_secrets WHERE mode = 'live' ORDER BY id;
CREATE INDEX webhook_secrets_by_account_mode ON webhook_secrets (account_id, mode, id);
DROP INDEX webhook_secrets_by_account;
