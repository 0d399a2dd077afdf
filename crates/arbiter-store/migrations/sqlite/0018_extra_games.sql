-- Issue 13: games recorded with a match, below its boards and outside its score (GT-P3): a
-- challenge game, rated (GT-R5), or an unranked game (GT-R7). Added, never changed or removed.
CREATE TABLE extra_games (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    position INTEGER NOT NULL CHECK (position >= 1),
    white_player_id INTEGER NOT NULL REFERENCES players (id),
    black_player_id INTEGER NOT NULL REFERENCES players (id),
    result TEXT NOT NULL CHECK (result IN ('1-0', '1/2-1/2', '0-1')),
    kind TEXT NOT NULL CHECK (kind IN ('challenge', 'unranked')),
    UNIQUE (match_id, position)
);
CREATE TRIGGER extra_games_no_update BEFORE UPDATE ON extra_games
BEGIN
    SELECT RAISE(ABORT, 'extra_games is append-only: an extra game is never changed or removed');
END;
CREATE TRIGGER extra_games_no_delete BEFORE DELETE ON extra_games
BEGIN
    SELECT RAISE(ABORT, 'extra_games is append-only: an extra game is never changed or removed');
END;
