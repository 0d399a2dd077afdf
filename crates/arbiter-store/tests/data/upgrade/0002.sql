-- Schema 2: accounts, roles, an invitation, a reset link, an API token, a failed sign-in and
-- the visitors' confirmation of a result (GT-P2).
INSERT INTO users (email, name, password_hash, created_at)
VALUES ('president@gthscl.example', 'Pat President', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g', '2025-08-01T09:05:00.000000Z');
INSERT INTO users (email, name, password_hash, created_at)
VALUES ('advisor@clay.example', 'Ana Advisor', NULL, '2025-08-03T09:00:00.000000Z');
INSERT INTO memberships (user_id, league_id, role, school_id, granted_at, granted_by, revoked_at, revoked_by)
SELECT u.id, l.id, 'president', NULL, '2025-08-01T09:05:00.000000Z', NULL, NULL, NULL
FROM users u JOIN leagues l ON l.slug = 'gthscl' WHERE u.email = 'president@gthscl.example';
INSERT INTO memberships (user_id, league_id, role, school_id, granted_at, granted_by, revoked_at, revoked_by)
SELECT u.id, l.id, 'advisor', s.id, '2025-08-03T09:00:00.000000Z', 'president@gthscl.example', NULL, NULL
FROM users u JOIN leagues l ON l.slug = 'gthscl' JOIN schools s ON s.name = 'Clay High School' WHERE u.email = 'advisor@clay.example';
INSERT INTO memberships (user_id, league_id, role, school_id, granted_at, granted_by, revoked_at, revoked_by)
SELECT u.id, l.id, 'arbiter', NULL, '2025-08-03T09:00:00.000000Z', 'president@gthscl.example', '2025-08-04T09:00:00.000000Z', 'president@gthscl.example'
FROM users u JOIN leagues l ON l.slug = 'gthscl' WHERE u.email = 'advisor@clay.example';
INSERT INTO invites (token_hash, email, league_id, role, school_id, invited_by, created_at, expires_at, accepted_at, accepted_by_user)
SELECT '1111111111111111111111111111111111111111111111111111111111111111', 'advisor@clay.example', l.id, 'advisor', s.id, 'president@gthscl.example',
       '2025-08-02T09:00:00.000000Z', '2025-08-09T09:00:00.000000Z', '2025-08-03T09:00:00.000000Z', u.id
FROM leagues l JOIN schools s ON s.name = 'Clay High School' JOIN users u ON u.email = 'advisor@clay.example' WHERE l.slug = 'gthscl';
INSERT INTO password_resets (token_hash, user_id, created_at, expires_at, used_at)
SELECT '2222222222222222222222222222222222222222222222222222222222222222', id, '2025-08-05T09:00:00.000000Z', '2025-08-05T10:00:00.000000Z', NULL
FROM users WHERE email = 'president@gthscl.example';
INSERT INTO api_tokens (token_hash, prefix, label, user_id, league_id, role, school_id, created_at, created_by, revoked_at, revoked_by)
SELECT '3333333333333333333333333333333333333333333333333333333333333333', 'arb_abcd', 'nightly import', u.id, l.id, 'president', NULL,
       '2025-08-06T09:00:00.000000Z', 'president@gthscl.example', NULL, NULL
FROM users u JOIN leagues l ON l.slug = 'gthscl' WHERE u.email = 'president@gthscl.example';
INSERT INTO sign_in_failures (email, address, at) VALUES ('president@gthscl.example', '127.0.0.1', '2025-08-07T09:00:00.000000Z');
INSERT INTO result_reviews (match_id, version, kind, by_user, role, at, reason)
SELECT m.id, 2, 'confirmed', 'advisor@maumee.example', 'advisor', '2025-09-18T08:00:00.000000Z', NULL
FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.number = 1;
INSERT INTO history (at, actor, role, entity, entity_id, action, before_json, after_json, reason, league_id, competition_id, match_id, team_key, other_team_key)
SELECT '2025-08-03T09:00:00.000000Z', 'president@gthscl.example', 'president', 'membership', CAST(m.id AS TEXT), 'grant', NULL, '{"role": "advisor"}', NULL, m.league_id, NULL, NULL, NULL, NULL
FROM memberships m WHERE m.role = 'advisor';
