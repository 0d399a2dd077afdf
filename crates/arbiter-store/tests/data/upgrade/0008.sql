-- Schema 8: a player's FIDE record and GT-R7's unranked player.
INSERT INTO players (competition_id, player_key, name, rating, provisional, birth_date, rated_games, k, unranked)
SELECT id, 'clay-3', 'Ana-María Núñez', 1500, FALSE, '2009-04-17', 12, 40, TRUE FROM competitions WHERE slug = 'varsity';
INSERT INTO roster_entries (team_id, position, player_id)
SELECT t.id, 3, p.id FROM teams t JOIN players p ON p.competition_id = t.competition_id WHERE t.team_key = 'clay' AND p.player_key = 'clay-3';
