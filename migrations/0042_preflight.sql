-- Preflight: what a print file's headers say of its colour (JSON, written by the inspection), what its
-- pixels say (JSON, written when its thumbnail is made), and the account's choice for CMYK files.
ALTER TABLE print_files ADD COLUMN colour_facts TEXT;
ALTER TABLE print_files ADD COLUMN content_stats TEXT;
ALTER TABLE accounts ADD COLUMN cmyk_files TEXT NOT NULL DEFAULT 'convert' CHECK (cmyk_files IN ('convert', 'hold'));
