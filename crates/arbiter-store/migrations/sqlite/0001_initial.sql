-- Arbiter's store on SQLite. Times are RFC 3339 text in UTC, dates `YYYY-MM-DD` text, JSON text.
-- Nothing is ever lost: a result is corrected by a new row in result_versions, and the history
-- is append-only (the triggers at the end refuse to change or remove a row of either).

-- One row: the data version, bumped by every write (pages use it for ETags).
CREATE TABLE store_meta (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    data_version INTEGER NOT NULL
);
INSERT INTO store_meta (id, data_version) VALUES (1, 0);

-- A league runs seasons (GTHSCL); an event is held once a year (ASTC).
CREATE TABLE leagues (
    id INTEGER PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('league', 'event')),
    description TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE seasons (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    starts_on TEXT,
    ends_on TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (league_id, slug),
    UNIQUE (id, league_id)
);

-- Schools belong to the league and outlive its seasons.
CREATE TABLE schools (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    name TEXT NOT NULL,
    UNIQUE (league_id, name)
);

-- A competition (a division, a championship). Its slug is unique in the league, across seasons,
-- so that /league/competition addresses it. Rules: a preset name or a whole TOML text.
CREATE TABLE competitions (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL,
    season_id INTEGER NOT NULL,
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    model_name TEXT NOT NULL,
    rules_preset TEXT,
    rules_toml TEXT,
    version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    FOREIGN KEY (season_id, league_id) REFERENCES seasons (id, league_id),
    UNIQUE (league_id, slug),
    CHECK ((rules_preset IS NULL) <> (rules_toml IS NULL))
);
CREATE INDEX competitions_season ON competitions (season_id);

-- position: the team's place in the competition's list.
CREATE TABLE teams (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions (id),
    team_key TEXT NOT NULL,
    name TEXT NOT NULL,
    school_id INTEGER REFERENCES schools (id),
    position INTEGER NOT NULL,
    UNIQUE (competition_id, team_key),
    UNIQUE (competition_id, position)
);

CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions (id),
    player_key TEXT NOT NULL,
    name TEXT NOT NULL,
    rating INTEGER CHECK (rating >= 0),
    provisional INTEGER NOT NULL CHECK (provisional IN (0, 1)),
    UNIQUE (competition_id, player_key)
);

-- AS-10: the roster in the declared order of strength, position 1 first.
CREATE TABLE roster_entries (
    team_id INTEGER NOT NULL REFERENCES teams (id),
    position INTEGER NOT NULL CHECK (position >= 1),
    player_id INTEGER NOT NULL REFERENCES players (id),
    PRIMARY KEY (team_id, position),
    UNIQUE (team_id, player_id)
);

-- position: the round's place in the competition's list of rounds.
CREATE TABLE rounds (
    id INTEGER PRIMARY KEY,
    competition_id INTEGER NOT NULL REFERENCES competitions (id),
    number INTEGER NOT NULL CHECK (number >= 0),
    position INTEGER NOT NULL,
    played_on TEXT,
    UNIQUE (competition_id, number),
    UNIQUE (competition_id, position)
);

-- Matches and byes share the round's pairing positions.
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    position INTEGER NOT NULL,
    home_team_id INTEGER NOT NULL REFERENCES teams (id),
    away_team_id INTEGER NOT NULL REFERENCES teams (id),
    UNIQUE (round_id, position),
    CHECK (home_team_id <> away_team_id)
);
CREATE INDEX matches_home ON matches (home_team_id);
CREATE INDEX matches_away ON matches (away_team_id);

CREATE TABLE byes (
    id INTEGER PRIMARY KEY,
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    position INTEGER NOT NULL,
    team_id INTEGER NOT NULL REFERENCES teams (id),
    kind TEXT NOT NULL CHECK (kind IN ('PAB', 'FPB', 'HPB', 'ZPB')),
    UNIQUE (round_id, position)
);

-- Every result a match has had; the highest version is the one in force.
CREATE TABLE result_versions (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    version INTEGER NOT NULL CHECK (version >= 1),
    outcome TEXT NOT NULL CHECK (outcome IN ('pending', 'boards', 'forfeit', 'double_forfeit')),
    forfeit_by TEXT CHECK (forfeit_by IN ('home', 'away')),
    entered_by TEXT,
    entered_role TEXT,
    entered_at TEXT NOT NULL,
    reason TEXT,
    UNIQUE (match_id, version),
    CHECK ((outcome = 'forfeit') = (forfeit_by IS NOT NULL))
);

-- GT-P1: a board has a result for the team score and, when it differs, one for ratings.
CREATE TABLE result_boards (
    result_version_id INTEGER NOT NULL REFERENCES result_versions (id),
    board INTEGER NOT NULL CHECK (board >= 1),
    result TEXT NOT NULL CHECK (result IN ('1-0', '1/2-1/2', '0-1', '+/-', '-/+', '-/-', '*')),
    rating_result TEXT CHECK (rating_result IN ('1-0', '1/2-1/2', '0-1', '+/-', '-/+', '-/-', '*')),
    home_player_id INTEGER REFERENCES players (id),
    away_player_id INTEGER REFERENCES players (id),
    home_colour TEXT CHECK (home_colour IN ('white', 'black')),
    PRIMARY KEY (result_version_id, board)
);

-- Who changed what, when, in which role, from what to what, and why. Append-only.
CREATE TABLE history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    actor TEXT,
    role TEXT,
    entity TEXT NOT NULL,
    entity_id TEXT NOT NULL,
    action TEXT NOT NULL,
    before_json TEXT,
    after_json TEXT,
    reason TEXT,
    league_id INTEGER REFERENCES leagues (id),
    competition_id INTEGER REFERENCES competitions (id),
    match_id INTEGER REFERENCES matches (id),
    team_key TEXT,
    other_team_key TEXT
);
CREATE INDEX history_league ON history (league_id, id);
CREATE INDEX history_competition ON history (competition_id, id);
CREATE INDEX history_match ON history (match_id, id);

CREATE TRIGGER history_no_update BEFORE UPDATE ON history
BEGIN
    SELECT RAISE(ABORT, 'the history is append-only: its rows are never changed');
END;
CREATE TRIGGER history_no_delete BEFORE DELETE ON history
BEGIN
    SELECT RAISE(ABORT, 'the history is append-only: its rows are never removed');
END;
CREATE TRIGGER result_versions_no_update BEFORE UPDATE ON result_versions
BEGIN
    SELECT RAISE(ABORT, 'a result is corrected by a new version, never changed in place');
END;
CREATE TRIGGER result_versions_no_delete BEFORE DELETE ON result_versions
BEGIN
    SELECT RAISE(ABORT, 'a result version is never removed');
END;
CREATE TRIGGER result_boards_no_update BEFORE UPDATE ON result_boards
BEGIN
    SELECT RAISE(ABORT, 'a result is corrected by a new version, never changed in place');
END;
CREATE TRIGGER result_boards_no_delete BEFORE DELETE ON result_boards
BEGIN
    SELECT RAISE(ABORT, 'a result version is never removed');
END;
