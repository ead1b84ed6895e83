-- The partner's own tax on each ledger entry, and balances kept per currency.
--
-- Each entry carries the tax on its taxable amount (signed like the amount: a credit gives tax back),
-- how it was taxed (none, VAT at a rate, or reverse charge: the partner accounts for the VAT itself)
-- and the rate in hundredths of a percent. Entries written before have none.
ALTER TABLE ledger_entries ADD COLUMN tax_cents INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ledger_entries ADD COLUMN tax_treatment TEXT NOT NULL DEFAULT 'none'
  CHECK (tax_treatment IN ('none', 'vat', 'reverse_charge'));
ALTER TABLE ledger_entries ADD COLUMN tax_rate_bp INTEGER NOT NULL DEFAULT 0
  CHECK (tax_rate_bp BETWEEN 0 AND 10000);

-- A balance is a sum of one currency's amounts: an account that changes currency opens its first month
-- in the new one at that currency's earlier closing (0 when it had none), never at the old currency's.
-- The months are rebuilt from the entries with their currency in the key.
CREATE TABLE ledger_months_by_currency (
  account_id TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
  currency TEXT NOT NULL,
  month TEXT NOT NULL,
  net_cents INTEGER NOT NULL,
  closing_balance_cents INTEGER NOT NULL,
  PRIMARY KEY (account_id, mode, currency, month)
) WITHOUT ROWID;

INSERT INTO ledger_months_by_currency (account_id, mode, currency, month, net_cents, closing_balance_cents)
  SELECT account_id, mode, currency, month, net_cents,
    SUM(net_cents) OVER (PARTITION BY account_id, mode, currency ORDER BY month)
  FROM (SELECT account_id, mode, currency, substr(at, 1, 7) AS month, SUM(amount_cents) AS net_cents
        FROM ledger_entries GROUP BY account_id, mode, currency, substr(at, 1, 7));

DROP TRIGGER ledger_months_on_entry;
DROP TABLE ledger_months;
ALTER TABLE ledger_months_by_currency RENAME TO ledger_months;
-- Each account's latest month up to a given one, whatever its currency (the console's overview).
CREATE INDEX ledger_months_by_month ON ledger_months (account_id, mode, month);

CREATE TRIGGER ledger_months_on_entry AFTER INSERT ON ledger_entries
BEGIN
  -- A month seen for the first time in a currency opens at that currency's latest earlier closing.
  INSERT INTO ledger_months (account_id, mode, currency, month, net_cents, closing_balance_cents)
    SELECT NEW.account_id, NEW.mode, NEW.currency, substr(NEW.at, 1, 7), 0,
      COALESCE((SELECT closing_balance_cents FROM ledger_months
        WHERE account_id = NEW.account_id AND mode = NEW.mode AND currency = NEW.currency
          AND month < substr(NEW.at, 1, 7)
        ORDER BY month DESC LIMIT 1), 0)
    WHERE NOT EXISTS (SELECT 1 FROM ledger_months
      WHERE account_id = NEW.account_id AND mode = NEW.mode AND currency = NEW.currency
        AND month = substr(NEW.at, 1, 7));
  UPDATE ledger_months SET net_cents = net_cents + NEW.amount_cents
    WHERE account_id = NEW.account_id AND mode = NEW.mode AND currency = NEW.currency
      AND month = substr(NEW.at, 1, 7);
  -- Its month and any later one already open (an entry dated a little in the past) move by its amount.
  UPDATE ledger_months SET closing_balance_cents = closing_balance_cents + NEW.amount_cents
    WHERE account_id = NEW.account_id AND mode = NEW.mode AND currency = NEW.currency
      AND month >= substr(NEW.at, 1, 7);
END;
