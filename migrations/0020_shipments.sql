-- An order's units leave in one or more shipments. Each row is one label: the units it carries (JSON
-- [{item_id, quantity}]), its tracking, its packages (JSON, from the product model's boxes) and where it
-- stands. `position` numbers an order's shipments from 1 in the order they were made: the unique index
-- serves every read of an order's shipments (oldest first) and refuses two shipments written at one place.
CREATE TABLE shipments (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders (id),
  position INTEGER NOT NULL,
  items TEXT NOT NULL, -- JSON
  carrier TEXT NOT NULL,
  tracking_number TEXT NOT NULL,
  tracking_url TEXT NOT NULL,
  packages TEXT NOT NULL, -- JSON
  status TEXT NOT NULL CHECK (status IN ('in_transit', 'delivered', 'returned')),
  shipped_at TEXT NOT NULL,
  delivered_at TEXT,
  returned_at TEXT,
  UNIQUE (order_id, position)
);
