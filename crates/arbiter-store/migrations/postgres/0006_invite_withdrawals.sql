-- Issue 9: an officer withdraws a pending invitation; the row stays, with when and by whom, and
-- the history keeps the change.
ALTER TABLE invites ADD COLUMN withdrawn_at TIMESTAMPTZ;
ALTER TABLE invites ADD COLUMN withdrawn_by TEXT;
