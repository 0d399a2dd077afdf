-- Issue 34 item 1: a league's published rating lists (FIDE's monthly list, a national list),
-- each in force from a day, by which `[lineup] ratings = "list"` orders the boards; and a
-- player's id on the federation's list, how a list finds them (else by name and birth date).
ALTER TABLE players ADD COLUMN federation_id TEXT;

CREATE TABLE rating_lists (
    id INTEGER PRIMARY KEY,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    name TEXT NOT NULL,
    in_force_from TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('fide-xml', 'fide-txt', 'csv')),
    imported_at TEXT NOT NULL,
    UNIQUE (league_id, name, in_force_from)
);

-- birth: a year (`1990`) or a date (`1990-04-17`), as the list gives it. name_key: the name's
-- words in lowercase, sorted (core's `rating::list::name_key`), to find a player without an id.
CREATE TABLE rating_list_entries (
    list_id INTEGER NOT NULL REFERENCES rating_lists (id),
    position INTEGER NOT NULL CHECK (position >= 1),
    federation_id TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    birth TEXT,
    rating INTEGER NOT NULL CHECK (rating >= 0),
    PRIMARY KEY (list_id, position)
);
CREATE INDEX rating_list_entries_id ON rating_list_entries (list_id, federation_id);
CREATE INDEX rating_list_entries_name ON rating_list_entries (list_id, name_key);
