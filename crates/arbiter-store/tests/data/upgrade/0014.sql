-- Schema 14: GT-R6, a player of another school.
INSERT INTO players (competition_id, player_key, name, rating, provisional, school)
SELECT id, 'mau-3', 'Kim Lee', 1400, FALSE, 'St. Ursula Academy' FROM competitions WHERE slug = 'varsity';
INSERT INTO roster_entries (team_id, position, player_id)
SELECT t.id, 3, p.id FROM teams t JOIN players p ON p.competition_id = t.competition_id WHERE t.team_key = 'mau' AND p.player_key = 'mau-3';
