-- How the sandbox moves an account's test orders on: 'automatic' (validated, then started, shipped and
-- delivered by themselves, a step at a time) or 'manual' (left `received` until the partner's sandbox
-- controls move them). A new test order takes the account's setting, kept on the order; live orders
-- keep 'automatic', which the sandbox never reads for them.
ALTER TABLE accounts ADD COLUMN sandbox_progress TEXT NOT NULL DEFAULT 'automatic'
	CHECK (sandbox_progress IN ('automatic', 'manual'));
ALTER TABLE orders ADD COLUMN sandbox_progress TEXT NOT NULL DEFAULT 'automatic'
	CHECK (sandbox_progress IN ('automatic', 'manual'));
-- The cron's restart of stalled orders reads the orders left received or validating that the sandbox
-- does not leave to the partner's controls: parked manual test orders are not read at all.
CREATE INDEX orders_resumable ON orders (updated_at)
	WHERE status IN ('received', 'validating') AND sandbox_progress = 'automatic';
