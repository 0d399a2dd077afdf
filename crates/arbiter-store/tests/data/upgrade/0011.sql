-- Schema 11: a match on a day of its own.
INSERT INTO rounds (competition_id, number, position, played_on) SELECT id, 4, 4, '2025-10-07' FROM competitions WHERE slug = 'varsity';
INSERT INTO matches (round_id, position, home_team_id, away_team_id, played_on)
SELECT r.id, 1, h.id, a.id, '2025-10-09' FROM rounds r JOIN teams h ON h.competition_id = r.competition_id JOIN teams a ON a.competition_id = r.competition_id
WHERE r.number = 4 AND h.team_key = 'mau' AND a.team_key = 'clay';
INSERT INTO result_versions (match_id, version, outcome, forfeit_by, entered_by, entered_role, entered_at, reason)
SELECT m.id, 1, 'pending', NULL, NULL, NULL, '2025-09-01T09:00:00.000000Z', NULL FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 4;
