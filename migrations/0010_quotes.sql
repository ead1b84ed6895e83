-- Issue 13 (product model, section 6): quotes. A quote keeps the body it was answered with (its
-- prices, packages and shipping options under the price book version that made them), so an order
-- placed against it is charged exactly that, whatever the book says later.
CREATE TABLE quotes (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  price_book_version INTEGER NOT NULL REFERENCES price_books (version),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  body TEXT NOT NULL CHECK (json_valid(body))
);
CREATE INDEX quotes_by_owner ON quotes (account_id, mode, created_at);
