-- Schema 22: the season's end (issue 15): a tie decision, the playoffs drawn with their seeds
-- and calendar, a deciding game, and a media report drafted then published.
INSERT INTO tie_decisions (competition_id, team_order, reason, decided_by, decided_role, decided_at)
SELECT id, '["clay","mau"]', 'GT-F3: a coin tossed at the officers'' meeting', 'president@gthscl.example', 'president', '2026-02-26T18:00:00.000000Z'
FROM competitions WHERE slug = 'varsity';
INSERT INTO playoffs (season_id, competition_id, drawn_by, drawn_role, drawn_at)
SELECT season_id, id, 'president@gthscl.example', 'president', '2026-02-27T09:00:00.000000Z'
FROM competitions WHERE slug = 'varsity';
INSERT INTO playoff_seeds (playoff_id, seed, team_key, name, school, division, place)
SELECT id, 1, 'clay', 'Clay', 'Clay High School', 'Varsity', 1 FROM playoffs;
INSERT INTO playoff_seeds (playoff_id, seed, team_key, name, school, division, place)
SELECT id, 2, 'mau', 'Maumee', 'Maumee High School', 'Varsity', 2 FROM playoffs;
INSERT INTO playoff_days (playoff_id, round, day) SELECT id, 0, '2026-03-02' FROM playoffs;
INSERT INTO playoff_days (playoff_id, round, day) SELECT id, 1, '2026-03-04' FROM playoffs;
INSERT INTO deciding_games (competition_id, round, team_key, kind, black, result, reason, entered_by, entered_role, entered_at)
SELECT id, 1, 'clay', 'armageddon', 'away', '1-0', NULL, 'president@gthscl.example', 'president', '2026-03-04T19:30:00.000000Z'
FROM competitions WHERE slug = 'varsity';
INSERT INTO media_reports (league_id, season_id, moment, version, published, text_body, markdown, written_by, written_role, written_at)
SELECT league_id, season_id, 'end', 1, 0, 'Clay win the Varsity division.', '# Clay win the Varsity division', 'vp@gthscl.example', 'vice_president', '2026-03-20T10:00:00.000000Z'
FROM competitions WHERE slug = 'varsity';
INSERT INTO media_reports (league_id, season_id, moment, version, published, text_body, markdown, written_by, written_role, written_at)
SELECT league_id, season_id, 'end', 2, 1, 'Clay win the Varsity division and the playoffs.', '# Clay win the Varsity division and the playoffs', 'vp@gthscl.example', 'vice_president', '2026-03-21T10:00:00.000000Z'
FROM competitions WHERE slug = 'varsity';
