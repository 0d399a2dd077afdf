-- Schema 18: a challenge game recorded with the round 1 match (GT-P3).
INSERT INTO extra_games (match_id, position, white_player_id, black_player_id, result, kind)
SELECT m.id, 1, w.id, b.id, '1/2-1/2', 'challenge'
FROM matches m JOIN rounds r ON r.id = m.round_id JOIN players w ON w.player_key = 'clay-3' JOIN players b ON b.player_key = 'mau-2' WHERE r.number = 1;
