-- Issue 32 item 5: the officers may waive all or part of a school's entry fee (GT-O2), with the
-- reason, as a ledger entry of its own kind: the school owes that much less and no money moves.
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check;
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
    CHECK (kind IN ('payment', 'refund', 'prize_purchase', 'waiver', 'reversal'));
