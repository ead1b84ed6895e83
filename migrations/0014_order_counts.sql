-- Issue 16: the console's counts per status read a small table instead of every order. order_counts
-- holds how many orders each mode has in each status; triggers on orders keep it, in the statement
-- that changes an order (so in the same D1 batch as every create and move), whatever code writes it.
CREATE TABLE order_counts (
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  status TEXT NOT NULL CHECK (status IN ('received', 'validating', 'in_production', 'on_hold', 'shipped', 'delivered', 'canceled')),
  count INTEGER NOT NULL CHECK (count >= 0),
  PRIMARY KEY (mode, status)
) WITHOUT ROWID;

-- Every mode and status has its row from the start, so the triggers only ever update.
WITH modes(mode) AS (VALUES ('live'), ('test')),
  statuses(status) AS (VALUES ('received'), ('validating'), ('in_production'), ('on_hold'), ('shipped'), ('delivered'), ('canceled'))
INSERT INTO order_counts (mode, status, count)
  SELECT mode, status, (SELECT COUNT(*) FROM orders WHERE orders.mode = modes.mode AND orders.status = statuses.status)
    FROM modes, statuses;

CREATE TRIGGER order_counts_on_insert AFTER INSERT ON orders
BEGIN
  UPDATE order_counts SET count = count + 1 WHERE mode = NEW.mode AND status = NEW.status;
END;

CREATE TRIGGER order_counts_on_move AFTER UPDATE OF status, mode ON orders
  WHEN OLD.status IS NOT NEW.status OR OLD.mode IS NOT NEW.mode
BEGIN
  UPDATE order_counts SET count = count - 1 WHERE mode = OLD.mode AND status = OLD.status;
  UPDATE order_counts SET count = count + 1 WHERE mode = NEW.mode AND status = NEW.status;
END;

CREATE TRIGGER order_counts_on_delete AFTER DELETE ON orders
BEGIN
  UPDATE order_counts SET count = count - 1 WHERE mode = OLD.mode AND status = OLD.status;
END;
