-- Issue 13 (product model, section 2): the framer's vocabulary in the catalog. Frames get their colour,
-- material, profile and the united inches their moulding can carry, with the moulding's price (mills per
-- foot, by material and width, 2,500 to 12,000) and weight (lb per foot, 0.20 to 0.80) for the price book
-- and shipping; mats their colour and core; glazings and papers are new lists. Spec 2.5 fields unchanged.
ALTER TABLE catalog_frames ADD COLUMN color_name TEXT;
ALTER TABLE catalog_frames ADD COLUMN color_hex TEXT;
ALTER TABLE catalog_frames ADD COLUMN material TEXT;
ALTER TABLE catalog_frames ADD COLUMN profile TEXT;
ALTER TABLE catalog_frames ADD COLUMN max_united_inches REAL;
ALTER TABLE catalog_frames ADD COLUMN price_mills_per_foot INTEGER;
ALTER TABLE catalog_frames ADD COLUMN weight_lb_per_foot REAL;
ALTER TABLE catalog_mats ADD COLUMN color_name TEXT;
ALTER TABLE catalog_mats ADD COLUMN color_hex TEXT;
ALTER TABLE catalog_mats ADD COLUMN core TEXT;

UPDATE catalog_frames SET color_name = 'Walnut', color_hex = '#5C4033', material = 'walnut', profile = 'flat', max_united_inches = 80, price_mills_per_foot = 6800, weight_lb_per_foot = 0.36 WHERE slug = 'walnut-flat-075';
UPDATE catalog_frames SET color_name = 'Walnut', color_hex = '#5C4033', material = 'walnut', profile = 'flat', max_united_inches = 120, price_mills_per_foot = 8200, weight_lb_per_foot = 0.44 WHERE slug = 'walnut-flat-125';
UPDATE catalog_frames SET color_name = 'Walnut', color_hex = '#5C4033', material = 'walnut', profile = 'rounded', max_united_inches = 100, price_mills_per_foot = 7500, weight_lb_per_foot = 0.4 WHERE slug = 'walnut-rounded-100';
UPDATE catalog_frames SET color_name = 'White oak', color_hex = '#C8A978', material = 'white oak', profile = 'flat', max_united_inches = 80, price_mills_per_foot = 5400, weight_lb_per_foot = 0.36 WHERE slug = 'white-oak-flat-075';
UPDATE catalog_frames SET color_name = 'White oak', color_hex = '#C8A978', material = 'white oak', profile = 'flat', max_united_inches = 120, price_mills_per_foot = 6600, weight_lb_per_foot = 0.44 WHERE slug = 'white-oak-flat-125';
UPDATE catalog_frames SET color_name = 'Maple', color_hex = '#E3C99A', material = 'maple', profile = 'flat', max_united_inches = 80, price_mills_per_foot = 5400, weight_lb_per_foot = 0.36 WHERE slug = 'maple-flat-075';
UPDATE catalog_frames SET color_name = 'Maple', color_hex = '#E3C99A', material = 'maple', profile = 'flat', max_united_inches = 120, price_mills_per_foot = 6600, weight_lb_per_foot = 0.44 WHERE slug = 'maple-flat-125';
UPDATE catalog_frames SET color_name = 'Cherry', color_hex = '#8B3A2B', material = 'cherry', profile = 'flat', max_united_inches = 80, price_mills_per_foot = 6800, weight_lb_per_foot = 0.36 WHERE slug = 'cherry-flat-075';
UPDATE catalog_frames SET color_name = 'Cherry', color_hex = '#8B3A2B', material = 'cherry', profile = 'flat', max_united_inches = 120, price_mills_per_foot = 8200, weight_lb_per_foot = 0.44 WHERE slug = 'cherry-flat-125';
UPDATE catalog_frames SET color_name = 'Natural ash', color_hex = '#D9C4A1', material = 'ash', profile = 'flat', max_united_inches = 100, price_mills_per_foot = 6000, weight_lb_per_foot = 0.4 WHERE slug = 'ash-natural-flat-100';
UPDATE catalog_frames SET color_name = 'Black-stained oak', color_hex = '#2B2522', material = 'oak', profile = 'flat', max_united_inches = 80, price_mills_per_foot = 5400, weight_lb_per_foot = 0.36 WHERE slug = 'black-stained-oak-flat-075';
UPDATE catalog_frames SET color_name = 'Black-stained oak', color_hex = '#2B2522', material = 'oak', profile = 'flat', max_united_inches = 120, price_mills_per_foot = 6600, weight_lb_per_foot = 0.44 WHERE slug = 'black-stained-oak-flat-125';
UPDATE catalog_frames SET color_name = 'Black', color_hex = '#1A1A1A', material = 'painted wood', profile = 'flat', max_united_inches = 80, price_mills_per_foot = 4000, weight_lb_per_foot = 0.36 WHERE slug = 'gallery-black-075';
UPDATE catalog_frames SET color_name = 'Black', color_hex = '#1A1A1A', material = 'painted wood', profile = 'flat', max_united_inches = 120, price_mills_per_foot = 5000, weight_lb_per_foot = 0.44 WHERE slug = 'gallery-black-125';
UPDATE catalog_frames SET color_name = 'Black', color_hex = '#1A1A1A', material = 'painted wood', profile = 'flat', max_united_inches = 150, price_mills_per_foot = 6500, weight_lb_per_foot = 0.55 WHERE slug = 'gallery-black-200';
UPDATE catalog_frames SET color_name = 'White', color_hex = '#F4F4F0', material = 'painted wood', profile = 'flat', max_united_inches = 80, price_mills_per_foot = 4000, weight_lb_per_foot = 0.36 WHERE slug = 'gallery-white-075';
UPDATE catalog_frames SET color_name = 'White', color_hex = '#F4F4F0', material = 'painted wood', profile = 'flat', max_united_inches = 120, price_mills_per_foot = 5000, weight_lb_per_foot = 0.44 WHERE slug = 'gallery-white-125';
UPDATE catalog_frames SET color_name = 'White', color_hex = '#F4F4F0', material = 'painted wood', profile = 'flat', max_united_inches = 150, price_mills_per_foot = 6500, weight_lb_per_foot = 0.55 WHERE slug = 'gallery-white-200';
UPDATE catalog_frames SET color_name = 'Grey', color_hex = '#8A8D8F', material = 'painted wood', profile = 'flat', max_united_inches = 100, price_mills_per_foot = 4500, weight_lb_per_foot = 0.4 WHERE slug = 'painted-grey-flat-100';
UPDATE catalog_frames SET color_name = 'Silver', color_hex = '#C0C0C0', material = 'aluminium', profile = 'flat', max_united_inches = 70, price_mills_per_foot = 3200, weight_lb_per_foot = 0.25 WHERE slug = 'silver-metal-050';
UPDATE catalog_frames SET color_name = 'Silver', color_hex = '#C0C0C0', material = 'aluminium', profile = 'flat', max_united_inches = 90, price_mills_per_foot = 3600, weight_lb_per_foot = 0.28 WHERE slug = 'silver-metal-075';
UPDATE catalog_frames SET color_name = 'Gold', color_hex = '#C9A646', material = 'aluminium', profile = 'flat', max_united_inches = 70, price_mills_per_foot = 3200, weight_lb_per_foot = 0.25 WHERE slug = 'gold-metal-050';
UPDATE catalog_frames SET color_name = 'Gold', color_hex = '#C9A646', material = 'aluminium', profile = 'flat', max_united_inches = 90, price_mills_per_foot = 3600, weight_lb_per_foot = 0.28 WHERE slug = 'gold-metal-075';
UPDATE catalog_frames SET color_name = 'Black', color_hex = '#222222', material = 'aluminium', profile = 'flat', max_united_inches = 70, price_mills_per_foot = 3200, weight_lb_per_foot = 0.25 WHERE slug = 'black-metal-050';
UPDATE catalog_frames SET color_name = 'Black', color_hex = '#222222', material = 'aluminium', profile = 'flat', max_united_inches = 90, price_mills_per_foot = 3600, weight_lb_per_foot = 0.28 WHERE slug = 'black-metal-075';
UPDATE catalog_frames SET color_name = 'Pewter', color_hex = '#8E9294', material = 'aluminium', profile = 'flat', max_united_inches = 70, price_mills_per_foot = 3200, weight_lb_per_foot = 0.25 WHERE slug = 'pewter-aluminium-050';
UPDATE catalog_frames SET color_name = 'Brushed brass', color_hex = '#B5A642', material = 'brass', profile = 'flat', max_united_inches = 70, price_mills_per_foot = 5200, weight_lb_per_foot = 0.25 WHERE slug = 'brushed-brass-050';
UPDATE catalog_frames SET color_name = 'Black', color_hex = '#1A1A1A', material = 'painted wood', profile = 'floater', max_united_inches = 60, price_mills_per_foot = 4500, weight_lb_per_foot = 0.38 WHERE slug = 'black-canvas-floater-050';
UPDATE catalog_frames SET color_name = 'Black', color_hex = '#1A1A1A', material = 'painted wood', profile = 'floater', max_united_inches = 80, price_mills_per_foot = 5000, weight_lb_per_foot = 0.41 WHERE slug = 'black-canvas-floater-075';
UPDATE catalog_frames SET color_name = 'White', color_hex = '#F4F4F0', material = 'painted wood', profile = 'floater', max_united_inches = 60, price_mills_per_foot = 4500, weight_lb_per_foot = 0.38 WHERE slug = 'white-canvas-floater-050';
UPDATE catalog_frames SET color_name = 'Walnut', color_hex = '#5C4033', material = 'walnut', profile = 'floater', max_united_inches = 60, price_mills_per_foot = 7000, weight_lb_per_foot = 0.38 WHERE slug = 'walnut-canvas-floater-050';
UPDATE catalog_frames SET color_name = 'Natural oak', color_hex = '#C49E6C', material = 'oak', profile = 'floater', max_united_inches = 60, price_mills_per_foot = 5800, weight_lb_per_foot = 0.38 WHERE slug = 'natural-oak-canvas-floater-050';
UPDATE catalog_frames SET color_name = 'Black', color_hex = '#1A1A1A', material = 'painted wood', profile = 'shadow-box', max_united_inches = 100, price_mills_per_foot = 5500, weight_lb_per_foot = 0.45 WHERE slug = 'black-shadow-box-100';
UPDATE catalog_frames SET color_name = 'White', color_hex = '#F4F4F0', material = 'painted wood', profile = 'shadow-box', max_united_inches = 100, price_mills_per_foot = 5500, weight_lb_per_foot = 0.45 WHERE slug = 'white-shadow-box-100';
UPDATE catalog_frames SET color_name = 'Walnut', color_hex = '#5C4033', material = 'walnut', profile = 'shadow-box', max_united_inches = 100, price_mills_per_foot = 8500, weight_lb_per_foot = 0.45 WHERE slug = 'walnut-shadow-box-100';
UPDATE catalog_frames SET color_name = 'White oak', color_hex = '#C8A978', material = 'white oak', profile = 'shadow-box', max_united_inches = 100, price_mills_per_foot = 7000, weight_lb_per_foot = 0.45 WHERE slug = 'white-oak-shadow-box-100';
UPDATE catalog_frames SET color_name = 'Antique gold', color_hex = '#B08D3C', material = 'gilded wood', profile = 'scoop', max_united_inches = 130, price_mills_per_foot = 8700, weight_lb_per_foot = 0.47 WHERE slug = 'antique-gold-scoop-150';
UPDATE catalog_frames SET color_name = 'Silver leaf', color_hex = '#C7C9CC', material = 'gilded wood', profile = 'ornate', max_united_inches = 150, price_mills_per_foot = 9600, weight_lb_per_foot = 0.6 WHERE slug = 'ornate-silver-leaf-200';
UPDATE catalog_frames SET color_name = 'Gold leaf', color_hex = '#D4AF37', material = 'gilded wood', profile = 'ornate', max_united_inches = 170, price_mills_per_foot = 10500, weight_lb_per_foot = 0.68 WHERE slug = 'baroque-gold-leaf-250';
UPDATE catalog_frames SET color_name = 'Gold leaf', color_hex = '#D4AF37', material = 'gilded wood', profile = 'ornate', max_united_inches = 200, price_mills_per_foot = 12000, weight_lb_per_foot = 0.8 WHERE slug = 'baroque-gold-leaf-350';
UPDATE catalog_frames SET color_name = 'Weathered grey', color_hex = '#8C8279', material = 'reclaimed wood', profile = 'flat', max_united_inches = 130, price_mills_per_foot = 6000, weight_lb_per_foot = 0.47 WHERE slug = 'rustic-barnwood-grey-150';
UPDATE catalog_frames SET color_name = 'Weathered brown', color_hex = '#6B4F3A', material = 'reclaimed wood', profile = 'flat', max_united_inches = 130, price_mills_per_foot = 6000, weight_lb_per_foot = 0.47 WHERE slug = 'rustic-barnwood-brown-150';
UPDATE catalog_frames SET color_name = 'Weathered brown', color_hex = '#6B4F3A', material = 'reclaimed wood', profile = 'flat', max_united_inches = 170, price_mills_per_foot = 8000, weight_lb_per_foot = 0.62 WHERE slug = 'rustic-barnwood-brown-250';
UPDATE catalog_frames SET color_name = 'Pine', color_hex = '#C49A6C', material = 'reclaimed wood', profile = 'flat', max_united_inches = 150, price_mills_per_foot = 7000, weight_lb_per_foot = 0.55 WHERE slug = 'reclaimed-pine-200';

UPDATE catalog_mats SET color_name = 'Bright White', color_hex = '#FFFFFF', core = 'white' WHERE slug = 'bright-white';
UPDATE catalog_mats SET color_name = 'Polar White', color_hex = '#FBFCFD', core = 'white' WHERE slug = 'polar-white';
UPDATE catalog_mats SET color_name = 'Arctic White', color_hex = '#F5F8FA', core = 'white' WHERE slug = 'arctic-white';
UPDATE catalog_mats SET color_name = 'Antique White', color_hex = '#F3ECDD', core = 'cream' WHERE slug = 'antique-white';
UPDATE catalog_mats SET color_name = 'Soft White', color_hex = '#F7F5EE', core = 'white' WHERE slug = 'soft-white';
UPDATE catalog_mats SET color_name = 'Cream', color_hex = '#F3E9D2', core = 'cream' WHERE slug = 'cream';
UPDATE catalog_mats SET color_name = 'Ivory', color_hex = '#F6F1E1', core = 'cream' WHERE slug = 'ivory';
UPDATE catalog_mats SET color_name = 'Natural', color_hex = '#EDE3CC', core = 'cream' WHERE slug = 'natural';
UPDATE catalog_mats SET color_name = 'Eggshell', color_hex = '#F0EAD6', core = 'cream' WHERE slug = 'eggshell';
UPDATE catalog_mats SET color_name = 'Parchment', color_hex = '#EBDFC3', core = 'cream' WHERE slug = 'parchment';
UPDATE catalog_mats SET color_name = 'Sand', color_hex = '#D8C7A3', core = 'white' WHERE slug = 'sand';
UPDATE catalog_mats SET color_name = 'Oatmeal', color_hex = '#D9CDB4', core = 'white' WHERE slug = 'oatmeal';
UPDATE catalog_mats SET color_name = 'Taupe', color_hex = '#A39382', core = 'white' WHERE slug = 'taupe';
UPDATE catalog_mats SET color_name = 'Fog', color_hex = '#C9CBCA', core = 'white' WHERE slug = 'fog';
UPDATE catalog_mats SET color_name = 'Pearl Grey', color_hex = '#D3D3CF', core = 'white' WHERE slug = 'pearl-grey';
UPDATE catalog_mats SET color_name = 'Dove Grey', color_hex = '#B8B6B0', core = 'white' WHERE slug = 'dove-grey';
UPDATE catalog_mats SET color_name = 'Slate Grey', color_hex = '#6D7378', core = 'white' WHERE slug = 'slate-grey';
UPDATE catalog_mats SET color_name = 'Charcoal', color_hex = '#3C3D3F', core = 'white' WHERE slug = 'charcoal';
UPDATE catalog_mats SET color_name = 'Off-Black', color_hex = '#2A2A2A', core = 'white' WHERE slug = 'off-black';
UPDATE catalog_mats SET color_name = 'Black Core Black', color_hex = '#111111', core = 'black' WHERE slug = 'black-core-black';
UPDATE catalog_mats SET color_name = 'Navy', color_hex = '#1F2A44', core = 'white' WHERE slug = 'navy';
UPDATE catalog_mats SET color_name = 'Midnight Blue', color_hex = '#191970', core = 'white' WHERE slug = 'midnight-blue';
UPDATE catalog_mats SET color_name = 'Sky Blue', color_hex = '#9CC3E0', core = 'white' WHERE slug = 'sky-blue';
UPDATE catalog_mats SET color_name = 'Sage', color_hex = '#A3B18A', core = 'white' WHERE slug = 'sage';
UPDATE catalog_mats SET color_name = 'Forest Green', color_hex = '#2F4F3A', core = 'white' WHERE slug = 'forest-green';
UPDATE catalog_mats SET color_name = 'Olive', color_hex = '#6B6B3A', core = 'white' WHERE slug = 'olive';
UPDATE catalog_mats SET color_name = 'Burgundy', color_hex = '#6D1F2F', core = 'white' WHERE slug = 'burgundy';
UPDATE catalog_mats SET color_name = 'Brick Red', color_hex = '#9C3D2E', core = 'white' WHERE slug = 'brick-red';
UPDATE catalog_mats SET color_name = 'Terracotta', color_hex = '#C06C4C', core = 'white' WHERE slug = 'terracotta';
UPDATE catalog_mats SET color_name = 'Mustard', color_hex = '#D1A33C', core = 'white' WHERE slug = 'mustard';
UPDATE catalog_mats SET color_name = 'Blush', color_hex = '#E8C4C0', core = 'white' WHERE slug = 'blush';
UPDATE catalog_mats SET color_name = 'Linen White', color_hex = '#F4F0E6', core = 'white' WHERE slug = 'linen-white';
UPDATE catalog_mats SET color_name = 'Linen Natural', color_hex = '#DCCFB6', core = 'cream' WHERE slug = 'linen-natural';
UPDATE catalog_mats SET color_name = 'Linen Grey', color_hex = '#B9B6AE', core = 'white' WHERE slug = 'linen-grey';
UPDATE catalog_mats SET color_name = 'Suede Black', color_hex = '#1C1C1C', core = 'white' WHERE slug = 'suede-black';
UPDATE catalog_mats SET color_name = 'Suede Ivory', color_hex = '#EFE7D2', core = 'cream' WHERE slug = 'suede-ivory';
UPDATE catalog_mats SET color_name = 'Suede Chocolate', color_hex = '#4B3428', core = 'white' WHERE slug = 'suede-chocolate';
UPDATE catalog_mats SET color_name = 'Museum Rag White', color_hex = '#FDFDFB', core = 'white' WHERE slug = 'museum-rag-white-4ply';
UPDATE catalog_mats SET color_name = 'Museum Rag White', color_hex = '#FDFDFB', core = 'white' WHERE slug = 'museum-rag-white-8ply';
UPDATE catalog_mats SET color_name = 'Museum Rag Antique White', color_hex = '#F2EBDC', core = 'cream' WHERE slug = 'museum-rag-antique-white-4ply';
UPDATE catalog_mats SET color_name = 'Museum Rag Antique White', color_hex = '#F2EBDC', core = 'cream' WHERE slug = 'museum-rag-antique-white-8ply';
UPDATE catalog_mats SET color_name = 'Museum Rag Cream', color_hex = '#F2E7CF', core = 'cream' WHERE slug = 'museum-rag-cream-4ply';
UPDATE catalog_mats SET color_name = 'Museum Rag Cream', color_hex = '#F2E7CF', core = 'cream' WHERE slug = 'museum-rag-cream-8ply';
UPDATE catalog_mats SET color_name = 'Museum Rag Black', color_hex = '#141414', core = 'black' WHERE slug = 'museum-rag-black-4ply';
UPDATE catalog_mats SET color_name = 'Museum Rag Black', color_hex = '#141414', core = 'black' WHERE slug = 'museum-rag-black-8ply';
UPDATE catalog_mats SET color_name = 'Museum Rag Grey', color_hex = '#A7A9AA', core = 'white' WHERE slug = 'museum-rag-grey-4ply';

CREATE TABLE catalog_glazings (
  slug TEXT PRIMARY KEY CHECK (slug GLOB '[a-z0-9]*' AND length(slug) <= 64),
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  position INTEGER NOT NULL UNIQUE
);
INSERT INTO catalog_glazings (slug, name, description, position) VALUES
  ('acrylic', 'Acrylic', 'Clear shatter-resistant acrylic; the standard glazing of a framed piece.', 1),
  ('uv-acrylic', 'Conservation acrylic', 'Acrylic that blocks 99% of UV light, so the print fades far more slowly.', 2),
  ('museum-acrylic', 'Museum acrylic', 'Anti-reflective acrylic that blocks 99% of UV light: nearly invisible, for archival work.', 3),
  ('none', 'No glazing', 'No glazing at all: for canvas and prints that are varnished or meant to be seen bare.', 4);

CREATE TABLE catalog_papers (
  slug TEXT PRIMARY KEY CHECK (slug GLOB '[a-z0-9]*' AND length(slug) <= 64),
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  position INTEGER NOT NULL UNIQUE
);
INSERT INTO catalog_papers (slug, name, description, position) VALUES
  ('archival-matte', 'Archival matte', 'Acid-free 230 gsm matte paper with pigment inks: the default, for most art and illustration.', 1),
  ('photo-lustre', 'Photo lustre', 'A 260 gsm resin-coated photo paper with a soft sheen, for photographs.', 2),
  ('cotton-rag', 'Cotton rag', 'A 310 gsm 100% cotton museum paper with a textured surface, for fine-art editions.', 3);
