-- Issue 14: the floor downloads a print file named by the order and item that print it; finding
-- that item by its file must not scan every item.
CREATE INDEX order_items_by_print_file ON order_items (print_file_id);
