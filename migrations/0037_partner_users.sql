-- The partner console's people: each a user of one account, with a role, signed in by email and
-- password. Kept in the directory database beside accounts and keys: a sign-in finds the user by email
-- before it knows the account.
CREATE TABLE partner_users (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  -- Lower-cased and trimmed: one user per address, across every account (a user sees one account).
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'developer', 'support', 'viewer')),
  -- PBKDF2 (src/partner-users/password.ts); null until the user accepts the invitation.
  password_hash TEXT,
  created_at TEXT NOT NULL,
  -- A revoked user signs in no more, and every session of theirs ends at once.
  revoked_at TEXT,
  -- Wrong passwords in a row, and the lock they led to (src/partner-users/lockout.ts).
  failed_attempts INTEGER NOT NULL DEFAULT 0,
  locked_until TEXT,
  -- "Sign out everywhere": sessions begun before this time are over.
  sessions_valid_after TEXT
);
CREATE INDEX partner_users_by_account ON partner_users (account_id, created_at, id);

-- An invitation (or a password reset) is a link with a random token, kept only as its SHA-256.
CREATE TABLE partner_invitations (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES partner_users (id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX partner_invitations_by_user ON partner_invitations (user_id);

-- A signed-in browser: the cookie names the row, signing out or revoking the user ends it.
CREATE TABLE partner_sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES partner_users (id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX partner_sessions_by_user ON partner_sessions (user_id);
