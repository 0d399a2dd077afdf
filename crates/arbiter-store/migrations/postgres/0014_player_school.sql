-- GT-R6: a player's own school when it is not the team's (a high-school student, or one 14 or
-- older, whose school has no team joins the closest one). Null: the team's school.
ALTER TABLE players ADD COLUMN school TEXT;
