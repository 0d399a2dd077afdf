-- Issue 15: the end of a GTHSCL season. Every table here is added to, never changed: a new row
-- supersedes an older one where it must (a decision, a media report's version).

-- GT-F3: the officers' order of teams a division's criteria cannot separate, with the reason;
-- the latest decision naming a group is the one in force.
CREATE TABLE tie_decisions (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions (id),
    team_order TEXT NOT NULL,
    reason TEXT NOT NULL,
    decided_by TEXT,
    decided_role TEXT,
    decided_at TEXT NOT NULL
);

-- GT-F3: a season's playoffs, drawn once: the competition its matches are played in.
CREATE TABLE playoffs (
    id INTEGER PRIMARY KEY,
    season_id INTEGER NOT NULL UNIQUE REFERENCES seasons (id),
    competition_id INTEGER NOT NULL UNIQUE REFERENCES competitions (id),
    drawn_by TEXT,
    drawn_role TEXT,
    drawn_at TEXT NOT NULL
);

-- The seeded field (GT-F3): each team's seed and where it qualified from.
CREATE TABLE playoff_seeds (
    playoff_id INTEGER NOT NULL REFERENCES playoffs (id),
    seed INTEGER NOT NULL CHECK (seed >= 1),
    team_key TEXT NOT NULL,
    name TEXT NOT NULL,
    school TEXT,
    division TEXT NOT NULL,
    place INTEGER NOT NULL CHECK (place >= 1),
    PRIMARY KEY (playoff_id, seed),
    UNIQUE (playoff_id, team_key)
);

-- The playoff calendar (GT-F5): each round's day, and the bye date for all schools (round 0).
CREATE TABLE playoff_days (
    playoff_id INTEGER NOT NULL REFERENCES playoffs (id),
    round INTEGER NOT NULL CHECK (round >= 0),
    day TEXT NOT NULL,
    PRIMARY KEY (playoff_id, round)
);

-- A game deciding a drawn knockout match (an Armageddon or a playoff game), from the drawn
-- match's home side; `black` is the side whose player had Black.
CREATE TABLE deciding_games (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions (id),
    round INTEGER NOT NULL CHECK (round >= 1),
    team_key TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('armageddon', 'playoff_game')),
    black TEXT NOT NULL CHECK (black IN ('home', 'away')),
    result TEXT NOT NULL CHECK (result IN ('1-0', '1/2-1/2', '0-1')),
    reason TEXT,
    entered_by TEXT,
    entered_role TEXT,
    entered_at TEXT NOT NULL
);

-- GT-O3: the media reports, midway and at the end: every draft the Vice-President saves and
-- every version published, numbered in their season and moment.
CREATE TABLE media_reports (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    moment TEXT NOT NULL CHECK (moment IN ('midway', 'end')),
    version INTEGER NOT NULL CHECK (version >= 1),
    published INTEGER NOT NULL CHECK (published IN (0, 1)),
    text_body TEXT NOT NULL,
    markdown TEXT NOT NULL,
    written_by TEXT,
    written_role TEXT,
    written_at TEXT NOT NULL,
    FOREIGN KEY (season_id, league_id) REFERENCES seasons (id, league_id),
    UNIQUE (season_id, moment, version)
);
CREATE TRIGGER tie_decisions_no_update BEFORE UPDATE ON tie_decisions
BEGIN
    SELECT RAISE(ABORT, 'tie_decisions is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER tie_decisions_no_delete BEFORE DELETE ON tie_decisions
BEGIN
    SELECT RAISE(ABORT, 'tie_decisions is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER playoffs_no_update BEFORE UPDATE ON playoffs
BEGIN
    SELECT RAISE(ABORT, 'playoffs is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER playoffs_no_delete BEFORE DELETE ON playoffs
BEGIN
    SELECT RAISE(ABORT, 'playoffs is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER playoff_seeds_no_update BEFORE UPDATE ON playoff_seeds
BEGIN
    SELECT RAISE(ABORT, 'playoff_seeds is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER playoff_seeds_no_delete BEFORE DELETE ON playoff_seeds
BEGIN
    SELECT RAISE(ABORT, 'playoff_seeds is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER playoff_days_no_update BEFORE UPDATE ON playoff_days
BEGIN
    SELECT RAISE(ABORT, 'playoff_days is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER playoff_days_no_delete BEFORE DELETE ON playoff_days
BEGIN
    SELECT RAISE(ABORT, 'playoff_days is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER deciding_games_no_update BEFORE UPDATE ON deciding_games
BEGIN
    SELECT RAISE(ABORT, 'deciding_games is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER deciding_games_no_delete BEFORE DELETE ON deciding_games
BEGIN
    SELECT RAISE(ABORT, 'deciding_games is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER media_reports_no_update BEFORE UPDATE ON media_reports
BEGIN
    SELECT RAISE(ABORT, 'media_reports is append-only: its rows are never changed or removed');
END;
CREATE TRIGGER media_reports_no_delete BEFORE DELETE ON media_reports
BEGIN
    SELECT RAISE(ABORT, 'media_reports is append-only: its rows are never changed or removed');
END;
