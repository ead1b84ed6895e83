-- A claim's reprint is named <original external_id>-R<n>, a name the partner may have used for an order of its
-- own. The partner's names are unique among the partner's orders only (claim_id IS NULL), and a reprint is
-- unique by the claim that made it: one reprint per claim, whatever it is called.
DROP INDEX orders_by_external_id;
CREATE UNIQUE INDEX orders_by_external_id ON orders (account_id, mode, external_id) WHERE claim_id IS NULL;
CREATE UNIQUE INDEX orders_by_claim ON orders (claim_id) WHERE claim_id IS NOT NULL;
