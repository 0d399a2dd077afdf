-- Issue 31: GT-P2's "corrections are requested within 5 days". After a result came to stand,
-- either school's advisor asks for a correction with the reason, kept as a review of the version
-- in force (`correction_requested`); an officer decides it (GT-O3).
ALTER TABLE result_reviews DROP CONSTRAINT result_reviews_kind_check;
ALTER TABLE result_reviews ADD CONSTRAINT result_reviews_kind_check
    CHECK (kind IN ('confirmed', 'disputed', 'correction_requested'));
