-- Schema 28: the home school asks for a correction of round 1's confirmed result (GT-P2); the
-- confirmation seeded at schema 2 is kept through the table's rebuild.
INSERT INTO result_reviews (match_id, version, kind, by_user, role, at, reason)
SELECT m.id, 2, 'correction_requested', 'advisor@clay.example', 'advisor', '2025-09-19T08:00:00.000000Z', 'board 3 was a draw'
FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 1;
