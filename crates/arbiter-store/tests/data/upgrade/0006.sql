-- Schema 6: an invitation withdrawn.
INSERT INTO invites (token_hash, email, league_id, role, school_id, invited_by, created_at, expires_at, accepted_at, accepted_by_user, withdrawn_at, withdrawn_by)
SELECT '5555555555555555555555555555555555555555555555555555555555555555', 'secretary@gthscl.example', id, 'secretary', NULL, 'president@gthscl.example',
       '2025-08-10T09:00:00.000000Z', '2025-08-17T09:00:00.000000Z', NULL, NULL, '2025-08-11T09:00:00.000000Z', 'president@gthscl.example'
FROM leagues WHERE slug = 'gthscl';
