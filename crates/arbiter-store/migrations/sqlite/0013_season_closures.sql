-- Issue 12: the days a season's schools are closed (breaks and holidays, GT-M2), from and to
-- inclusive. The schedule is never placed on one and no match moves onto one. A closure added
-- by mistake is withdrawn, never removed or changed: the row keeps what it said, and the
-- history who added and who withdrew it, and why.
CREATE TABLE season_closures (
    id INTEGER PRIMARY KEY,
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    starts_on TEXT NOT NULL,
    ends_on TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at TEXT NOT NULL,
    withdrawn_at TEXT,
    CHECK (ends_on >= starts_on)
);
CREATE INDEX season_closures_season ON season_closures (season_id);

CREATE TRIGGER season_closures_only_withdrawn BEFORE UPDATE ON season_closures
WHEN OLD.withdrawn_at IS NOT NULL
    OR NEW.withdrawn_at IS NULL
    OR NEW.season_id IS NOT OLD.season_id
    OR NEW.starts_on IS NOT OLD.starts_on
    OR NEW.ends_on IS NOT OLD.ends_on
    OR NEW.reason IS NOT OLD.reason
    OR NEW.created_at IS NOT OLD.created_at
BEGIN
    SELECT RAISE(ABORT, 'a closure is never changed, only withdrawn once');
END;
CREATE TRIGGER season_closures_no_delete BEFORE DELETE ON season_closures
BEGIN
    SELECT RAISE(ABORT, 'a closure is never removed; withdraw it');
END;

-- Issue 12: a player withdrawn from the roster during the season: named in no lineup from this
-- day; their games stay. Null: on the roster.
ALTER TABLE players ADD COLUMN withdrawn_on TEXT;

-- Issue 12: the time a match starts when its home advisor has arranged it (GT-M1), `HH:MM`.
ALTER TABLE matches ADD COLUMN start_time TEXT CHECK (start_time IS NULL OR length(start_time) = 5);
