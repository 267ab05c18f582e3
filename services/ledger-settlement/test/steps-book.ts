import type pg from 'pg';

/**
 * A small hand-checked book for settle month 202501 (amounts computed in steps-month.test.ts).
 *
 * Organizations: HQ 100 > BR 110 > TM 111; a second tree HQ 200 > TM 201 without managers.
 * Agents: 1001 FC@111, 1002 SFC@111, 1003 TM_LEADER@111, 1004 BR_MANAGER@110, 1005 FC@201 (no receiver above),
 *         1006 FC@111 LEAVE, 1007 SFC@111, 1008 FC@111.
 */
export async function seedBook(pool: pg.Pool): Promise<void> {
  await pool.query(`
    INSERT INTO organization (org_id, parent_org_id, org_name, org_type, org_level) VALUES
      (100, NULL, 'HQ', 'HQ', 1), (110, 100, 'Branch', 'BR', 2), (111, 110, 'Team', 'TM', 3),
      (200, NULL, 'HQ2', 'HQ', 1), (201, 200, 'Team2', 'TM', 2);
    INSERT INTO agent (agent_id, org_id, grade_id, agent_name, status) VALUES
      (1001, 111, 1, 'A FC', 'ACTIVE'), (1002, 111, 2, 'B SFC', 'ACTIVE'), (1003, 111, 3, 'T Leader', 'ACTIVE'),
      (1004, 110, 4, 'M Manager', 'ACTIVE'), (1005, 201, 1, 'Lonely FC', 'ACTIVE'), (1006, 111, 1, 'Gone FC', 'LEAVE'),
      (1007, 111, 2, 'Next SFC', 'ACTIVE'), (1008, 111, 1, 'Confirmed FC', 'ACTIVE');
    INSERT INTO insurance_company (company_id, company_code, company_name, company_type) VALUES (1, 'L001', 'Alpha Life', 'LIFE');
    INSERT INTO product (product_id, company_id, product_code, product_name, insurance_type) VALUES
      (501, 1, 'P-LIFE', 'Life plan', 'LIFE'), (502, 1, 'P-HEALTH', 'Health plan', 'HEALTH');
    -- product 501 year 1 has two versions: 10 % until 2025-01-10 (exclusive), 12 % from then on
    INSERT INTO commission_rate (rate_id, product_id, commission_year, rate_pct, effective_from, effective_to, version) VALUES
      (1, 501, 1, 10, '2020-01-01', '2025-01-10', 1),
      (2, 501, 1, 12, '2025-01-10', NULL, 2),
      (3, 501, 2, 5, '2020-01-01', NULL, 1),
      (4, 501, 3, 4, '2020-01-01', NULL, 1),
      (5, 502, 1, 20, '2020-01-01', NULL, 1);
    INSERT INTO payout_rule (rule_id, grade_id, insurance_type, commission_year, payout_pct, effective_from) VALUES
      (1, 1, 'LIFE', 1, 60, '2020-01-01'), (2, 2, 'LIFE', 1, 70, '2020-01-01'),
      (3, 1, 'LIFE', 2, 50, '2020-01-01'), (4, 2, 'LIFE', 2, 55, '2020-01-01'),
      (5, 1, 'LIFE', 3, 40, '2020-01-01'), (6, 2, 'LIFE', 3, 45, '2020-01-01'),
      (7, 1, 'HEALTH', 1, 50, '2020-01-01');
    INSERT INTO override_rule (override_id, from_grade, to_grade, override_pct, cap_amount, insurance_type_cond, effective_from) VALUES
      (1, 1, 3, 5, NULL, NULL, '2020-01-01'),
      (2, 1, 4, 2, 100, NULL, '2020-01-01'),
      (3, 2, 3, 4, NULL, NULL, '2020-01-01'),
      (5, 1, 3, 1, NULL, 'HEALTH', '2020-01-01');
    INSERT INTO chargeback_rule (cb_rule_id, company_code, insurance_type, lapse_month_from, lapse_month_to, cb_rate,
                                 include_override, installment_allowed, max_installments, effective_from) VALUES
      (1, 'L001', 'LIFE', 0, 12, 100, false, true, 3, '2020-01-01'),
      (2, 'L001', 'LIFE', 13, NULL, 50, false, false, 1, '2020-01-01');
    INSERT INTO contract (contract_id, agent_id, product_id, policy_no, premium, pay_cycle, status, contract_date, lapse_date) VALUES
      (9001, 1001, 501, 'POL-9001', 100000.00, 'MONTHLY', 'ACTIVE', '2025-01-05', NULL),
      (9002, 1001, 501, 'POL-9002', 55555.55, 'MONTHLY', 'ACTIVE', '2025-01-15', NULL),
      (9003, 1001, 502, 'POL-9003', 30000.00, 'MONTHLY', 'ACTIVE', '2025-01-20', NULL),
      (9004, 1001, 501, 'POL-9004', 200000.00, 'MONTHLY', 'ACTIVE', '2023-06-10', NULL),
      (9005, 1001, 501, 'POL-9005', 80000.00, 'QUARTERLY', 'ACTIVE', '2022-10-20', NULL),
      (9006, 1001, 501, 'POL-9006', 50000.00, 'QUARTERLY', 'ACTIVE', '2022-11-20', NULL),
      (9007, 1002, 501, 'POL-9007', 40000.00, 'MONTHLY', 'REVIVE', '2023-03-01', NULL),
      (9008, 1001, 501, 'POL-9008', 60000.00, 'MONTHLY', 'LAPSE', '2024-03-10', '2025-01-20'),
      (9009, 1005, 501, 'POL-9009', 10000.00, 'MONTHLY', 'ACTIVE', '2025-01-25', NULL),
      (9010, 1008, 501, 'POL-9010', 20000.00, 'MONTHLY', 'ACTIVE', '2025-01-12', NULL);
    INSERT INTO contract_succession (succession_id, contract_id, from_agent_id, to_agent_id, effective_month, status, cancelled_at) VALUES
      (1, 9004, 1001, 1002, '202501', 'ACTIVE', NULL),
      (2, 9005, 1001, 1007, '202502', 'ACTIVE', NULL),
      (3, 9007, 1002, 1001, '202412', 'CANCELLED', now());
    -- the carrier's figures, as transformData writes them
    INSERT INTO recruit_ledger (contract_id, agent_id, commission_year, settle_month, reported_premium, reported_company_amount, raw_id) VALUES
      (9001, 1001, 1, '202501', 100000.00, 10000.00, 76),
      (9003, 1001, 1, '202501', 30000.00, 6100.00, 77);
    INSERT INTO maintain_ledger (contract_id, agent_id, commission_year, settle_month, reported_company_amount, raw_id) VALUES
      (9006, 1001, 3, '202501', 500.00, 78);
    -- a stale computed-only row (the rules do not produce it): removed by the re-computation
    INSERT INTO maintain_ledger (contract_id, agent_id, commission_year, settle_month, agent_amount) VALUES
      (9002, 1001, 2, '202501', 999.00);
    -- commission already paid on the lapsed contract
    INSERT INTO recruit_ledger (contract_id, agent_id, commission_year, settle_month, premium, agent_amount, status) VALUES
      (9008, 1001, 1, '202403', 60000.00, 1000.00, 'PAID');
    INSERT INTO exception_ledger (ledger_id, agent_id, settle_month, exception_code, direction, amount, approve_status,
                                  recurring_yn, recurring_until) VALUES
      (1, 1001, '202501', 'BONUS_SPECIAL', 'PLUS', 500.00, 'APPROVED', 'N', NULL),
      (2, 1001, '202501', 'PENALTY', 'MINUS', 200.00, 'APPROVED', 'N', NULL),
      (3, 1001, '202501', 'MISC_PLUS', 'PLUS', 999.00, 'PENDING', 'N', NULL),
      (4, 1002, '202412', 'RETRO_PLUS', 'PLUS', 300.00, 'APPROVED', 'Y', '202503'),
      (5, 1002, '202412', 'BONUS_SPECIAL', 'PLUS', 400.00, 'APPROVED', 'Y', '202506'),
      (6, 1002, '202501', 'RETRO_MINUS', 'MINUS', 50.00, 'APPROVED', 'N', NULL);
    SELECT setval(pg_get_serial_sequence('exception_ledger', 'ledger_id'), 100);
  `);
}
