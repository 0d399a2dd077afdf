-- Requests for a password-reset link, for their own limit (issue 9): kept apart from failed
-- sign-ins so that asking for a link never stops anyone signing in, nor the reverse.
-- at: fixed-width RFC 3339 (microseconds), so text order is time order.
CREATE TABLE reset_requests (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    address TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX reset_requests_email ON reset_requests (email, at);
-- The sign-in throttle counts per account and address together.
CREATE INDEX sign_in_failures_email_address ON sign_in_failures (email, address, at);
