-- Issue 16, part 3: the per-address limit on sign-in and reset attempts, kept in the database
-- so that every server on it counts the same attempts. One row an attempt let through; rows a
-- day old are removed with the failed sign-ins.
CREATE TABLE address_attempts (
    id INTEGER PRIMARY KEY,
    address TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX address_attempts_address ON address_attempts (address, at);
