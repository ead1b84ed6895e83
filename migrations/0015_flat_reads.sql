-- Issue 16: reads that do not grow with the data. A partner's orders in one status (GET /v1/orders?status=,
-- and the floor's queue narrowed to a partner and a status) are read a page at a time in this index's
-- order, instead of walking all the partner's orders to find the few in a rare status.
CREATE INDEX orders_by_owner_status ON orders (account_id, mode, status, created_at, id);
