-- Thumbnails of print files (made off the request path by the THUMBNAILS queue's consumer, src/previews/).
-- thumbnail_status is NULL until the file is ready, then 'pending' until the consumer stores the PNG ('ready',
-- with its size and the etag of the bytes it was made from) or gives up ('unavailable', with the reason).
-- thumbnail_attempts counts the consumer's tries (a crash included); thumbnail_queued_at is when a message was
-- last sent, so the cron's safety net re-sends only for files whose message is overdue.
ALTER TABLE print_files ADD COLUMN thumbnail_status TEXT CHECK (thumbnail_status IN ('pending', 'ready', 'unavailable'));
ALTER TABLE print_files ADD COLUMN thumbnail_width_px INTEGER;
ALTER TABLE print_files ADD COLUMN thumbnail_height_px INTEGER;
ALTER TABLE print_files ADD COLUMN thumbnail_reason TEXT;
ALTER TABLE print_files ADD COLUMN thumbnail_etag TEXT;
ALTER TABLE print_files ADD COLUMN thumbnail_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE print_files ADD COLUMN thumbnail_queued_at TEXT;

-- Files already ready get theirs from the cron's safety net, a bounded batch a minute.
UPDATE print_files SET thumbnail_status = 'pending' WHERE status = 'ready';

-- The safety net's read: pending thumbnails by when their message was last sent (never sent first).
CREATE INDEX print_files_thumbnails_pending ON print_files (thumbnail_queued_at) WHERE thumbnail_status = 'pending';
