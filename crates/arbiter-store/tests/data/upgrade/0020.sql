-- Schema 20: unfinished games (GT-M20): one adjourned, one sent for adjudication.
INSERT INTO result_versions (match_id, version, outcome, forfeit_by, entered_by, entered_role, entered_at, reason, basis)
SELECT m.id, 2, 'boards', NULL, 'advisor@clay.example', 'advisor', '2025-09-30T20:00:00.000000Z', NULL, 'entered'
FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 3;
INSERT INTO result_boards (result_version_id, board, result, rating_result, home_player_id, away_player_id, home_colour, adjourned_to)
SELECT v.id, 1, '*', NULL, hp.id, ap.id, 'white', '2025-10-02'
FROM result_versions v JOIN matches m ON m.id = v.match_id JOIN rounds r ON r.id = m.round_id JOIN players hp ON hp.player_key = 'clay-2' JOIN players ap ON ap.player_key = 'mau-1'
WHERE r.number = 3 AND v.version = 2;
INSERT INTO result_boards (result_version_id, board, result, rating_result, home_player_id, away_player_id, home_colour, adjudication_pgn, adjudication_fen, home_clock, away_clock)
SELECT v.id, 2, '*', NULL, hp.id, ap.id, 'black', '1. e4 e5 2. Nf3 Nc6', 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3', '0:12:30', '0:09:05'
FROM result_versions v JOIN matches m ON m.id = v.match_id JOIN rounds r ON r.id = m.round_id JOIN players hp ON hp.player_key = 'clay-3' JOIN players ap ON ap.player_key = 'mau-2'
WHERE r.number = 3 AND v.version = 2;
