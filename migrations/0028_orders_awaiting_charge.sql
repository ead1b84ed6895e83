-- Orders released to the floor only when their edit window ends are charged then, by their Durable
-- Object's alarm, with the cron's sweep as a safety net. The sweep reads only the orders still
-- awaiting that charge: `awaiting_charge` is 1 from the create (for an order with an edit window)
-- until the charge is written, and the partial index holds only such orders in production, so a run
-- reads what is due, never every order in production.
ALTER TABLE orders ADD COLUMN awaiting_charge INTEGER;

UPDATE orders SET awaiting_charge = 1
 WHERE editable_until IS NOT NULL
   AND status IN ('received', 'validating', 'on_hold', 'in_production')
   AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE cause_key = 'charge:' || orders.id);

CREATE INDEX orders_awaiting_charge ON orders (editable_until)
 WHERE status = 'in_production' AND awaiting_charge = 1;
