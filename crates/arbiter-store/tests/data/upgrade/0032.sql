-- Schema 32: half of a school's fee waived (GT-O2), beside the entries kept from before the
-- table was copied.
INSERT INTO ledger_entries (league_id, season_id, number, kind, school_id, amount_cents, happened_on, note, reverses, recorded_by, recorded_role, recorded_at)
SELECT s.league_id, s.id, 4, 'waiver', sc.id, 500, '2025-09-05', 'new to the league', NULL, 'treasurer@gthscl.example', 'treasurer', '2025-09-05T09:00:00.000000Z'
FROM seasons s JOIN schools sc ON sc.league_id = s.league_id WHERE s.slug = '2025-26' AND sc.name = 'Clay High School';
