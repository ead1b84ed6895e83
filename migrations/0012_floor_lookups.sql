-- Issue 14: the floor downloads a print file named by the order and item that print it; finding
-- that item by its file must not scan every item.
CREATE INDEX order_items_by_print_file ON order_items (print_file_id);

-- The floor's queue: live orders by default (test ones when asked), by status, oldest first; and
-- an order found by the partner's number across accounts.
CREATE INDEX orders_by_mode_status ON orders (mode, status, created_at, id);
CREATE INDEX orders_by_mode ON orders (mode, created_at, id);
CREATE INDEX orders_by_external_id_alone ON orders (external_id);
