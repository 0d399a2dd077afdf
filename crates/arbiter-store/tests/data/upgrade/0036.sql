-- Schema 36 adds a partial index on the forfeit result versions and no column: no rows to add.
UPDATE result_versions SET outcome = outcome WHERE 1 = 0;
