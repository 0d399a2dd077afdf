INSERT INTO violation_rulings (competition_id, finding_key, message, reason, ruled_by, ruled_role, ruled_at)
SELECT id, 'GT-M11/1/clay/clay/2', 'round 1, Clay v Maumee: board 2 out of order (GT-M11)', 'the coach was ill', 'president@gthscl.example', 'president', '2025-09-20T09:00:00.000000Z'
FROM competitions WHERE slug = 'varsity';
