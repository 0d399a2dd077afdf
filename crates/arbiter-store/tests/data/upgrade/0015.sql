-- Schema 15: a forfeit by decision (GT-M3) on the round 4 match.
INSERT INTO result_versions (match_id, version, outcome, forfeit_by, entered_by, entered_role, entered_at, reason, basis)
SELECT m.id, 2, 'forfeit', 'home', 'president@gthscl.example', 'president', '2025-10-10T09:00:00.000000Z', 'could not be arranged', 'forfeit_by_decision'
FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 4;
