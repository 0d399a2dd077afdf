-- Issue 35: the home page counts match forfeits for the divisions it shows (GT-M5 drops a team
-- at its ruleset's count); forfeits are few among results, and this index finds them without
-- reading every result version.
CREATE INDEX result_versions_forfeits ON result_versions (match_id) WHERE outcome = 'forfeit';
