-- Issue 31: GT-P2's "corrections are requested within 5 days". After a result came to stand,
-- either school's advisor asks for a correction with the reason, kept as a review of the version
-- in force (`correction_requested`); an officer decides it (GT-O3). SQLite cannot change a CHECK,
-- so the table is rebuilt with its rows, its index and its triggers.
CREATE TABLE result_reviews_with_corrections (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    version INTEGER NOT NULL CHECK (version >= 1),
    kind TEXT NOT NULL CHECK (kind IN ('confirmed', 'disputed', 'correction_requested')),
    by_user TEXT,
    role TEXT,
    at TEXT NOT NULL,
    reason TEXT,
    FOREIGN KEY (match_id, version) REFERENCES result_versions (match_id, version)
);
INSERT INTO result_reviews_with_corrections (id, match_id, version, kind, by_user, role, at, reason)
SELECT id, match_id, version, kind, by_user, role, at, reason FROM result_reviews;
DROP TABLE result_reviews;
ALTER TABLE result_reviews_with_corrections RENAME TO result_reviews;
CREATE INDEX result_reviews_match ON result_reviews (match_id, id);

CREATE TRIGGER result_reviews_no_update BEFORE UPDATE ON result_reviews
BEGIN
    SELECT RAISE(ABORT, 'a review is followed by a new review, never changed in place');
END;
CREATE TRIGGER result_reviews_no_delete BEFORE DELETE ON result_reviews
BEGIN
    SELECT RAISE(ABORT, 'a review of a result is never removed');
END;
