-- Issue 16: the event log narrowed to a type (GET /v1/events?type=order.on_hold) is read a page at a time
-- in this index's order, instead of walking the owner's events of every type until enough match.
CREATE INDEX events_by_owner_type ON events (account_id, mode, type, created_at, id);
