-- Issue 13: a game left unfinished on the match day (GT-M20): adjourned to a day before the week
-- is out, or sent to the President for adjudication with its moves (PGN) and the position they
-- reach (FEN), and each player's clock. Its board's result is `*` until it is finished or decided.
ALTER TABLE result_boards ADD COLUMN adjourned_to TEXT;
ALTER TABLE result_boards ADD COLUMN adjudication_pgn TEXT;
ALTER TABLE result_boards ADD COLUMN adjudication_fen TEXT;
ALTER TABLE result_boards ADD COLUMN home_clock TEXT;
ALTER TABLE result_boards ADD COLUMN away_clock TEXT;
