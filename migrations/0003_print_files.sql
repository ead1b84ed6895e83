-- Print files uploaded by partners (spec 2.4, 4.4; contract "Print files"). The bytes live in R2 under r2_key;
-- this row holds who owns them, the upload window and, once inspected, what they are.
CREATE TABLE print_files (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  status TEXT NOT NULL CHECK (status IN ('awaiting_upload', 'processing', 'ready', 'invalid')),
  filename TEXT,
  content_type TEXT NOT NULL,
  declared_size_bytes INTEGER,
  r2_key TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  uploaded_at TEXT,
  -- Filled by the inspection, once.
  format TEXT CHECK (format IN ('tiff', 'png', 'jpeg')),
  width_px INTEGER,
  height_px INTEGER,
  size_bytes INTEGER,
  invalid_reason TEXT,
  invalid_message TEXT,
  inspected_at TEXT,
  inspection_bytes_read INTEGER
);
CREATE INDEX print_files_by_owner ON print_files (account_id, mode, created_at);
