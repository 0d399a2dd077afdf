-- Issue 13: the kinds of notice a person has stopped on their account page; every other kind
-- is mailed to them. A setting, changed whole (the history keeps the list before and after).
CREATE TABLE notice_stops (
    user_id INTEGER NOT NULL REFERENCES users (id),
    notice TEXT NOT NULL CHECK (notice IN ('result_entered', 'result_disputed', 'result_decided', 'match_moved', 'deadline_tomorrow')),
    PRIMARY KEY (user_id, notice)
);
