-- Finished orders leave the hot database: an archived order keeps a slim orders row (so lists, search by
-- date, external_id uniqueness and order_counts stay as they are) that says where its record is in R2;
-- its items, shipments and moves are in that record, not in D1.
ALTER TABLE orders ADD COLUMN archived_at TEXT;
-- The archive run's candidates: finished and not archived yet, oldest finish first.
CREATE INDEX orders_to_archive ON orders (coalesce(delivered_at, canceled_at))
 WHERE archived_at IS NULL AND status IN ('delivered', 'canceled');
