-- Issue 13: a finished game's moves (PGN), uploaded by either school's advisor and shown on the
-- players' pages (GT-M20's game scores). A board's later upload supersedes the one before it;
-- none is changed or removed.
CREATE TABLE game_scores (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    board INTEGER NOT NULL CHECK (board >= 1),
    upload INTEGER NOT NULL CHECK (upload >= 1),
    pgn TEXT NOT NULL,
    UNIQUE (match_id, board, upload)
);
CREATE TRIGGER game_scores_no_update BEFORE UPDATE ON game_scores
BEGIN
    SELECT RAISE(ABORT, 'game_scores is append-only: an upload is never changed or removed');
END;
CREATE TRIGGER game_scores_no_delete BEFORE DELETE ON game_scores
BEGIN
    SELECT RAISE(ABORT, 'game_scores is append-only: an upload is never changed or removed');
END;
