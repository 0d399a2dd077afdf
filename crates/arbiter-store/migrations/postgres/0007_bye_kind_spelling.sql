-- Issue 10: one spelling of a bye's kind in every file, table and answer (`ByeKind::code`):
-- `pab`, `full`, `half`, `zero`, as the competition file writes it.
ALTER TABLE byes DROP CONSTRAINT byes_kind_check;
UPDATE byes SET kind = CASE kind
    WHEN 'PAB' THEN 'pab' WHEN 'FPB' THEN 'full' WHEN 'HPB' THEN 'half' ELSE 'zero' END;
ALTER TABLE byes ADD CONSTRAINT byes_kind_check CHECK (kind IN ('pab', 'full', 'half', 'zero'));
