-- Issue 32 item 23: a protest's steps are mailed to both teams and the arbiter (AS-13), a kind
-- of notice a person may stop like the others.
ALTER TABLE notice_stops DROP CONSTRAINT notice_stops_notice_check;
ALTER TABLE notice_stops ADD CONSTRAINT notice_stops_notice_check
    CHECK (notice IN ('result_entered', 'result_disputed', 'result_decided', 'match_moved', 'deadline_tomorrow', 'protest_step'));
