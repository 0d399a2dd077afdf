-- Schema 34 adds an index on the rounds' dates and no column: no rows to add.
UPDATE rounds SET played_on = played_on WHERE 1 = 0;
