-- Sign-in sessions, in the layout tower-sessions' SQLite store reads (table `tower_sessions`).
-- Sessions are not league data: they expire and are removed, and are not in the history.
CREATE TABLE IF NOT EXISTS tower_sessions (
    id TEXT PRIMARY KEY NOT NULL,
    data BLOB NOT NULL,
    expiry_date INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tower_sessions_expiry ON tower_sessions (expiry_date);
