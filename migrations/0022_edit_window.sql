-- The edit window: how many minutes after its creation a partner may still change an order's
-- recipient, shipping method and items while the floor does not see it. Set per account by an admin
-- (0 to 1440; 0, the default, means no window). Each order keeps the end of its own window, fixed at
-- creation: a later change of the account's setting does not move it. NULL means no window (every
-- order created before, and every order of an account whose window is 0).
ALTER TABLE accounts ADD COLUMN edit_window_minutes INTEGER NOT NULL DEFAULT 0
  CHECK (edit_window_minutes BETWEEN 0 AND 1440);
ALTER TABLE orders ADD COLUMN editable_until TEXT;
