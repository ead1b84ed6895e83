-- Issue 13 (product model, sections 1 and 6): orders carry the framing specification, a shipping
-- method and what they cost. An item keeps its complete specification (defaults applied) and, once it
-- can be priced, its dimensions, united inches, unit price and line total (`priced`, JSON). An order
-- keeps its shipping method and its costs (`costs`, JSON: currency, items, shipping, total,
-- price_book_version, quote_id) with the quote it was placed against.
--
-- Orders placed before this migration were never priced: their `costs` and their items' `priced` stay
-- NULL (the API shows null, not invented numbers), and so does their shipping method. Their items'
-- specification is what they were made with, which is the section 1 defaults: those are filled in.
ALTER TABLE order_items ADD COLUMN mat_border_in REAL;
ALTER TABLE order_items ADD COLUMN mat_bottom_border_in REAL;
ALTER TABLE order_items ADD COLUMN inner_mat TEXT;
ALTER TABLE order_items ADD COLUMN inner_mat_reveal_in REAL;
ALTER TABLE order_items ADD COLUMN glazing TEXT;
ALTER TABLE order_items ADD COLUMN paper TEXT;
ALTER TABLE order_items ADD COLUMN fit TEXT CHECK (fit IS NULL OR fit IN ('fill', 'fit'));
ALTER TABLE order_items ADD COLUMN priced TEXT CHECK (priced IS NULL OR json_valid(priced));
ALTER TABLE order_items ADD COLUMN cropped_percent REAL;

UPDATE order_items SET
  mat_border_in = CASE WHEN mat IS NULL THEN NULL ELSE 2 END,
  mat_bottom_border_in = CASE WHEN mat IS NULL THEN NULL ELSE 2 END,
  glazing = CASE WHEN frame IS NULL THEN 'none' ELSE 'acrylic' END,
  paper = 'archival-matte',
  fit = 'fill';

ALTER TABLE orders ADD COLUMN shipping_method TEXT
  CHECK (shipping_method IS NULL OR shipping_method IN ('budget', 'standard', 'express', 'freight'));
ALTER TABLE orders ADD COLUMN quote_id TEXT REFERENCES quotes (id);
ALTER TABLE orders ADD COLUMN costs TEXT CHECK (costs IS NULL OR json_valid(costs));
