-- Schema 3: a sign-in session as tower-sessions keeps it (SQLite only: PostgreSQL's sessions
-- live in their own schema, which every test of a run shares).
INSERT INTO tower_sessions (id, data, expiry_date) VALUES ('upgrade-session', X'81A474657374A3796573', 1893456000);
