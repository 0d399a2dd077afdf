-- Issue 31 (item 6): one player, one person (RULES.md; AS-3, GT-M15). A person is the identity
-- the product keeps for a player across a league's competitions, never a name that a misspelling
-- breaks or two students share: each roster entry names its person, and an officer links two
-- entries that are one person. `person_key` is what files and core call it, unique in the league.
-- Every player so far becomes a person of their own, keyed `competition-slug/player-id`; entries
-- with the same name and birth date or school are only suggested as one person, never linked here.
CREATE TABLE persons (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    person_key TEXT NOT NULL,
    UNIQUE (league_id, person_key)
);
ALTER TABLE players ADD COLUMN person_id INTEGER REFERENCES persons (id);
INSERT INTO persons (league_id, person_key)
SELECT c.league_id, c.slug || '/' || p.player_key
FROM players p JOIN competitions c ON c.id = p.competition_id
ORDER BY p.id;
UPDATE players SET person_id = (
    SELECT s.id FROM persons s JOIN competitions c ON c.league_id = s.league_id
    WHERE c.id = players.competition_id AND s.person_key = c.slug || '/' || players.player_key
);
CREATE INDEX players_person ON players (person_id);
