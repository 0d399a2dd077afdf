-- Schema 16: a board not played (GT-M9) in round 5.
INSERT INTO result_versions (match_id, version, outcome, forfeit_by, entered_by, entered_role, entered_at, reason, basis)
SELECT m.id, 2, 'boards', NULL, 'advisor@syl.example', 'advisor', '2025-10-14T20:00:00.000000Z', NULL, 'entered'
FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 5;
INSERT INTO result_boards (result_version_id, board, result, rating_result, home_player_id, away_player_id, home_colour, unplayed, unplayed_note)
SELECT v.id, 1, '-/+', NULL, NULL, p.id, NULL, 'absent', NULL
FROM result_versions v JOIN matches m ON m.id = v.match_id JOIN rounds r ON r.id = m.round_id JOIN players p ON p.player_key = 'clay-1'
WHERE r.number = 5 AND v.version = 2;
INSERT INTO result_boards (result_version_id, board, result, rating_result, home_player_id, away_player_id, home_colour, unplayed, unplayed_note)
SELECT v.id, 2, '+/-', NULL, hp.id, ap.id, 'white', 'conduct', 'a phone rang twice'
FROM result_versions v JOIN matches m ON m.id = v.match_id JOIN rounds r ON r.id = m.round_id JOIN players hp ON hp.player_key = 'syl-1' JOIN players ap ON ap.player_key = 'clay-2'
WHERE r.number = 5 AND v.version = 2;
