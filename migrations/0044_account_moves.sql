-- Moving an account between databases (src/account-moves/). In the directory: where accounts placed away
-- from their ACCOUNT_DATABASES range live (src/databases.ts reads it), and each move's progress. In every
-- database: the account fences, and triggers on every table of an account's rows that refuse a write to a
-- fenced account ('account_moving'), so that no isolate, whatever placement it holds, writes to the
-- database an account is leaving. A fence is 'frozen' while the rows are copied and checked (every write
-- refused), 'removing' while the mover deletes the old rows (deletes let through, and the print files'
-- retention clock a deleted brand profile's trigger moves), 'moved' after (every write refused, forever).
-- A table without account_id is fenced through its parent (an order's items, moves and shipments; a
-- claim's items and photos), its parent read only while the database has a fence at all. Idempotency
-- claims are fenced for partners' keys, and let go whatever the fence. The ledger's months are written
-- only by the entries' trigger: the entries' fence undoes them (no fence of their own, no read per entry).
-- A write is refused AFTER it (its statement undone all the same): a BEFORE trigger reads the row once more. A trigger on quotes makes each insert
-- of a quote check the orders that refer to it (SQLite's foreign-key bookkeeping in a statement that may
-- write more than one row): the orders' quote_id is indexed for that lookup.

CREATE TABLE account_placements (
  account_id TEXT PRIMARY KEY,
  binding TEXT NOT NULL, -- the D1 binding holding the account's rows, by name
  moved_at TEXT NOT NULL,
  -- Where the copy left that database's primary (a D1 bookmark): the account's reads start no earlier,
  -- so a replica that has not caught up with the copy never answers them.
  bookmark TEXT
);

CREATE TABLE account_moves (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  from_binding TEXT NOT NULL,
  to_binding TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('fencing', 'clearing', 'copying', 'verifying', 'switching', 'draining', 'removing', 'done', 'failed')),
  step INTEGER NOT NULL DEFAULT 0, -- the index of the table the state is at
  cursor TEXT, -- the last key done in that table (JSON), null at its start
  copied_rows INTEGER NOT NULL DEFAULT 0,
  removed_rows INTEGER NOT NULL DEFAULT 0,
  tables TEXT NOT NULL DEFAULT '[]', -- each table's rows and content hash as verified, in both databases
  error TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  switched_at TEXT,
  finished_at TEXT
);
-- At most one move of an account under way.
CREATE UNIQUE INDEX account_moves_under_way ON account_moves (account_id) WHERE state NOT IN ('done', 'failed');
CREATE INDEX account_moves_by_account ON account_moves (account_id, created_at);

CREATE INDEX orders_by_quote ON orders (quote_id) WHERE quote_id IS NOT NULL;

CREATE TABLE account_fences (
  account_id TEXT PRIMARY KEY,
  state TEXT NOT NULL CHECK (state IN ('frozen', 'removing', 'moved')),
  updated_at TEXT NOT NULL
);

-- account_billing
CREATE TRIGGER account_billing_fence_insert AFTER INSERT ON account_billing
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = NEW.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER account_billing_fence_update AFTER UPDATE ON account_billing
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER account_billing_fence_delete AFTER DELETE ON account_billing
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- account_discounts
CREATE TRIGGER account_discounts_fence_insert AFTER INSERT ON account_discounts
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = NEW.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER account_discounts_fence_update AFTER UPDATE ON account_discounts
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER account_discounts_fence_delete AFTER DELETE ON account_discounts
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- print_files
CREATE TRIGGER print_files_fence_insert AFTER INSERT ON print_files
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = NEW.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER print_files_fence_update AFTER UPDATE ON print_files
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER print_files_fence_delete AFTER DELETE ON print_files
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- brand_profiles
CREATE TRIGGER brand_profiles_fence_insert AFTER INSERT ON brand_profiles
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = NEW.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER brand_profiles_fence_update AFTER UPDATE ON brand_profiles
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER brand_profiles_fence_delete AFTER DELETE ON brand_profiles
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- webhook_endpoints
CREATE TRIGGER webhook_endpoints_fence_insert AFTER INSERT ON webhook_endpoints
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = NEW.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER webhook_endpoints_fence_update AFTER UPDATE ON webhook_endpoints
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER webhook_endpoints_fence_delete AFTER DELETE ON webhook_endpoints
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- quotes
CREATE TRIGGER quotes_fence_insert AFTER INSERT ON quotes
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = NEW.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER quotes_fence_update AFTER UPDATE ON quotes
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER quotes_fence_delete AFTER DELETE ON quotes
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- orders
CREATE TRIGGER orders_fence_insert AFTER INSERT ON orders
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = NEW.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER orders_fence_update AFTER UPDATE ON orders
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER orders_fence_delete AFTER DELETE ON orders
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- order_items
CREATE TRIGGER order_items_fence_insert AFTER INSERT ON order_items
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM orders p WHERE p.id = NEW.order_id))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER order_items_fence_update AFTER UPDATE ON order_items
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM orders p WHERE p.id = OLD.order_id))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER order_items_fence_delete AFTER DELETE ON order_items
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM orders p WHERE p.id = OLD.order_id) AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- order_moves
CREATE TRIGGER order_moves_fence_insert AFTER INSERT ON order_moves
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM orders p WHERE p.id = NEW.order_id))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER order_moves_fence_update AFTER UPDATE ON order_moves
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM orders p WHERE p.id = OLD.order_id))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER order_moves_fence_delete AFTER DELETE ON order_moves
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM orders p WHERE p.id = OLD.order_id) AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- shipments
CREATE TRIGGER shipments_fence_insert AFTER INSERT ON shipments
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM orders p WHERE p.id = NEW.order_id))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER shipments_fence_update AFTER UPDATE ON shipments
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM orders p WHERE p.id = OLD.order_id))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER shipments_fence_delete AFTER DELETE ON shipments
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM orders p WHERE p.id = OLD.order_id) AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- events
CREATE TRIGGER events_fence_insert AFTER INSERT ON events
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = NEW.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER events_fence_update AFTER UPDATE ON events
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER events_fence_delete AFTER DELETE ON events
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- deliveries
CREATE TRIGGER deliveries_fence_insert AFTER INSERT ON deliveries
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = NEW.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER deliveries_fence_update AFTER UPDATE ON deliveries
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER deliveries_fence_delete AFTER DELETE ON deliveries
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- claims
CREATE TRIGGER claims_fence_insert AFTER INSERT ON claims
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = NEW.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER claims_fence_update AFTER UPDATE ON claims
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER claims_fence_delete AFTER DELETE ON claims
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- claim_items
CREATE TRIGGER claim_items_fence_insert AFTER INSERT ON claim_items
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM claims p WHERE p.id = NEW.claim_id))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER claim_items_fence_update AFTER UPDATE ON claim_items
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM claims p WHERE p.id = OLD.claim_id))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER claim_items_fence_delete AFTER DELETE ON claim_items
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM claims p WHERE p.id = OLD.claim_id) AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- claim_photos
CREATE TRIGGER claim_photos_fence_insert AFTER INSERT ON claim_photos
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM claims p WHERE p.id = NEW.claim_id))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER claim_photos_fence_update AFTER UPDATE ON claim_photos
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM claims p WHERE p.id = OLD.claim_id))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER claim_photos_fence_delete AFTER DELETE ON claim_photos
  WHEN EXISTS (SELECT 1 FROM account_fences)
   AND EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = (SELECT p.account_id FROM claims p WHERE p.id = OLD.claim_id) AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- ledger_entries
CREATE TRIGGER ledger_entries_fence_insert AFTER INSERT ON ledger_entries
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = NEW.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER ledger_entries_fence_update AFTER UPDATE ON ledger_entries
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id)
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER ledger_entries_fence_delete AFTER DELETE ON ledger_entries
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- ledger_months: written only by ledger_entries' trigger, whose statement the entries' fence undoes.
CREATE TRIGGER ledger_months_fence_delete AFTER DELETE ON ledger_months
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id AND f.state IN ('frozen', 'moved'))
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
-- idempotency_keys
CREATE TRIGGER idempotency_keys_fence_insert AFTER INSERT ON idempotency_keys
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = NEW.account_id) AND NEW.credential_kind = 'partner'
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
CREATE TRIGGER idempotency_keys_fence_update AFTER UPDATE ON idempotency_keys
  WHEN EXISTS (SELECT 1 FROM account_fences f WHERE f.account_id = OLD.account_id) AND OLD.credential_kind = 'partner'
BEGIN
  SELECT RAISE(ABORT, 'account_moving');
END;
