-- Schema 24: an Armageddon game entered for a drawn playoff match, then corrected by a new row
-- naming it (issue 15).
INSERT INTO deciding_games (competition_id, round, team_key, kind, black, result, reason, entered_by, entered_role, entered_at)
SELECT id, 1, 'mau', 'armageddon', 'away', '1-0', 'played after the match', 'president@gthscl.example', 'president', '2026-03-04T19:45:00.000000Z'
FROM competitions WHERE slug = 'varsity';
INSERT INTO deciding_games (competition_id, round, team_key, kind, black, result, reason, entered_by, entered_role, entered_at, corrects)
SELECT competition_id, 1, 'mau', 'armageddon', 'away', '0-1', 'the score sheet says Black won', 'president@gthscl.example', 'president', '2026-03-05T09:00:00.000000Z', id
FROM deciding_games WHERE team_key = 'mau' AND corrects IS NULL;
