-- Issue 35: the home page reads the rounds dated this week, and the first day after it, from
-- the rounds' dates rather than from every competition's view; an index finds them.
CREATE INDEX rounds_played_on ON rounds (played_on);
