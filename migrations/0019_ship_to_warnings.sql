-- What a carrier's label would trip on in an order's ship_to (src/addresses/ship-to-warnings.ts), as a
-- JSON array of {field, code, message}, stored when the order is created and when its recipient
-- changes. Orders written before have none recorded: '[]'.
ALTER TABLE orders ADD COLUMN ship_to_warnings TEXT NOT NULL DEFAULT '[]';
