-- Issue 12: a match's own day when it is not its round's (GTHSCL matches of one round fall on
-- different days; a moved match keeps its round, GT-M2). Null: the round's day.
ALTER TABLE matches ADD COLUMN played_on DATE;
