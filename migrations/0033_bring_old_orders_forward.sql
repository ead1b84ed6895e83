-- Orders written before two features are brought to the shape the code writes now, so it reads one
-- shape of order and keeps no branch for older rows. Plain UPDATEs: each changes only rows still in
-- the old shape, so on a database without such rows (or run twice) it changes nothing.
--
-- 1. Orders placed before orders were priced have no shipping method. They get the method an order
--    that names none gets, `standard`. Their costs and their items' prices stay NULL, as for any order
--    not priced yet: nothing is invented. Should one be validated again (after a fix), it is priced
--    then, with the method it would have had (freight where nothing else takes it).
UPDATE orders SET shipping_method = 'standard' WHERE shipping_method IS NULL;

-- 2. Hold details written before each carried its own code take the order's hold reason as their
--    code (`operator_hold` when the order has none), in their order. A detail's own code stays.
UPDATE orders SET hold_details = (
  SELECT json_group_array(
    CASE WHEN COALESCE(json_type(detail.value, '$.code'), 'null') = 'null'
      THEN json_set(detail.value, '$.code', COALESCE(orders.hold_reason, 'operator_hold'))
      ELSE json(detail.value)
    END)
  FROM (SELECT value FROM json_each(orders.hold_details) ORDER BY key) AS detail
)
WHERE EXISTS (
  SELECT 1 FROM json_each(orders.hold_details) WHERE COALESCE(json_type(value, '$.code'), 'null') = 'null'
);
