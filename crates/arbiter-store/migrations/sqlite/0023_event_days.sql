-- Issue 14: an ASTC event's days (AS-1..AS-3, AS-11..AS-13). Every table here is added to, never
-- changed: the event is set again as a new version, the latest in force.

-- AS-1: the event as its sheets print it, and the hall's offset from UTC (the event's clock:
-- the roster lock, protests and lineups are due by the hall's time).
CREATE TABLE event_versions (
    id INTEGER PRIMARY KEY,
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    version INTEGER NOT NULL CHECK (version >= 1),
    name TEXT NOT NULL,
    host TEXT NOT NULL,
    venue TEXT NOT NULL,
    utc_offset_minutes INTEGER NOT NULL CHECK (utc_offset_minutes BETWEEN -720 AND 840),
    entered_by TEXT,
    entered_role TEXT,
    entered_at TEXT NOT NULL,
    UNIQUE (season_id, version)
);

-- AS-3, AS-11: when each round of each competition starts, in the hall's time (`YYYY-MM-DDTHH:MM`).
CREATE TABLE event_round_starts (
    event_version_id INTEGER NOT NULL REFERENCES event_versions (id),
    competition_id INTEGER NOT NULL REFERENCES competitions (id),
    round INTEGER NOT NULL CHECK (round >= 1),
    starts_at TEXT NOT NULL,
    PRIMARY KEY (event_version_id, competition_id, round)
);

-- AS-11: a lineup named after its deadline and accepted by the arbiter: when it was named, who
-- accepted it and why.
CREATE TABLE late_lineups (
    lineup_version_id INTEGER PRIMARY KEY REFERENCES lineup_versions (id),
    named_at TEXT NOT NULL,
    minutes_late INTEGER NOT NULL CHECK (minutes_late >= 1),
    accepted_by TEXT NOT NULL,
    reason TEXT NOT NULL
);

-- AS-13: a protest against a team's order, lodged with written grounds by another team between
-- the roster lock and the close of protests (times in the hall's clock); the team affected's
-- reply (no text: it declined); the arbiter's decision, and when upheld the order it set. One
-- reply and one decision a protest; none is changed.
CREATE TABLE protests (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions (id),
    number INTEGER NOT NULL CHECK (number >= 1),
    by_team TEXT NOT NULL,
    against_team TEXT NOT NULL,
    grounds TEXT NOT NULL,
    lodged_at TEXT NOT NULL,
    order_protested TEXT NOT NULL,
    entered_by TEXT,
    entered_role TEXT,
    entered_at TEXT NOT NULL,
    UNIQUE (competition_id, number)
);
CREATE TABLE protest_replies (
    protest_id INTEGER PRIMARY KEY REFERENCES protests (id),
    answer TEXT,
    replied_at TEXT NOT NULL,
    entered_by TEXT,
    entered_role TEXT,
    entered_at TEXT NOT NULL
);
CREATE TABLE protest_decisions (
    protest_id INTEGER PRIMARY KEY REFERENCES protests (id),
    ruling TEXT NOT NULL CHECK (ruling IN ('dismissed', 'upheld')),
    new_order TEXT,
    reason TEXT,
    decided_at TEXT NOT NULL,
    decided_by TEXT NOT NULL,
    entered_role TEXT,
    entered_at TEXT NOT NULL
);

CREATE TRIGGER event_versions_no_update BEFORE UPDATE ON event_versions
BEGIN
    SELECT RAISE(ABORT, 'event_versions is append-only: the event is set again as a new version');
END;
CREATE TRIGGER event_versions_no_delete BEFORE DELETE ON event_versions
BEGIN
    SELECT RAISE(ABORT, 'event_versions is append-only: the event is set again as a new version');
END;
CREATE TRIGGER event_round_starts_no_update BEFORE UPDATE ON event_round_starts
BEGIN
    SELECT RAISE(ABORT, 'event_round_starts is append-only: the event is set again as a new version');
END;
CREATE TRIGGER event_round_starts_no_delete BEFORE DELETE ON event_round_starts
BEGIN
    SELECT RAISE(ABORT, 'event_round_starts is append-only: the event is set again as a new version');
END;
CREATE TRIGGER late_lineups_no_update BEFORE UPDATE ON late_lineups
BEGIN
    SELECT RAISE(ABORT, 'late_lineups is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER late_lineups_no_delete BEFORE DELETE ON late_lineups
BEGIN
    SELECT RAISE(ABORT, 'late_lineups is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER protests_no_update BEFORE UPDATE ON protests
BEGIN
    SELECT RAISE(ABORT, 'protests is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER protests_no_delete BEFORE DELETE ON protests
BEGIN
    SELECT RAISE(ABORT, 'protests is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER protest_replies_no_update BEFORE UPDATE ON protest_replies
BEGIN
    SELECT RAISE(ABORT, 'protest_replies is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER protest_replies_no_delete BEFORE DELETE ON protest_replies
BEGIN
    SELECT RAISE(ABORT, 'protest_replies is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER protest_decisions_no_update BEFORE UPDATE ON protest_decisions
BEGIN
    SELECT RAISE(ABORT, 'protest_decisions is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER protest_decisions_no_delete BEFORE DELETE ON protest_decisions
BEGIN
    SELECT RAISE(ABORT, 'protest_decisions is append-only: its rows are never changed or removed');
END;
