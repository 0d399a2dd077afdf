-- Schema 12: the fee ledger: a payment, a prize purchase, a reversal of the payment.
INSERT INTO ledger_entries (league_id, season_id, number, kind, school_id, amount_cents, happened_on, note, reverses, recorded_by, recorded_role, recorded_at)
SELECT s.league_id, s.id, 1, 'payment', sc.id, 1000, '2025-09-02', 'cheque 101', NULL, 'treasurer@gthscl.example', 'treasurer', '2025-09-02T09:00:00.000000Z'
FROM seasons s JOIN schools sc ON sc.league_id = s.league_id WHERE s.slug = '2025-26' AND sc.name = 'Clay High School';
INSERT INTO ledger_entries (league_id, season_id, number, kind, school_id, amount_cents, happened_on, note, reverses, recorded_by, recorded_role, recorded_at)
SELECT league_id, id, 2, 'prize_purchase', NULL, 2599, '2025-09-03', 'trophies', NULL, 'treasurer@gthscl.example', 'treasurer', '2025-09-03T09:00:00.000000Z'
FROM seasons WHERE slug = '2025-26';
INSERT INTO ledger_entries (league_id, season_id, number, kind, school_id, amount_cents, happened_on, note, reverses, recorded_by, recorded_role, recorded_at)
SELECT s.league_id, s.id, 3, 'reversal', sc.id, 1000, '2025-09-04', 'entered twice', 1, 'treasurer@gthscl.example', 'treasurer', '2025-09-04T09:00:00.000000Z'
FROM seasons s JOIN schools sc ON sc.league_id = s.league_id WHERE s.slug = '2025-26' AND sc.name = 'Clay High School';
