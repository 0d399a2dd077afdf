-- Issue 15: a deciding game corrected. The correction is a new row of deciding_games naming the
-- row it corrects; the corrected row stays, so nothing is lost and the history shows both.
ALTER TABLE deciding_games ADD COLUMN corrects INTEGER REFERENCES deciding_games (id);
CREATE UNIQUE INDEX deciding_games_corrected_once ON deciding_games (corrects);
