import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partsGap } from './parts-of-gross.js';
import { allSteps, createHarness, type Harness } from './steps-harness.js';

/**
 * Issue 23.5, DECISIONS "Settlement semantics": a month settles only the agents employed in it (join_date on or
 * before its last day, no leave_date before its first day); the others get no settle row and are never override
 * receivers, the next eligible agent is.
 *
 * Org HQ 700 > TM 711. Override rule FC (1) -> TM_LEADER (3) 5 %, no cap; the receiver is the lowest-id employed
 * ACTIVE TM_LEADER of 711. Product 701 LIFE year 1 rate 10 %, FC payout 60 %. TAX_RATE 3.3.
 *   7000 TM_LEADER joined 2020-01-01, leaves 2025-01-31 (employed in 202501, not in 202502)
 *   7001 FC, the producer: contract 7101 100000.00 dated 2025-01-10 -> recruit 10000.00 x 60 % = 6000.00 (202501);
 *        contract 7102 50000.00 dated 2025-02-10 -> 5000.00 x 60 % = 3000.00 (202502)
 *   7002 TM_LEADER joining 2025-02-03 (mid-book: nothing in 202501)
 *   7003 TM_LEADER joined 2024-06-01 (always employed, highest id: receives only when no lower id is employed)
 *   7004 FC, status LEAVE, left 2025-01-15, an approved exception PLUS 100.00 in each month
 * 202501: override pct(6000.00, 5) = 300.00 -> 7000 (7002 not yet employed); tax 9.90, net 290.10
 *         7001 gross 6000.00, tax 198.00, net 5802.00; 7003 zeros; 7004 exception 100.00, tax 3.30, net 96.70
 * 202502: override pct(3000.00, 5) = 150.00 -> 7002 (7000 has left); tax 4.95, net 145.05
 *         7001 gross 3000.00, tax 99.00, net 2901.00; 7003 zeros; 7000 and 7004 no row
 */
let h: Harness;

beforeAll(async () => {
  h = await createHarness();
  await h.tdb.pool.query(`
    INSERT INTO organization (org_id, parent_org_id, org_name, org_type, org_level) VALUES (700, NULL, 'HQ', 'HQ', 1), (711, 700, 'Team', 'TM', 2);
    INSERT INTO agent (agent_id, org_id, grade_id, agent_name, status, join_date, leave_date) VALUES
      (7000, 711, 3, 'Retiring leader', 'ACTIVE', '2020-01-01', '2025-01-31'),
      (7001, 711, 1, 'Producer FC', 'ACTIVE', '2024-01-01', NULL),
      (7002, 711, 3, 'New leader', 'ACTIVE', '2025-02-03', NULL),
      (7003, 711, 3, 'Old leader', 'ACTIVE', '2024-06-01', NULL),
      (7004, 711, 1, 'Gone FC', 'LEAVE', '2023-01-01', '2025-01-15');
    INSERT INTO insurance_company (company_id, company_code, company_name, company_type) VALUES (70, 'L070', 'Window Life', 'LIFE');
    INSERT INTO product (product_id, company_id, product_code, product_name, insurance_type) VALUES (701, 70, 'W-LIFE', 'Window life', 'LIFE');
    INSERT INTO commission_rate (product_id, commission_year, rate_pct, effective_from) VALUES (701, 1, 10, '2020-01-01');
    INSERT INTO payout_rule (grade_id, insurance_type, commission_year, payout_pct, effective_from) VALUES (1, 'LIFE', 1, 60, '2020-01-01');
    INSERT INTO override_rule (override_id, from_grade, to_grade, override_pct, cap_amount, effective_from) VALUES (71, 1, 3, 5, NULL, '2020-01-01');
    INSERT INTO contract (contract_id, agent_id, product_id, policy_no, premium, pay_cycle, status, contract_date) VALUES
      (7101, 7001, 701, 'POL-7101', 100000.00, 'MONTHLY', 'ACTIVE', '2025-01-10'),
      (7102, 7001, 701, 'POL-7102', 50000.00, 'MONTHLY', 'ACTIVE', '2025-02-10');
    INSERT INTO exception_ledger (agent_id, settle_month, exception_code, direction, amount, approve_status) VALUES
      (7004, '202501', 'BONUS_SPECIAL', 'PLUS', 100.00, 'APPROVED'),
      (7004, '202502', 'BONUS_SPECIAL', 'PLUS', 100.00, 'APPROVED');
  `);
  await h.startWorkers(allSteps());
}, 120_000);

afterAll(async () => {
  await h?.close();
});

async function settles(month: string) {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT agent_id, recruit_total, override_total, exception_plus, gross_amount, tax_amount, net_amount
    FROM settle_master WHERE settle_month = ${month} ORDER BY agent_id`.execute(h.db);
  return rows.map((r) => Object.values(r).map((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v)));
}

async function overrides(month: string) {
  const { rows } = await sql<Record<string, unknown>>`
    SELECT from_agent_id, to_agent_id, base_amount, override_amount,
           (settle_id = (SELECT settle_id FROM settle_master s WHERE s.agent_id = o.to_agent_id AND s.settle_month = o.settle_month)) AS linked
    FROM override_settle o WHERE settle_month = ${month} ORDER BY from_agent_id`.execute(h.db);
  return rows.map((r) => [Number(r.from_agent_id), Number(r.to_agent_id), r.base_amount, r.override_amount, r.linked]);
}

describe('the employment window of a settle month', () => {
  it('settles 202501 without the leader who joins in February; the override goes to the employed lowest id', async () => {
    const status = await h.runMonth('202501');
    expect(status.run.status).toBe('COMPLETED');
    expect(await overrides('202501')).toEqual([[7001, 7000, '6000.00', '300.00', true]]);
    expect(await settles('202501')).toEqual([
      [7000, '0.00', '300.00', '0.00', '300.00', '9.90', '290.10'],
      [7001, '6000.00', '0.00', '0.00', '6000.00', '198.00', '5802.00'],
      [7003, '0.00', '0.00', '0.00', '0.00', '0.00', '0.00'],
      [7004, '0.00', '0.00', '100.00', '100.00', '3.30', '96.70'],
    ]);
  });

  it('settles 202502 without the agents who left before it; the new leader receives the override', async () => {
    const status = await h.runMonth('202502');
    expect(status.run.status).toBe('COMPLETED');
    expect(await overrides('202502')).toEqual([[7001, 7002, '3000.00', '150.00', true]]);
    expect(await settles('202502')).toEqual([
      [7001, '3000.00', '0.00', '0.00', '3000.00', '99.00', '2901.00'],
      [7002, '0.00', '150.00', '0.00', '150.00', '4.95', '145.05'],
      [7003, '0.00', '0.00', '0.00', '0.00', '0.00', '0.00'],
    ]);
  });

  it('removes the calculated rows and the override of agents whose dates move out of the month on the next run', async () => {
    await h.tdb.pool.query(`UPDATE agent SET leave_date = '2024-12-31' WHERE agent_id = 7000;
      UPDATE agent SET join_date = '2025-02-01' WHERE agent_id = 7003`);
    const status = await h.runMonth('202501');
    expect(status.run.status).toBe('COMPLETED');
    // no TM_LEADER employed in 202501 any more: no receiver, no override
    expect(await overrides('202501')).toEqual([]);
    expect(await settles('202501')).toEqual([
      [7001, '6000.00', '0.00', '0.00', '6000.00', '198.00', '5802.00'],
      [7004, '0.00', '0.00', '100.00', '100.00', '3.30', '96.70'],
    ]);
  });

  it('leaves settle rows whose parts add up to gross', async () => {
    const { rows } = await sql<Record<string, string>>`
      SELECT settle_id::text, recruit_total AS recruit, maintain_total AS maintain, override_total AS override,
             exception_plus AS "exceptionPlus", exception_minus AS "exceptionMinus", chargeback_total AS chargeback,
             correction_total AS correction, other_total AS other, gross_amount AS gross
      FROM settle_master ORDER BY settle_id`.execute(h.db);
    expect(rows).toHaveLength(5);
    for (const { settle_id, ...parts } of rows) expect(partsGap(parts as any), settle_id).toBe('0.00');
  });
});
