-- Sign-in sessions, in the layout tower-sessions' PostgreSQL store reads ("tower_sessions"."session").
-- Sessions are not league data: they expire and are removed, and are not in the history.
CREATE SCHEMA IF NOT EXISTS tower_sessions;
CREATE TABLE IF NOT EXISTS tower_sessions.session (
    id TEXT PRIMARY KEY NOT NULL,
    data BYTEA NOT NULL,
    expiry_date TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS session_expiry ON tower_sessions.session (expiry_date);
