-- Schema 19: a late team's report (GT-M6) with the round 5 result's second version.
INSERT INTO result_versions (match_id, version, outcome, forfeit_by, entered_by, entered_role, entered_at, reason, basis, late_team, late_day_ends, late_clocks, late_arrived, late_arranged)
SELECT m.id, 3, 'boards', NULL, 'advisor@syl.example', 'advisor', '2025-10-14T21:00:00.000000Z', 'the visitors came late', 'entered', 'away', '15:30', '16:30', '17:10', FALSE
FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 5;
INSERT INTO result_boards (result_version_id, board, result, rating_result, home_player_id, away_player_id, home_colour, unplayed, unplayed_note)
SELECT v.id, 1, '1-0', NULL, hp.id, ap.id, 'black', NULL, NULL
FROM result_versions v JOIN matches m ON m.id = v.match_id JOIN rounds r ON r.id = m.round_id JOIN players hp ON hp.player_key = 'syl-1' JOIN players ap ON ap.player_key = 'clay-1'
WHERE r.number = 5 AND v.version = 3;
