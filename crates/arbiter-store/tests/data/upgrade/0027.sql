-- Schema 27: the GTHSCL counts in Toledo's time; the ASTC keeps UTC, as it was left.
UPDATE leagues SET time_zone = 'America/New_York' WHERE slug = 'gthscl';
