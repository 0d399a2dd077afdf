-- Issue 13: why a board was not played (GT-M9 absent, GT-M16 the coach's forfeit, GT-M17 a
-- conduct forfeit with its note, GT-S2 a double default, GT-M4 an agreed draw of an unplayed
-- game scored as a double default). Null: played, or not said.
ALTER TABLE result_boards ADD COLUMN unplayed TEXT
    CHECK (unplayed IS NULL OR unplayed IN ('absent', 'coach', 'conduct', 'double_default', 'agreed_draw'));
ALTER TABLE result_boards ADD COLUMN unplayed_note TEXT;
