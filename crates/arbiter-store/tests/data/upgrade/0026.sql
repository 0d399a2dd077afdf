-- Schema 26: the round 1 challenge game entered by the visitors' school, confirmed by the home
-- school, then struck out by the Vice-President with the reason (GT-P3).
INSERT INTO extra_game_events (extra_game_id, step, side, reason, by_user, by_role, at)
SELECT id, 'entered', 'away', NULL, 'advisor@maumee.example', 'advisor', '2026-12-05T07:00:00.000000Z' FROM extra_games WHERE position = 1;
INSERT INTO extra_game_events (extra_game_id, step, side, reason, by_user, by_role, at)
SELECT id, 'confirmed', NULL, NULL, 'advisor@clay.example', 'advisor', '2026-12-06T07:00:00.000000Z' FROM extra_games WHERE position = 1;
INSERT INTO extra_game_events (extra_game_id, step, side, reason, by_user, by_role, at)
SELECT id, 'struck', NULL, 'never played', 'vp@gthscl.example', 'vice_president', '2026-12-07T07:00:00.000000Z' FROM extra_games WHERE position = 1;
