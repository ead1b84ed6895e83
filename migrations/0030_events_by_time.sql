-- Events older than the retention window leave D1 for an archive in R2 (src/webhooks/archive.ts). The
-- cron finds them oldest first through this index, a page at a time, never by reading every event.
CREATE INDEX events_by_time ON events (created_at, id);
