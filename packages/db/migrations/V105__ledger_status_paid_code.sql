-- The LEDGER_STATUS common-code group (V002) mirrors the status CHECK of recruit_ledger and maintain_ledger
-- (V030: CALCULATED, CONFIRMED, HOLD, PAID) but was seeded without PAID, so a paid ledger row had no code name
-- and a status drop-down built from the group could not filter on it. Found by test/values.test.ts.
INSERT INTO common_code (group_code, code, code_name, code_name_en, sort_order)
VALUES ('LEDGER_STATUS', 'PAID', 'Paid', 'Paid', 4)
ON CONFLICT (group_code, code) DO NOTHING;
