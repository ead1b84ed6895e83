-- An order's metadata: the partner's own keys and string values, kept as a JSON object and returned
-- as sent. Orders created before it have none, which reads as {}. It is never filtered or sorted on,
-- so it needs no index.
ALTER TABLE orders ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';
