-- Issue 13 (product model, sections 4 and 5): the price book, versioned. Each published version is
-- kept as it was (a quote names the version that priced it); the newest is in force. Version 1 is the
-- model's seed (src/pricing/seed-book.ts, held equal by a test) with each catalog moulding's price per foot.
CREATE TABLE price_books (
  version INTEGER PRIMARY KEY CHECK (version >= 1),
  published_at TEXT NOT NULL,
  book TEXT NOT NULL CHECK (json_valid(book))
);
INSERT INTO price_books (version, published_at, book)
  SELECT 1, '2026-11-22T00:00:00.000Z',
         json_set(json('{"currency":"USD","print":{"minimum_cents":400,"paper_mills_per_sq_in":{"archival-matte":20,"photo-lustre":18,"cotton-rag":35}},"mats":{"tiers":[{"max_united_inches":40,"cents_per_layer":600},{"max_united_inches":60,"cents_per_layer":900},{"max_united_inches":80,"cents_per_layer":1400},{"max_united_inches":null,"cents_per_layer":2000}]},"glazing":{"mills_per_sq_in":{"acrylic":12,"uv-acrylic":22,"museum-acrylic":60,"none":0}},"backing":{"mills_per_sq_in":4},"assembly":{"cents_per_framed_piece":800},"shipping":{"zones":{"US":{"budget":{"package_cents":700,"per_lb_cents":65,"transit_days":{"min":5,"max":8}},"standard":{"package_cents":900,"per_lb_cents":85,"transit_days":{"min":3,"max":5}},"express":{"package_cents":2400,"per_lb_cents":190,"transit_days":{"min":1,"max":2}},"freight":{"package_cents":15000,"per_lb_cents":150,"transit_days":{"min":7,"max":14}}},"north_america":{"standard":{"package_cents":2200,"per_lb_cents":210,"transit_days":{"min":6,"max":10}},"express":{"package_cents":4800,"per_lb_cents":420,"transit_days":{"min":2,"max":4}},"freight":{"package_cents":30000,"per_lb_cents":300,"transit_days":{"min":10,"max":20}}},"europe":{"standard":{"package_cents":3500,"per_lb_cents":380,"transit_days":{"min":7,"max":12}},"express":{"package_cents":7000,"per_lb_cents":760,"transit_days":{"min":3,"max":5}},"freight":{"package_cents":45000,"per_lb_cents":450,"transit_days":{"min":14,"max":28}}},"world":{"standard":{"package_cents":4500,"per_lb_cents":500,"transit_days":{"min":10,"max":20}},"express":{"package_cents":9000,"per_lb_cents":1000,"transit_days":{"min":4,"max":7}},"freight":{"package_cents":45000,"per_lb_cents":450,"transit_days":{"min":14,"max":28}}}},"oversize_cents":5000,"oversize_above_in":130,"freight_above_in":165,"dimensional_divisor":139,"production_days":{"framed":3,"unframed":1}}}'), '$.frames',
                  json_object('mills_per_foot', (SELECT json_group_object(slug, price_mills_per_foot) FROM catalog_frames)));

-- An account's discount on the price book's unit prices (0 to 50 percent), set by an admin.
CREATE TABLE account_discounts (
  account_id TEXT PRIMARY KEY REFERENCES accounts (id),
  discount_percent INTEGER NOT NULL CHECK (discount_percent BETWEEN 0 AND 50),
  updated_at TEXT NOT NULL
);
