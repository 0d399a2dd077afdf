-- Schema 1: a league, its season and schools, a competition (three teams, rosters in order,
-- rounds with a dated and an undated one, matches, byes in the old spelling), results in two
-- versions with a rating result that differs (GT-P1), a forfeit, and history rows.
INSERT INTO leagues (slug, name, kind, description, created_at)
VALUES ('gthscl', 'Greater Toledo High School Chess League', 'league', 'Varsity <&"''>; matches on Tuesdays.', '2025-08-01T09:00:00.000000Z');
INSERT INTO leagues (slug, name, kind, description, created_at)
VALUES ('astc', 'Australian Schools Team Championships', 'event', '', '2025-08-01T09:00:01.000000Z');
INSERT INTO seasons (league_id, slug, name, starts_on, ends_on, created_at)
SELECT id, '2025-26', 'Season 2025–26', '2025-09-01', '2026-03-31', '2025-08-01T09:01:00.000000Z' FROM leagues WHERE slug = 'gthscl';
INSERT INTO seasons (league_id, slug, name, starts_on, ends_on, created_at)
SELECT id, '2026', '2026', NULL, NULL, '2025-08-01T09:01:01.000000Z' FROM leagues WHERE slug = 'astc';
INSERT INTO schools (league_id, name) SELECT id, 'Clay High School' FROM leagues WHERE slug = 'gthscl';
INSERT INTO schools (league_id, name) SELECT id, 'École Maumee <&>' FROM leagues WHERE slug = 'gthscl';
INSERT INTO competitions (league_id, season_id, slug, name, model_name, rules_preset, rules_toml, version, created_at)
SELECT l.id, s.id, 'varsity', 'Varsity', 'GTHSCL Varsity 2025–26', 'gthscl', NULL, 3, '2025-08-02T10:00:00.000000Z'
FROM leagues l JOIN seasons s ON s.league_id = l.id WHERE l.slug = 'gthscl';
INSERT INTO competitions (league_id, season_id, slug, name, model_name, rules_preset, rules_toml, version, created_at)
SELECT l.id, s.id, 'open', 'Secondary Open', 'ASTC 2026 Secondary Open', NULL, 'extends = "astc"', 1, '2025-08-02T10:00:01.000000Z'
FROM leagues l JOIN seasons s ON s.league_id = l.id WHERE l.slug = 'astc';

INSERT INTO teams (competition_id, team_key, name, school_id, position)
SELECT c.id, 'clay', 'Clay', sc.id, 1 FROM competitions c JOIN schools sc ON sc.league_id = c.league_id
WHERE c.slug = 'varsity' AND sc.name = 'Clay High School';
INSERT INTO teams (competition_id, team_key, name, school_id, position)
SELECT c.id, 'mau', 'Maumee 北', sc.id, 2 FROM competitions c JOIN schools sc ON sc.league_id = c.league_id
WHERE c.slug = 'varsity' AND sc.name = 'École Maumee <&>';
INSERT INTO teams (competition_id, team_key, name, school_id, position)
SELECT id, 'syl', 'Sylvania', NULL, 3 FROM competitions WHERE slug = 'varsity';

INSERT INTO players (competition_id, player_key, name, rating, provisional)
SELECT id, 'clay-1', 'Zoë Ångström', 1850, FALSE FROM competitions WHERE slug = 'varsity';
INSERT INTO players (competition_id, player_key, name, rating, provisional)
SELECT id, 'clay-2', 'O''Brien "Bobby"', NULL, FALSE FROM competitions WHERE slug = 'varsity';
INSERT INTO players (competition_id, player_key, name, rating, provisional)
SELECT id, 'mau-1', 'Jo Král', 1300, TRUE FROM competitions WHERE slug = 'varsity';
INSERT INTO players (competition_id, player_key, name, rating, provisional)
SELECT id, 'mau-2', 'Lee Ng', 1250, FALSE FROM competitions WHERE slug = 'varsity';
INSERT INTO players (competition_id, player_key, name, rating, provisional)
SELECT id, 'syl-1', 'Ñoño Ü', 1100, FALSE FROM competitions WHERE slug = 'varsity';

INSERT INTO roster_entries (team_id, position, player_id)
SELECT t.id, 1, p.id FROM teams t JOIN players p ON p.competition_id = t.competition_id WHERE t.team_key = 'clay' AND p.player_key = 'clay-1';
INSERT INTO roster_entries (team_id, position, player_id)
SELECT t.id, 2, p.id FROM teams t JOIN players p ON p.competition_id = t.competition_id WHERE t.team_key = 'clay' AND p.player_key = 'clay-2';
INSERT INTO roster_entries (team_id, position, player_id)
SELECT t.id, 1, p.id FROM teams t JOIN players p ON p.competition_id = t.competition_id WHERE t.team_key = 'mau' AND p.player_key = 'mau-1';
INSERT INTO roster_entries (team_id, position, player_id)
SELECT t.id, 2, p.id FROM teams t JOIN players p ON p.competition_id = t.competition_id WHERE t.team_key = 'mau' AND p.player_key = 'mau-2';
INSERT INTO roster_entries (team_id, position, player_id)
SELECT t.id, 1, p.id FROM teams t JOIN players p ON p.competition_id = t.competition_id WHERE t.team_key = 'syl' AND p.player_key = 'syl-1';

INSERT INTO rounds (competition_id, number, position, played_on) SELECT id, 1, 1, '2025-09-16' FROM competitions WHERE slug = 'varsity';
INSERT INTO rounds (competition_id, number, position, played_on) SELECT id, 2, 2, NULL FROM competitions WHERE slug = 'varsity';

INSERT INTO matches (round_id, position, home_team_id, away_team_id)
SELECT r.id, 1, h.id, a.id FROM rounds r JOIN teams h ON h.competition_id = r.competition_id JOIN teams a ON a.competition_id = r.competition_id
WHERE r.number = 1 AND h.team_key = 'clay' AND a.team_key = 'mau';
INSERT INTO matches (round_id, position, home_team_id, away_team_id)
SELECT r.id, 2, h.id, a.id FROM rounds r JOIN teams h ON h.competition_id = r.competition_id JOIN teams a ON a.competition_id = r.competition_id
WHERE r.number = 2 AND h.team_key = 'mau' AND a.team_key = 'syl';
INSERT INTO byes (round_id, position, team_id, kind)
SELECT r.id, 2, t.id, 'PAB' FROM rounds r JOIN teams t ON t.competition_id = r.competition_id WHERE r.number = 1 AND t.team_key = 'syl';
INSERT INTO byes (round_id, position, team_id, kind)
SELECT r.id, 1, t.id, 'HPB' FROM rounds r JOIN teams t ON t.competition_id = r.competition_id WHERE r.number = 2 AND t.team_key = 'clay';

INSERT INTO result_versions (match_id, version, outcome, forfeit_by, entered_by, entered_role, entered_at, reason)
SELECT m.id, 1, 'boards', NULL, 'advisor@clay.example', 'advisor', '2025-09-16T20:00:00.000000Z', NULL
FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 1;
INSERT INTO result_versions (match_id, version, outcome, forfeit_by, entered_by, entered_role, entered_at, reason)
SELECT m.id, 2, 'boards', NULL, 'president@gthscl.example', 'president', '2025-09-17T08:00:00.000000Z', 'board 2 misread'
FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 1;
INSERT INTO result_versions (match_id, version, outcome, forfeit_by, entered_by, entered_role, entered_at, reason)
SELECT m.id, 1, 'forfeit', 'away', NULL, NULL, '2025-09-23T20:00:00.000000Z', NULL
FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 2;

INSERT INTO result_boards (result_version_id, board, result, rating_result, home_player_id, away_player_id, home_colour)
SELECT v.id, 1, '1-0', NULL, hp.id, ap.id, 'white' FROM result_versions v JOIN players hp ON hp.player_key = 'clay-1' JOIN players ap ON ap.player_key = 'mau-1'
WHERE v.version = 1 AND v.outcome = 'boards';
INSERT INTO result_boards (result_version_id, board, result, rating_result, home_player_id, away_player_id, home_colour)
SELECT v.id, 2, '0-1', NULL, hp.id, ap.id, 'black' FROM result_versions v JOIN players hp ON hp.player_key = 'clay-2' JOIN players ap ON ap.player_key = 'mau-2'
WHERE v.version = 1 AND v.outcome = 'boards';
INSERT INTO result_boards (result_version_id, board, result, rating_result, home_player_id, away_player_id, home_colour)
SELECT v.id, 1, '1-0', NULL, hp.id, ap.id, 'white' FROM result_versions v JOIN players hp ON hp.player_key = 'clay-1' JOIN players ap ON ap.player_key = 'mau-1'
WHERE v.version = 2;
INSERT INTO result_boards (result_version_id, board, result, rating_result, home_player_id, away_player_id, home_colour)
SELECT v.id, 2, '+/-', '1/2-1/2', hp.id, NULL, NULL FROM result_versions v JOIN players hp ON hp.player_key = 'clay-2'
WHERE v.version = 2;

INSERT INTO history (at, actor, role, entity, entity_id, action, before_json, after_json, reason, league_id, competition_id, match_id, team_key, other_team_key)
SELECT '2025-08-01T09:00:00.000000Z', NULL, NULL, 'league', CAST(id AS TEXT), 'create', NULL, '{"slug": "gthscl"}', NULL, id, NULL, NULL, NULL, NULL FROM leagues WHERE slug = 'gthscl';
INSERT INTO history (at, actor, role, entity, entity_id, action, before_json, after_json, reason, league_id, competition_id, match_id, team_key, other_team_key)
SELECT '2025-08-02T10:00:00.000000Z', 'president@gthscl.example', 'president', 'competition', CAST(id AS TEXT), 'import', NULL, '{"teams": 3}', NULL, league_id, id, NULL, NULL, NULL FROM competitions WHERE slug = 'varsity';
INSERT INTO history (at, actor, role, entity, entity_id, action, before_json, after_json, reason, league_id, competition_id, match_id, team_key, other_team_key)
SELECT '2025-09-17T08:00:00.000000Z', 'president@gthscl.example', 'president', 'match', CAST(m.id AS TEXT), 'record_result', '{"version": 1}', '{"version": 2}', 'board 2 misread', c.league_id, c.id, m.id, 'clay', 'mau'
FROM matches m JOIN rounds r ON r.id = m.round_id JOIN competitions c ON c.id = r.competition_id WHERE r.number = 1;
UPDATE store_meta SET data_version = 7;
