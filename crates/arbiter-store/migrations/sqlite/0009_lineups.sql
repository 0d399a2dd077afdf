-- Issue 12: a lineup named before its match (GT-M11, AS-10). A change is a new version; the
-- latest is the one in force, and no version is changed or removed.
CREATE TABLE lineup_versions (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    side TEXT NOT NULL CHECK (side IN ('home', 'away')),
    version INTEGER NOT NULL CHECK (version >= 1),
    entered_by TEXT,
    entered_role TEXT,
    entered_at TEXT NOT NULL,
    UNIQUE (match_id, side, version)
);

-- Each board of the lineup, board 1 first; no player for a board left empty (GT-M9).
CREATE TABLE lineup_boards (
    lineup_version_id INTEGER NOT NULL REFERENCES lineup_versions (id),
    board INTEGER NOT NULL CHECK (board >= 1),
    player_id INTEGER REFERENCES players (id),
    PRIMARY KEY (lineup_version_id, board)
);

-- GT-M12: a higher-ranked player withdrawn so that a lower-ranked one plays.
CREATE TABLE lineup_withdrawals (
    lineup_version_id INTEGER NOT NULL REFERENCES lineup_versions (id),
    player_id INTEGER NOT NULL REFERENCES players (id),
    PRIMARY KEY (lineup_version_id, player_id)
);

CREATE TRIGGER lineup_versions_no_update BEFORE UPDATE ON lineup_versions
BEGIN
    SELECT RAISE(ABORT, 'a lineup is changed by a new version, never in place');
END;
CREATE TRIGGER lineup_versions_no_delete BEFORE DELETE ON lineup_versions
BEGIN
    SELECT RAISE(ABORT, 'a lineup version is never removed');
END;
CREATE TRIGGER lineup_boards_no_update BEFORE UPDATE ON lineup_boards
BEGIN
    SELECT RAISE(ABORT, 'a lineup is changed by a new version, never in place');
END;
CREATE TRIGGER lineup_boards_no_delete BEFORE DELETE ON lineup_boards
BEGIN
    SELECT RAISE(ABORT, 'a lineup version is never removed');
END;
CREATE TRIGGER lineup_withdrawals_no_update BEFORE UPDATE ON lineup_withdrawals
BEGIN
    SELECT RAISE(ABORT, 'a lineup is changed by a new version, never in place');
END;
CREATE TRIGGER lineup_withdrawals_no_delete BEFORE DELETE ON lineup_withdrawals
BEGIN
    SELECT RAISE(ABORT, 'a lineup version is never removed');
END;
