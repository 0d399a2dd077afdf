-- Issue 13: why a result version holds what it holds: `entered` (as played, or imported), or an
-- officer's penalty on the match: `forfeit_by_decision` (GT-M3, the match could not be arranged)
-- or `late_report` (GT-P4, a double forfeit for a result not reported in time).
ALTER TABLE result_versions ADD COLUMN basis TEXT NOT NULL DEFAULT 'entered'
    CHECK (basis IN ('entered', 'forfeit_by_decision', 'late_report'));
