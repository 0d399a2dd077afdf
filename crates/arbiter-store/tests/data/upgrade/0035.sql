-- Schema 35: a league's published rating list with one player on it, and that player's id on
-- the list (issue 34).
INSERT INTO rating_lists (league_id, name, in_force_from, format, imported_at)
SELECT id, 'FIDE February 2027', '2027-02-01', 'fide-txt', '2027-02-01T09:00:00.000000Z'
FROM leagues WHERE slug = 'gthscl';
INSERT INTO rating_list_entries (list_id, position, federation_id, name, name_key, birth, rating)
SELECT id, 1, '2000001', 'Able, Ann', 'able ann', '1990', 2000 FROM rating_lists WHERE name = 'FIDE February 2027';
UPDATE players SET federation_id = '2000001' WHERE id = (SELECT MIN(id) FROM players);
