-- Issue 34 (hardening): a brand profile per account and mode, like webhook endpoints and secrets. A test
-- key reads and writes the test profile and test orders' packing slips print it; the live profile, what
-- live orders ship with, is only a live key's. Existing profiles become the live ones, and each is copied
-- as the test one, so test slips look as they did until a test key changes them.
-- SQLite cannot change a primary key: the table is rebuilt, and with it its index and triggers (0029).
CREATE TABLE brand_profiles_per_mode (
  account_id TEXT NOT NULL REFERENCES accounts (id),
  mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live', 'test')),
  brand_name TEXT NOT NULL,
  return_address TEXT, -- JSON, the shape and rules of ship_to
  support_email TEXT,
  support_url TEXT,
  packing_slip_message TEXT,
  logo_print_file_id TEXT REFERENCES print_files (id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (account_id, mode)
);
INSERT INTO brand_profiles_per_mode (account_id, mode, brand_name, return_address, support_email, support_url,
    packing_slip_message, logo_print_file_id, created_at, updated_at)
  SELECT account_id, mode.name, brand_name, return_address, support_email, support_url,
         packing_slip_message, logo_print_file_id, created_at, updated_at
    FROM brand_profiles, (SELECT 'live' AS name UNION ALL SELECT 'test') AS mode;
DROP TABLE brand_profiles;
ALTER TABLE brand_profiles_per_mode RENAME TO brand_profiles;

CREATE INDEX brand_profiles_by_logo ON brand_profiles (logo_print_file_id) WHERE logo_print_file_id IS NOT NULL;

CREATE TRIGGER brand_profiles_refuse_expired_logo BEFORE INSERT ON brand_profiles
  WHEN NEW.logo_print_file_id IS NOT NULL
   AND EXISTS (SELECT 1 FROM print_files WHERE id = NEW.logo_print_file_id AND expired_at IS NOT NULL)
BEGIN
  SELECT RAISE(ABORT, 'print_file_expired');
END;

CREATE TRIGGER brand_profiles_refuse_expired_logo_on_update BEFORE UPDATE OF logo_print_file_id ON brand_profiles
  WHEN NEW.logo_print_file_id IS NOT NULL AND NEW.logo_print_file_id IS NOT OLD.logo_print_file_id
   AND EXISTS (SELECT 1 FROM print_files WHERE id = NEW.logo_print_file_id AND expired_at IS NOT NULL)
BEGIN
  SELECT RAISE(ABORT, 'print_file_expired');
END;

-- A logo's clock starts when it stops being a logo; the sweep keeps it while either mode's profile names it.
CREATE TRIGGER brand_profiles_release_old_logo AFTER UPDATE OF logo_print_file_id ON brand_profiles
  WHEN OLD.logo_print_file_id IS NOT NULL AND OLD.logo_print_file_id IS NOT NEW.logo_print_file_id
BEGIN
  UPDATE print_files SET retention_clock = MAX(retention_clock, NEW.updated_at)
   WHERE id = OLD.logo_print_file_id AND expired_at IS NULL;
END;

CREATE TRIGGER brand_profiles_release_logo_on_delete AFTER DELETE ON brand_profiles
  WHEN OLD.logo_print_file_id IS NOT NULL
BEGIN
  UPDATE print_files SET retention_clock = MAX(retention_clock, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
   WHERE id = OLD.logo_print_file_id AND expired_at IS NULL;
END;
