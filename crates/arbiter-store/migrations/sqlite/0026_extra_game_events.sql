-- Issue 30: an extra game (GT-P3) is reported as a result is (GT-P2): one entered by a school
-- stands once the other school or an officer confirms it, an officer's at once, and an officer
-- may strike one out with the reason. Each step is a row here, beside the game, never a change:
-- `entered` names the side whose school entered it (none for an officer); an extra game with no
-- `entered` row was recorded before this migration and stands as recorded.
CREATE TABLE extra_game_events (
    id INTEGER PRIMARY KEY,
    extra_game_id INTEGER NOT NULL REFERENCES extra_games (id),
    step TEXT NOT NULL CHECK (step IN ('entered', 'confirmed', 'struck')),
    side TEXT CHECK (side IS NULL OR (side IN ('home', 'away') AND step = 'entered')),
    reason TEXT CHECK ((reason IS NOT NULL) = (step = 'struck')),
    by_user TEXT,
    by_role TEXT,
    at TEXT NOT NULL
);
CREATE INDEX extra_game_events_game ON extra_game_events (extra_game_id);
CREATE UNIQUE INDEX extra_game_events_entered_once ON extra_game_events (extra_game_id)
    WHERE step = 'entered';
CREATE TRIGGER extra_game_events_no_update BEFORE UPDATE ON extra_game_events
BEGIN
    SELECT RAISE(ABORT, 'extra_game_events is append-only: a step on an extra game is never changed or removed');
END;
CREATE TRIGGER extra_game_events_no_delete BEFORE DELETE ON extra_game_events
BEGIN
    SELECT RAISE(ABORT, 'extra_game_events is append-only: a step on an extra game is never changed or removed');
END;
