-- Issue 32 item 5: the officers may waive all or part of a school's entry fee (GT-O2), with the
-- reason, as a ledger entry of its own kind: the school owes that much less and no money moves.
-- SQLite cannot change a CHECK, so the table is rebuilt with its rows and its triggers.
CREATE TABLE ledger_entries_with_waivers (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    number INTEGER NOT NULL CHECK (number >= 1),
    kind TEXT NOT NULL CHECK (kind IN ('payment', 'refund', 'prize_purchase', 'waiver', 'reversal')),
    school_id INTEGER REFERENCES schools (id),
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    happened_on TEXT NOT NULL,
    note TEXT NOT NULL,
    reverses INTEGER,
    recorded_by TEXT,
    recorded_role TEXT,
    recorded_at TEXT NOT NULL,
    FOREIGN KEY (season_id, league_id) REFERENCES seasons (id, league_id),
    FOREIGN KEY (season_id, reverses) REFERENCES ledger_entries_with_waivers (season_id, number),
    UNIQUE (season_id, number),
    UNIQUE (season_id, reverses),
    CHECK ((kind = 'reversal') = (reverses IS NOT NULL)),
    CHECK (kind = 'reversal' OR (kind = 'prize_purchase') = (school_id IS NULL))
);
INSERT INTO ledger_entries_with_waivers
    (id, league_id, season_id, number, kind, school_id, amount_cents, happened_on, note, reverses, recorded_by, recorded_role, recorded_at)
SELECT id, league_id, season_id, number, kind, school_id, amount_cents, happened_on, note, reverses, recorded_by, recorded_role, recorded_at
FROM ledger_entries ORDER BY id;
DROP TRIGGER ledger_entries_no_update;
DROP TRIGGER ledger_entries_no_delete;
DROP TABLE ledger_entries;
ALTER TABLE ledger_entries_with_waivers RENAME TO ledger_entries;

CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'a ledger entry is never changed; record a reversal and the right entry instead');
END;
CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
BEGIN
    SELECT RAISE(ABORT, 'a ledger entry is never removed; record a reversal instead');
END;
