-- Issue 32: a school's postal address, set by an officer on the season set-up page (or by
-- `arbiter school set --address`), each change in the history. Its lines are parted by a line
-- break; a team's page and the calendar feeds show it beside the school's name. Null: not set.
ALTER TABLE schools ADD COLUMN address TEXT;
