-- Schema 7: a bye in the new spelling, in a third round.
INSERT INTO rounds (competition_id, number, position, played_on) SELECT id, 3, 3, '2025-09-30' FROM competitions WHERE slug = 'varsity';
INSERT INTO byes (round_id, position, team_id, kind)
SELECT r.id, 2, t.id, 'zero' FROM rounds r JOIN teams t ON t.competition_id = r.competition_id WHERE r.number = 3 AND t.team_key = 'syl';
