-- Schema 33: a competition marked as changed by the write of data version 1 (issue 35).
UPDATE competitions SET changed_in = 1 WHERE id = (SELECT MIN(id) FROM competitions);
