-- Schema 9: a lineup named before its match (round 3), in two versions, with a withdrawal (GT-M12).
INSERT INTO matches (round_id, position, home_team_id, away_team_id)
SELECT r.id, 1, h.id, a.id FROM rounds r JOIN teams h ON h.competition_id = r.competition_id JOIN teams a ON a.competition_id = r.competition_id
WHERE r.number = 3 AND h.team_key = 'clay' AND a.team_key = 'mau';
INSERT INTO lineup_versions (match_id, side, version, entered_by, entered_role, entered_at)
SELECT m.id, 'home', 1, 'advisor@clay.example', 'advisor', '2025-09-28T09:00:00.000000Z' FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 3;
INSERT INTO lineup_versions (match_id, side, version, entered_by, entered_role, entered_at)
SELECT m.id, 'home', 2, 'advisor@clay.example', 'advisor', '2025-09-29T09:00:00.000000Z' FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 3;
INSERT INTO lineup_boards (lineup_version_id, board, player_id)
SELECT v.id, 1, p.id FROM lineup_versions v JOIN players p ON p.player_key = 'clay-1' WHERE v.version = 1;
INSERT INTO lineup_boards (lineup_version_id, board, player_id)
SELECT v.id, 2, NULL FROM lineup_versions v WHERE v.version = 1;
INSERT INTO lineup_boards (lineup_version_id, board, player_id)
SELECT v.id, 1, p.id FROM lineup_versions v JOIN players p ON p.player_key = 'clay-2' WHERE v.version = 2;
INSERT INTO lineup_withdrawals (lineup_version_id, player_id)
SELECT v.id, p.id FROM lineup_versions v JOIN players p ON p.player_key = 'clay-1' WHERE v.version = 2;
INSERT INTO result_versions (match_id, version, outcome, forfeit_by, entered_by, entered_role, entered_at, reason)
SELECT m.id, 1, 'pending', NULL, NULL, NULL, '2025-09-01T09:00:00.000000Z', NULL FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 3;
