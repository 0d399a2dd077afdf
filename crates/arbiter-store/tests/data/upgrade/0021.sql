-- Schema 21: a game score uploaded twice for a board of round 1, the second superseding.
INSERT INTO game_scores (match_id, board, upload, pgn)
SELECT m.id, 1, 1, '[Event "GTHSCL"]

1. d4 d5 1-0' FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 1;
INSERT INTO game_scores (match_id, board, upload, pgn)
SELECT m.id, 1, 2, '[Event "GTHSCL"]

1. d4 d5 2. c4 1-0' FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 1;
