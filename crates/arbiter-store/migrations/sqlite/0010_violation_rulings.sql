-- Issue 12: an officer's ruling on a violation a played match carries (a lineup out of board
-- order): the result stands, with the reason. The violation itself is computed from the record;
-- its key names it (rule, round, home team, team, board). Rulings are never changed or removed.
CREATE TABLE violation_rulings (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions (id),
    finding_key TEXT NOT NULL,
    message TEXT NOT NULL,
    reason TEXT NOT NULL,
    ruled_by TEXT,
    ruled_role TEXT,
    ruled_at TEXT NOT NULL,
    UNIQUE (competition_id, finding_key)
);

CREATE TRIGGER violation_rulings_no_update BEFORE UPDATE ON violation_rulings
BEGIN
    SELECT RAISE(ABORT, 'a ruling is never changed; correct the result instead');
END;
CREATE TRIGGER violation_rulings_no_delete BEFORE DELETE ON violation_rulings
BEGIN
    SELECT RAISE(ABORT, 'a ruling is never removed');
END;
