-- Issue 11: a player's FIDE record (B.02's K: birth date, rated games before the event, an
-- explicit K) and GT-R7's unranked players, kept as the competition file gives them.
ALTER TABLE players ADD COLUMN birth_date DATE;
ALTER TABLE players ADD COLUMN rated_games BIGINT CHECK (rated_games >= 0);
ALTER TABLE players ADD COLUMN k BIGINT CHECK (k >= 0);
ALTER TABLE players ADD COLUMN unranked BOOLEAN NOT NULL DEFAULT FALSE;
