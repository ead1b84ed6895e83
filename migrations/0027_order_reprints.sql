-- An order's reprints: the JSON array of the ids of the orders approved claims made as its reprints, oldest first;
-- '[]' for most orders. It is appended to in the batch that inserts the reprint, guarded so an id is never listed
-- twice, so reading an order reads its reprints with its row. Neither its version nor its updated_at change: a
-- reprint is not a move of the original.
ALTER TABLE orders ADD COLUMN reprints TEXT NOT NULL DEFAULT '[]';
-- The reprints made before this column, from orders_by_reprint_of.
UPDATE orders
SET reprints = (
  SELECT json_group_array(id) FROM (
    SELECT id FROM orders AS reprint WHERE reprint.reprint_of = orders.id ORDER BY reprint.created_at, reprint.id
  )
)
WHERE id IN (SELECT reprint_of FROM orders WHERE reprint_of IS NOT NULL);
