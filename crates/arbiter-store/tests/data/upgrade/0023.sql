-- Schema 23: an event's days (issue 14): the event set twice, its round times, and a lineup
-- accepted after its deadline (AS-11).
INSERT INTO event_versions (season_id, version, name, host, venue, utc_offset_minutes, entered_by, entered_role, entered_at)
SELECT season_id, 1, 'ASTC 2025', 'SA', 'Adelaide Convention Centre', 630, 'arbiter@gthscl.example', 'arbiter', '2025-11-01T09:00:00.000000Z'
FROM competitions WHERE slug = 'varsity';
INSERT INTO event_versions (season_id, version, name, host, venue, utc_offset_minutes, entered_by, entered_role, entered_at)
SELECT season_id, 2, 'ASTC 2025', 'SA', 'Adelaide Convention Centre, Hall C', 630, 'arbiter@gthscl.example', 'arbiter', '2025-11-02T09:00:00.000000Z'
FROM competitions WHERE slug = 'varsity';
INSERT INTO event_round_starts (event_version_id, competition_id, round, starts_at)
SELECT e.id, c.id, 1, '2025-12-07T09:30' FROM event_versions e JOIN competitions c ON c.season_id = e.season_id WHERE c.slug = 'varsity';
INSERT INTO event_round_starts (event_version_id, competition_id, round, starts_at)
SELECT e.id, c.id, 2, '2025-12-07T13:30' FROM event_versions e JOIN competitions c ON c.season_id = e.season_id WHERE c.slug = 'varsity' AND e.version = 2;
INSERT INTO late_lineups (lineup_version_id, named_at, minutes_late, accepted_by, reason)
SELECT v.id, '2025-12-07T09:20:00', 5, 'arbiter@gthscl.example', 'AS-11: the team''s bus was held up; accepted before the round'
FROM lineup_versions v WHERE v.version = 2;
INSERT INTO protests (competition_id, number, by_team, against_team, grounds, lodged_at, order_protested, entered_by, entered_role, entered_at)
SELECT id, 1, 'mau', 'clay', 'AS-10: Clay''s board 2 is clearly stronger than its board 1', '2025-12-07T09:05:00', 'clay-1,clay-2', 'advisor@mau.example', 'advisor', '2025-12-06T22:35:00.000000Z'
FROM competitions WHERE slug = 'varsity';
INSERT INTO protest_replies (protest_id, answer, replied_at, entered_by, entered_role, entered_at)
SELECT id, 'The order is by the state ratings.', '2025-12-07T09:08:00', 'advisor@clay.example', 'advisor', '2025-12-06T22:38:00.000000Z' FROM protests;
INSERT INTO protest_decisions (protest_id, ruling, new_order, reason, decided_at, decided_by, entered_role, entered_at)
SELECT id, 'dismissed', NULL, 'The ratings support the order.', '2025-12-07T09:12:00', 'arbiter@gthscl.example', 'arbiter', '2025-12-06T22:42:00.000000Z' FROM protests;
