-- Issue 10: one spelling of a bye's kind in every file, table and answer (`ByeKind::code`):
-- `pab`, `full`, `half`, `zero`, as the competition file writes it. SQLite cannot change a
-- CHECK, so the table is rebuilt with its rows.
CREATE TABLE byes_spelled (
    id INTEGER PRIMARY KEY,
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    position INTEGER NOT NULL,
    team_id INTEGER NOT NULL REFERENCES teams (id),
    kind TEXT NOT NULL CHECK (kind IN ('pab', 'full', 'half', 'zero')),
    UNIQUE (round_id, position)
);
INSERT INTO byes_spelled (id, round_id, position, team_id, kind)
SELECT id, round_id, position, team_id,
       CASE kind WHEN 'PAB' THEN 'pab' WHEN 'FPB' THEN 'full' WHEN 'HPB' THEN 'half' ELSE 'zero' END
FROM byes;
DROP TABLE byes;
ALTER TABLE byes_spelled RENAME TO byes;
