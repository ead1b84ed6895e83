-- The ledger: what each account owes per mode, one entry per cause. Entries are never changed or
-- deleted; cause_key is unique, so a move replayed or raced writes its entry once.
CREATE TABLE ledger_entries (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  at TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('charge', 'repricing', 'cancellation_credit', 'claim_credit', 'adjustment')),
  order_id TEXT,
  claim_id TEXT,
  amount_cents INTEGER NOT NULL,
  currency TEXT NOT NULL,
  memo TEXT NOT NULL,
  cause_key TEXT NOT NULL UNIQUE
);
-- A month's entries of an account and mode, in order.
CREATE INDEX ledger_entries_by_owner ON ledger_entries (account_id, mode, at, id);
-- An order's charge and repricings, which its cancellation gives back.
CREATE INDEX ledger_entries_by_order ON ledger_entries (order_id, type);

-- Each account, mode and month that has entries, with the balance at its end. A statement's opening
-- balance is the closing of the latest earlier month: one indexed row, however many years pile up.
-- The trigger keeps it in the statement that inserts the entry (so in the entry's own batch); an entry
-- ignored as a repeat of its cause fires nothing.
CREATE TABLE ledger_months (
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  month TEXT NOT NULL,
  net_cents INTEGER NOT NULL,
  closing_balance_cents INTEGER NOT NULL,
  PRIMARY KEY (account_id, mode, month)
) WITHOUT ROWID;

CREATE TRIGGER ledger_months_on_entry AFTER INSERT ON ledger_entries
BEGIN
  -- A month seen for the first time opens at the latest earlier month's closing balance.
  INSERT INTO ledger_months (account_id, mode, month, net_cents, closing_balance_cents)
    SELECT NEW.account_id, NEW.mode, substr(NEW.at, 1, 7), 0,
      COALESCE((SELECT closing_balance_cents FROM ledger_months
        WHERE account_id = NEW.account_id AND mode = NEW.mode AND month < substr(NEW.at, 1, 7)
        ORDER BY month DESC LIMIT 1), 0)
    WHERE NOT EXISTS (SELECT 1 FROM ledger_months
      WHERE account_id = NEW.account_id AND mode = NEW.mode AND month = substr(NEW.at, 1, 7));
  UPDATE ledger_months SET net_cents = net_cents + NEW.amount_cents
    WHERE account_id = NEW.account_id AND mode = NEW.mode AND month = substr(NEW.at, 1, 7);
  -- Its month and any later one already open (an entry dated a little in the past) move by its amount.
  UPDATE ledger_months SET closing_balance_cents = closing_balance_cents + NEW.amount_cents
    WHERE account_id = NEW.account_id AND mode = NEW.mode AND month >= substr(NEW.at, 1, 7);
END;
