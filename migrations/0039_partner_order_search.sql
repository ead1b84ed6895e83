-- The partner console finds an owner's orders by a label's tracking number and by the recipient's
-- name (from its start, any case of the ASCII letters). Both are looked up by index: a tracking number
-- names a few shipments, and the recipient's name is read from the owner's rows in the name's order.
CREATE INDEX shipments_by_tracking_number ON shipments (tracking_number);
CREATE INDEX orders_by_owner_recipient ON orders (account_id, mode, lower(json_extract(ship_to, '$.name')));
