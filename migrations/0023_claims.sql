-- Claims (a partner's report that shipped units arrived damaged, defective, wrong or not at all) and the units each
-- claims. A claim is written in one D1 batch whose insert is guarded: it is written only while the units of each item
-- in open or approved claims, with the new ones, stay within the units shipped, so concurrent claims never claim more
-- than shipped. `photos` is the JSON array of print file ids; `resolution` the JSON the service team's decision wrote,
-- once: the decision's update applies only to a claim still `submitted`.
CREATE TABLE claims (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  order_id TEXT NOT NULL REFERENCES orders (id),
  reason TEXT NOT NULL CHECK (
    reason IN ('damaged_in_transit', 'lost_in_transit', 'print_defect', 'frame_defect', 'wrong_item')
  ),
  description TEXT NOT NULL,
  photos TEXT NOT NULL, -- JSON
  status TEXT NOT NULL CHECK (status IN ('submitted', 'approved', 'rejected')),
  resolution TEXT, -- JSON
  -- A random id of the decision that resolved the claim: its event is written only by the decision that won.
  resolution_id TEXT,
  created_at TEXT NOT NULL,
  resolved_at TEXT
);
-- An order's claims (oldest first), an owner's claims newest first, and narrowed to a status.
CREATE INDEX claims_by_order ON claims (order_id, created_at, id);
CREATE INDEX claims_by_owner ON claims (account_id, mode, created_at, id);
CREATE INDEX claims_by_owner_status ON claims (account_id, mode, status, created_at, id);
-- The service team's list of claims in a status, oldest first.
CREATE INDEX claims_by_status ON claims (status, created_at, id);

CREATE TABLE claim_items (
  claim_id TEXT NOT NULL REFERENCES claims (id),
  item_id TEXT NOT NULL REFERENCES order_items (id),
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (claim_id, item_id)
);
-- The units of an item already claimed, summed by the guard of every new claim.
CREATE INDEX claim_items_by_item ON claim_items (item_id, claim_id);

-- A reprint is an order made by an approved claim: the order it reprints and the claim that made it; null for
-- every other order. orders_by_reprint_of holds only reprints: it serves the look-up of an order's reprints, the
-- foreign key's among them.
ALTER TABLE orders ADD COLUMN reprint_of TEXT REFERENCES orders (id);
-- No foreign key to claims: an insert into claims would then look for orders naming it (orders own the column).
ALTER TABLE orders ADD COLUMN claim_id TEXT;
CREATE INDEX orders_by_reprint_of ON orders (reprint_of, created_at) WHERE reprint_of IS NOT NULL;
