-- Secrets every server of one site shares (issue 9): the key that signs the CSRF tokens of
-- visitors who have not signed in, so that no session row is stored for them. Made once by
-- whichever server needs it first; not league data, not in the history.
CREATE TABLE site_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
