-- Issue 32 item 23: a protest's steps are mailed to both teams and the arbiter (AS-13), a kind
-- of notice a person may stop like the others. SQLite changes a CHECK by copying the table.
CREATE TABLE notice_stops_new (
    user_id INTEGER NOT NULL REFERENCES users (id),
    notice TEXT NOT NULL CHECK (notice IN ('result_entered', 'result_disputed', 'result_decided', 'match_moved', 'deadline_tomorrow', 'protest_step')),
    PRIMARY KEY (user_id, notice)
);
INSERT INTO notice_stops_new (user_id, notice) SELECT user_id, notice FROM notice_stops;
DROP TABLE notice_stops;
ALTER TABLE notice_stops_new RENAME TO notice_stops;
