-- Print files (and claim photos) leave R2 a set number of days after their last use: the cron's sweep
-- (src/file-retention/) deletes the bytes and keeps the row, its inspection and its thumbnail.
--
-- retention_clock: when the file's retention period started: its creation, then the latest release the
--   sweep found when it looked (the last order delivered or canceled, the claim closed), or the time it
--   looked while something still held the file. The sweep reads files whose clock is old enough.
-- expired_at: when the sweep expired the file; from then on it reads `expired` and no new use is accepted.
-- purged_at: when its object left R2 (after expired_at; a crash in between is finished by the next run).
ALTER TABLE print_files ADD COLUMN retention_clock TEXT;
ALTER TABLE print_files ADD COLUMN expired_at TEXT;
ALTER TABLE print_files ADD COLUMN purged_at TEXT;
UPDATE print_files SET retention_clock = created_at;

-- The sweep's two reads: files still kept, by their clock; files expired whose object is still in R2.
CREATE INDEX print_files_retention_due ON print_files (retention_clock) WHERE expired_at IS NULL;
CREATE INDEX print_files_awaiting_purge ON print_files (expired_at) WHERE expired_at IS NOT NULL AND purged_at IS NULL;

-- Each claim's photos, one row a file: what tells the sweep a photo belongs to a claim still open. No foreign
-- key to claims: an insert into claims would then look for photos naming it, through an index of its own.
CREATE TABLE claim_photos (
  print_file_id TEXT NOT NULL REFERENCES print_files (id),
  claim_id TEXT NOT NULL,
  PRIMARY KEY (print_file_id, claim_id)
) WITHOUT ROWID;
INSERT INTO claim_photos (print_file_id, claim_id)
  SELECT DISTINCT photo.value, claims.id FROM claims, json_each(claims.photos) AS photo;

-- A brand's logo is kept while it is the logo: the sweep looks a file up among the logos.
CREATE INDEX brand_profiles_by_logo ON brand_profiles (logo_print_file_id) WHERE logo_print_file_id IS NOT NULL;

-- No new use of an expired file, whatever code writes it: the statement fails, and with it the whole batch
-- (an order's create, an item's fix, a claim, a brand profile). The sweep's expiry is guarded the other way
-- (it expires no file a kept order, claim or logo names), so of a create and an expiry racing on one file,
-- whichever commits second gives way.
CREATE TRIGGER order_items_refuse_expired_file BEFORE INSERT ON order_items
  WHEN NEW.print_file_id IS NOT NULL
   AND EXISTS (SELECT 1 FROM print_files WHERE id = NEW.print_file_id AND expired_at IS NOT NULL)
BEGIN
  SELECT RAISE(ABORT, 'print_file_expired');
END;

CREATE TRIGGER order_items_refuse_expired_file_on_fix BEFORE UPDATE OF print_file_id ON order_items
  WHEN NEW.print_file_id IS NOT NULL AND NEW.print_file_id IS NOT OLD.print_file_id
   AND EXISTS (SELECT 1 FROM print_files WHERE id = NEW.print_file_id AND expired_at IS NOT NULL)
BEGIN
  SELECT RAISE(ABORT, 'print_file_expired');
END;

CREATE TRIGGER claim_photos_refuse_expired_file BEFORE INSERT ON claim_photos
  WHEN EXISTS (SELECT 1 FROM print_files WHERE id = NEW.print_file_id AND expired_at IS NOT NULL)
BEGIN
  SELECT RAISE(ABORT, 'print_file_expired');
END;

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

-- A logo's clock starts when it stops being the logo (replaced, removed, or its profile deleted).
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
