-- Issue 16: reads that do not grow with the data. A partner's orders in one status (GET /v1/orders?status=,
-- and the floor's queue narrowed to a partner and a status) are read a page at a time in this index's
-- order, instead of walking all the partner's orders to find the few in a rare status.
CREATE INDEX orders_by_owner_status ON orders (account_id, mode, status, created_at, id);

-- The event log narrowed to a delivery state (GET /v1/events?delivery_status=failed): the page is found
-- from the owner's deliveries in that state, newest first, not by reading events until enough match.
CREATE INDEX deliveries_by_owner_status ON deliveries (account_id, mode, status, created_at, event_id);
