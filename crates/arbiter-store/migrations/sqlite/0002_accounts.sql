-- Accounts, roles, invitations, password resets, API tokens, sign-in failures and result reviews.
-- Only hashes of tokens are kept (SHA-256 hex) and only argon2id hashes of passwords. Invites,
-- resets and tokens are changed only to mark them used or revoked; the history says when and by whom.

-- email: trimmed and lower-case (the store normalises it before every write and lookup).
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    password_hash TEXT,
    created_at TEXT NOT NULL
);

-- A role in one league or event (GT-O3). An advisor advises the teams of one school.
CREATE TABLE memberships (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id),
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    role TEXT NOT NULL CHECK (role IN ('president', 'vice_president', 'secretary', 'treasurer', 'arbiter', 'advisor')),
    school_id INTEGER REFERENCES schools (id),
    granted_at TEXT NOT NULL,
    granted_by TEXT,
    revoked_at TEXT,
    revoked_by TEXT,
    CHECK (role <> 'advisor' OR school_id IS NOT NULL)
);
CREATE INDEX memberships_user ON memberships (user_id);
CREATE INDEX memberships_league ON memberships (league_id);
-- One active membership per user, league, role and school.
CREATE UNIQUE INDEX memberships_active ON memberships (user_id, league_id, role, COALESCE(school_id, 0))
    WHERE revoked_at IS NULL;

CREATE TABLE invites (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    role TEXT NOT NULL CHECK (role IN ('president', 'vice_president', 'secretary', 'treasurer', 'arbiter', 'advisor')),
    school_id INTEGER REFERENCES schools (id),
    invited_by TEXT,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    accepted_at TEXT,
    accepted_by_user INTEGER REFERENCES users (id),
    CHECK (role <> 'advisor' OR school_id IS NOT NULL)
);
CREATE INDEX invites_league ON invites (league_id, id);

CREATE TABLE password_resets (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    user_id INTEGER NOT NULL REFERENCES users (id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
);

-- prefix: the plain token's first 8 characters, so its owner can tell tokens apart.
CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    label TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users (id),
    league_id INTEGER NOT NULL REFERENCES leagues (id),
    role TEXT NOT NULL CHECK (role IN ('president', 'vice_president', 'secretary', 'treasurer', 'arbiter', 'advisor')),
    school_id INTEGER REFERENCES schools (id),
    created_at TEXT NOT NULL,
    created_by TEXT,
    revoked_at TEXT,
    revoked_by TEXT,
    CHECK (role <> 'advisor' OR school_id IS NOT NULL)
);
CREATE INDEX api_tokens_user ON api_tokens (user_id, id);
CREATE INDEX api_tokens_league ON api_tokens (league_id, id);

-- For the per-account sign-in throttle. at: fixed-width RFC 3339 (microseconds), so text order is time order.
CREATE TABLE sign_in_failures (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    address TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX sign_in_failures_email ON sign_in_failures (email, at);

-- GT-P2: the visitors confirm or dispute one version of a match's result. Append-only.
CREATE TABLE result_reviews (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    version INTEGER NOT NULL CHECK (version >= 1),
    kind TEXT NOT NULL CHECK (kind IN ('confirmed', 'disputed')),
    by_user TEXT,
    role TEXT,
    at TEXT NOT NULL,
    reason TEXT,
    FOREIGN KEY (match_id, version) REFERENCES result_versions (match_id, version)
);
CREATE INDEX result_reviews_match ON result_reviews (match_id, id);

CREATE TRIGGER result_reviews_no_update BEFORE UPDATE ON result_reviews
BEGIN
    SELECT RAISE(ABORT, 'a review is followed by a new review, never changed in place');
END;
CREATE TRIGGER result_reviews_no_delete BEFORE DELETE ON result_reviews
BEGIN
    SELECT RAISE(ABORT, 'a review of a result is never removed');
END;
