-- When the floor started making an order: set by the floor's `start` move (from the console, the ops
-- API or a scan of its work ticket), or by its first shipment when nobody started it before. Until
-- then the partner may still change the recipient, the shipping method and the items; the account's
-- edit window (editable_until) is now the least time the floor waits before it may start.
ALTER TABLE orders ADD COLUMN started_at TEXT;

-- Orders in production whose edit window had passed were closed to the partner's changes and open to
-- the floor: they stay closed, as started when the floor got them (the window's end, or their move
-- into production when later). Orders still in their window stay unstarted, as under the new rule.
UPDATE orders
   SET started_at = MAX(updated_at, COALESCE(editable_until, updated_at))
 WHERE status = 'in_production' AND started_at IS NULL
   AND (editable_until IS NULL OR editable_until <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));

-- Shipped and delivered orders had started at the latest when they shipped: a piece cannot ship unstarted.
UPDATE orders SET started_at = shipped_at
 WHERE status IN ('shipped', 'delivered') AND started_at IS NULL AND shipped_at IS NOT NULL;
