/**
 * The small every-commission-type book of commission-types.test.ts (its header works out every figure by hand),
 * shared with commission-type-switch.test.ts: month 202504, agents 4001-4005, contracts 4101-4108.
 */
export const OTHER_TYPES_BOOK = `
    INSERT INTO organization (org_id, parent_org_id, org_name, org_type, org_level) VALUES (400, NULL, 'HQ', 'HQ', 1), (411, 400, 'Team', 'TM', 2);
    INSERT INTO agent (agent_id, org_id, grade_id, agent_name, status, join_date) VALUES
      (4001, 411, 1, 'Amy FC', 'ACTIVE', NULL), (4002, 411, 1, 'Ben FC', 'ACTIVE', NULL), (4003, 411, 1, 'Cat FC', 'ACTIVE', NULL),
      (4004, 411, 1, 'Dan FC', 'ACTIVE', '2025-02-10'), (4005, 411, 2, 'Eve SFC', 'ACTIVE', NULL);
    INSERT INTO insurance_company (company_id, company_code, company_name, company_type) VALUES (40, 'L040', 'Delta Life', 'LIFE');
    INSERT INTO product (product_id, company_id, product_code, product_name, insurance_type) VALUES (801, 40, 'D-LIFE', 'Delta life', 'LIFE');
    INSERT INTO commission_rate (product_id, commission_year, rate_pct, effective_from) VALUES (801, 1, 10, '2020-01-01');
    INSERT INTO payout_rule (grade_id, insurance_type, commission_year, payout_pct, effective_from) VALUES (1, 'LIFE', 1, 60, '2020-01-01');
    INSERT INTO collection_rule (rule_id, company_code, insurance_type, min_commission_year, rate_pct, effective_from, version) VALUES
      (11, 'L040', 'LIFE', 6, 2, '2020-01-01', 1), (12, 'L040', 'LIFE', 6, 2.5, '2025-01-01', 2);
    INSERT INTO renewal_rule (rule_id, company_code, insurance_type, rate_pct, effective_from) VALUES (21, 'L040', 'LIFE', 3, '2020-01-01');
    INSERT INTO reinstatement_rule (rule_id, company_code, insurance_type, rate_pct, effective_from) VALUES (31, 'L040', 'LIFE', 4, '2020-01-01');
    INSERT INTO persistency_rule (rule_id, milestone_month, insurance_type, bonus_pct, effective_from) VALUES
      (41, 13, 'LIFE', 10, '2020-01-01'), (42, 25, 'LIFE', 20, '2020-01-01');
    INSERT INTO appointment_rule (rule_id, grade_id, months, monthly_amount, effective_from) VALUES (51, 1, 3, 300000.00, '2020-01-01');
    INSERT INTO contract (contract_id, agent_id, product_id, policy_no, premium, pay_cycle, status, contract_date, lapse_date, revival_date) VALUES
      (4101, 4001, 801, 'POL-4101', 120000.00, 'QUARTERLY', 'ACTIVE', '2019-07-15', NULL, NULL),
      (4102, 4001, 801, 'POL-4102', 33333.33, 'MONTHLY', 'ACTIVE', '2018-03-01', NULL, NULL),
      (4103, 4002, 801, 'POL-4103', 50000.00, 'MONTHLY', 'ACTIVE', '2024-06-20', NULL, NULL),
      (4104, 4003, 801, 'POL-4104', 80000.00, 'MONTHLY', 'REVIVE', '2024-09-05', '2025-03-10', '2025-04-12'),
      (4105, 4001, 801, 'POL-4105', 60000.00, 'SINGLE', 'ACTIVE', '2024-04-08', NULL, NULL),
      (4106, 4001, 801, 'POL-4106', 40000.00, 'SINGLE', 'LAPSE', '2023-04-25', '2024-11-18', NULL),
      (4107, 4001, 801, 'POL-4107', 70000.00, 'SINGLE', 'ACTIVE', '2023-04-02', NULL, NULL),
      (4108, 4002, 801, 'POL-4108', 10000.00, 'MONTHLY', 'ACTIVE', '2025-04-03', NULL, NULL);
    INSERT INTO contract_succession (contract_id, from_agent_id, to_agent_id, effective_month, status) VALUES (4102, 4001, 4005, '202501', 'ACTIVE');
    INSERT INTO contract_endorsement (endorsement_id, contract_id, endorse_type, endorse_date, premium_change, status) VALUES
      (901, 4103, 'RENEWAL', '2025-04-18', 5000.00, 'APPLIED'), (902, 4103, 'RENEWAL', '2025-04-25', 9000.00, 'REQUESTED');
    -- recruit commission paid in earlier months (the persistency base)
    INSERT INTO recruit_ledger (contract_id, agent_id, commission_year, settle_month, premium, agent_amount, status) VALUES
      (4105, 4001, 1, '202404', 60000.00, 2345.67, 'PAID'), (4106, 4001, 1, '202304', 40000.00, 1500.00, 'PAID'),
      (4107, 4001, 1, '202304', 70000.00, 3000.00, 'PAID');
    -- the 202503 lapse of 4104, in three installments
    INSERT INTO chargeback (contract_id, agent_id, settle_month, lapse_month, lapse_month_diff, base_amount, cb_rate, cb_amount,
                            installment_seq, installment_total, status) VALUES
      (4104, 4003, '202503', '202503', 6, 1200.00, 100, 400.00, 1, 3, 'CONFIRMED'),
      (4104, 4003, '202504', '202503', 6, 1200.00, 100, 400.00, 2, 3, 'CONFIRMED'),
      (4104, 4003, '202505', '202503', 6, 1200.00, 100, 400.00, 3, 3, 'CALCULATED');
    INSERT INTO incentive_program (program_id, program_code, program_name, metric, reward_type, period_from, period_to, pay_month, status)
      VALUES (61, 'IP-APR', 'April sprint', 'NEW_PREMIUM', 'FIXED', '202504', '202504', '202504', 'ACTIVE');
    INSERT INTO incentive_result (program_id, agent_id, settle_month, measured_value, tier_no, amount, status) VALUES
      (61, 4002, '202504', 10000.00, 1, 1000.00, 'APPROVED'), (61, 4001, '202504', 5000.00, 1, 500.00, 'PENDING_APPROVAL');
    -- paid in 202504 as well, never calculated yet: the month's run calculates it (one recruit in April -> 50.00)
    INSERT INTO incentive_program (program_id, program_code, program_name, metric, reward_type, period_from, period_to, pay_month, status)
      VALUES (62, 'IP-COUNT', 'April recruits', 'RECRUIT_COUNT', 'FIXED', '202504', '202504', '202504', 'ACTIVE');
    INSERT INTO incentive_tier (program_id, tier_no, threshold, reward_amount) VALUES (62, 1, 1, 50.00);
`;
