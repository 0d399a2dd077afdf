-- Issue 13: the referee's report of a team that came late (GT-M6, GT-S3), kept with the result
-- version it came with: the late side, when its school day ended, when the clocks were started
-- without it, when it arrived and began (null: never), and whether the late start was arranged.
ALTER TABLE result_versions ADD COLUMN late_team TEXT CHECK (late_team IN ('home', 'away'));
ALTER TABLE result_versions ADD COLUMN late_day_ends TEXT;
ALTER TABLE result_versions ADD COLUMN late_clocks TEXT;
ALTER TABLE result_versions ADD COLUMN late_arrived TEXT;
ALTER TABLE result_versions ADD COLUMN late_arranged INTEGER NOT NULL DEFAULT 0 CHECK (late_arranged IN (0, 1));
