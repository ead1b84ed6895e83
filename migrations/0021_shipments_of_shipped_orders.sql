-- Orders that shipped before shipments were recorded (migration 0020) get the one shipment they had:
-- every unit of every item, under the order's tracking, shipped when the order shipped, delivered when
-- it was delivered. Their boxes were not recorded, so `packages` is empty. The id reuses the order's
-- random part (`shp_` + the 24 characters after `ord_`), so it is unique, and running this again adds
-- nothing (`npm run bench:cost` runs it over the orders it seeds).
INSERT INTO shipments (id, order_id, position, items, carrier, tracking_number, tracking_url, packages, status,
  shipped_at, delivered_at, returned_at)
SELECT
  'shp_' || substr(o.id, 5),
  o.id,
  1,
  (SELECT json_group_array(json_object('item_id', i.id, 'quantity', i.quantity))
     FROM (SELECT id, quantity FROM order_items WHERE order_id = o.id ORDER BY position) AS i),
  o.tracking_carrier,
  o.tracking_number,
  o.tracking_url,
  '[]',
  CASE o.status WHEN 'delivered' THEN 'delivered' ELSE 'in_transit' END,
  o.shipped_at,
  CASE o.status WHEN 'delivered' THEN o.delivered_at END,
  NULL
FROM orders AS o
WHERE o.status IN ('shipped', 'delivered')
  AND o.tracking_number IS NOT NULL
  AND o.shipped_at IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM shipments AS s WHERE s.order_id = o.id);
