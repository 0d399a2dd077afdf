-- Schema 29: a person of the league's (one player, one person), to whom an officer linked Kim Lee;
-- every other player is the person of their own the migration gave them.
INSERT INTO persons (league_id, person_key) SELECT id, 'kim-lee' FROM leagues WHERE slug = 'gthscl';
UPDATE players SET person_id = (SELECT s.id FROM persons s JOIN leagues l ON l.id = s.league_id WHERE l.slug = 'gthscl' AND s.person_key = 'kim-lee')
WHERE player_key = 'mau-3';
