-- Schema 13: closures (one withdrawn), a player withdrawn from the roster, a match's start time.
INSERT INTO season_closures (season_id, starts_on, ends_on, reason, created_at, withdrawn_at)
SELECT id, '2025-11-26', '2025-11-28', 'Thanksgiving', '2025-08-15T09:00:00.000000Z', NULL FROM seasons WHERE slug = '2025-26';
INSERT INTO season_closures (season_id, starts_on, ends_on, reason, created_at, withdrawn_at)
SELECT id, '2025-10-13', '2025-10-13', 'entered by mistake', '2025-08-15T09:01:00.000000Z', '2025-08-16T09:00:00.000000Z' FROM seasons WHERE slug = '2025-26';
INSERT INTO players (competition_id, player_key, name, rating, provisional, withdrawn_on)
SELECT id, 'syl-2', 'Sam Leaves', 1000, FALSE, '2025-10-01' FROM competitions WHERE slug = 'varsity';
INSERT INTO roster_entries (team_id, position, player_id)
SELECT t.id, 2, p.id FROM teams t JOIN players p ON p.competition_id = t.competition_id WHERE t.team_key = 'syl' AND p.player_key = 'syl-2';
INSERT INTO rounds (competition_id, number, position, played_on) SELECT id, 5, 5, '2025-10-14' FROM competitions WHERE slug = 'varsity';
INSERT INTO matches (round_id, position, home_team_id, away_team_id, played_on, start_time)
SELECT r.id, 1, h.id, a.id, NULL, '16:30' FROM rounds r JOIN teams h ON h.competition_id = r.competition_id JOIN teams a ON a.competition_id = r.competition_id
WHERE r.number = 5 AND h.team_key = 'syl' AND a.team_key = 'clay';
INSERT INTO result_versions (match_id, version, outcome, forfeit_by, entered_by, entered_role, entered_at, reason)
SELECT m.id, 1, 'pending', NULL, NULL, NULL, '2025-09-01T09:00:00.000000Z', NULL FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 5;
