-- Issue 35: each competition keeps the data version of the last write that changed what its
-- pages show, so that a server learns in one query which competitions changed since the version
-- it last saw and reloads only those. Existing rows start at 0: a server has nothing cached of
-- them when it starts on the upgraded database.
ALTER TABLE competitions ADD COLUMN changed_in BIGINT NOT NULL DEFAULT 0;
CREATE INDEX competitions_changed_in ON competitions (changed_in);
