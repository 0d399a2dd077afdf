-- Issue 31: every day and time a rule counts is the league's or event's local one (RULES.md,
-- "Time"): each league keeps its IANA time zone (`America/New_York`, `Australia/Adelaide`). A
-- league made before this migration counted in UTC, and keeps doing so until an officer sets
-- its zone (`arbiter league set --time-zone`, or the league's settings page).
ALTER TABLE leagues ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
