-- Issue 12: the Treasurer's fee ledger (GT-O2), one per season: payments from schools, refunds
-- to them, the league's prize purchases, and reversals of entries recorded by mistake. Entries are
-- numbered 1, 2, 3 … in their season; a reversal names the number it undoes (once). The fees due
-- are not here: they are the rules' `[fees]`. No entry is changed or removed.
CREATE TABLE ledger_entries (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    number INTEGER NOT NULL CHECK (number >= 1),
    kind TEXT NOT NULL CHECK (kind IN ('payment', 'refund', 'prize_purchase', 'reversal')),
    school_id INTEGER REFERENCES schools (id),
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    happened_on TEXT NOT NULL,
    note TEXT NOT NULL,
    reverses INTEGER,
    recorded_by TEXT,
    recorded_role TEXT,
    recorded_at TEXT NOT NULL,
    FOREIGN KEY (season_id, league_id) REFERENCES seasons (id, league_id),
    FOREIGN KEY (season_id, reverses) REFERENCES ledger_entries (season_id, number),
    UNIQUE (season_id, number),
    UNIQUE (season_id, reverses),
    CHECK ((kind = 'reversal') = (reverses IS NOT NULL)),
    CHECK (kind = 'reversal' OR (kind = 'prize_purchase') = (school_id IS NULL))
);

CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'a ledger entry is never changed; record a reversal and the right entry instead');
END;
CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'a ledger entry is never removed; record a reversal instead');
END;
