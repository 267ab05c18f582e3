import type pg from 'pg';

/** A deterministic pseudo-random generator (mulberry32) so that the generated book is the same every time. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A generated book for settle month 202501: 1 HQ, 2 branches, 4 teams, 64 agents of all grades, 3 products,
 * versioned rates for years 1-5, payout rules, override rules (one capped, one conditioned), ~3,000 contracts
 * with ids spread over ~21,000 (several calcMaintain chunks), successions and lapses.
 */
export async function seedGeneratedBook(pool: pg.Pool, contracts = 3_000, idStride = 7): Promise<void> {
  const rand = rng(20250131);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const sqlParts: string[] = [];
  sqlParts.push(`
    INSERT INTO organization (org_id, parent_org_id, org_name, org_type, org_level) VALUES
      (1, NULL, 'HQ', 'HQ', 1), (2, 1, 'BR1', 'BR', 2), (3, 1, 'BR2', 'BR', 2),
      (4, 2, 'TM1', 'TM', 3), (5, 2, 'TM2', 'TM', 3), (6, 3, 'TM3', 'TM', 3), (7, 3, 'TM4', 'TM', 3);
    INSERT INTO insurance_company (company_id, company_code, company_name) VALUES (1, 'G001', 'Gen Life'), (2, 'G002', 'Gen Fire');
    INSERT INTO product (product_id, company_id, product_code, product_name, insurance_type) VALUES
      (1, 1, 'GL', 'Gen life', 'LIFE'), (2, 2, 'GH', 'Gen health', 'HEALTH'), (3, 1, 'GA', 'Gen annuity', 'ANNUITY');`);
  const agents: string[] = ["(1, 1, 5, 'HQ dir', 'ACTIVE')", "(2, 2, 4, 'BR1 mgr', 'ACTIVE')", "(3, 3, 4, 'BR2 mgr', 'ACTIVE')"];
  for (let tm = 4; tm <= 7; tm++) agents.push(`(${tm}, ${tm}, 3, 'TM lead ${tm}', 'ACTIVE')`);
  for (let id = 8; id <= 64; id++) {
    agents.push(`(${id}, ${4 + (id % 4)}, ${id % 5 === 0 ? 2 : 1}, 'FC ${id}', '${id % 17 === 0 ? 'LEAVE' : 'ACTIVE'}')`);
  }
  sqlParts.push(`INSERT INTO agent (agent_id, org_id, grade_id, agent_name, status) VALUES ${agents.join(',')};`);

  const rates: string[] = [];
  for (const product of [1, 2, 3]) {
    for (let year = 1; year <= 5; year++) {
      const base = (product * 3 + (6 - year) * 2.125).toFixed(4);
      const revised = (Number(base) + 0.3333).toFixed(4);
      rates.push(`(${product}, ${year}, ${base}, '2019-01-01', '2023-07-01', 1)`, `(${product}, ${year}, ${revised}, '2023-07-01', NULL, 2)`);
    }
  }
  sqlParts.push(`INSERT INTO commission_rate (product_id, commission_year, rate_pct, effective_from, effective_to, version) VALUES ${rates.join(',')};`);
  const payouts: string[] = [];
  for (let grade = 1; grade <= 5; grade++) {
    for (const type of ['LIFE', 'HEALTH', 'ANNUITY']) {
      for (let year = 1; year <= 5; year++) payouts.push(`(${grade}, '${type}', ${year}, ${(40 + grade * 5 + year * 1.5).toFixed(4)}, '2019-01-01')`);
    }
  }
  sqlParts.push(`INSERT INTO payout_rule (grade_id, insurance_type, commission_year, payout_pct, effective_from) VALUES ${payouts.join(',')};`);
  sqlParts.push(`INSERT INTO override_rule (from_grade, to_grade, override_pct, cap_amount, insurance_type_cond, effective_from) VALUES
    (1, 3, 3.5, NULL, NULL, '2019-01-01'), (1, 4, 1.25, 150.00, NULL, '2019-01-01'), (2, 3, 2.75, NULL, NULL, '2019-01-01'),
    (3, 4, 2, NULL, NULL, '2019-01-01'), (4, 5, 1, 500.00, NULL, '2019-01-01'), (1, 5, 0.5, NULL, 'HEALTH', '2019-01-01');
    INSERT INTO chargeback_rule (company_code, insurance_type, lapse_month_from, lapse_month_to, cb_rate, installment_allowed, max_installments, effective_from) VALUES
    ('G001', 'LIFE', 0, 24, 100, true, 3, '2019-01-01'), ('G002', 'HEALTH', 0, 12, 50, false, 1, '2019-01-01');`);

  const cycles = ['MONTHLY', 'MONTHLY', 'MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL'];
  const rows: string[] = [];
  const successions: string[] = [];
  for (let i = 0; i < contracts; i++) {
    const id = 1 + i * idStride;
    const agent = 8 + Math.floor(rand() * 57);
    const product = pick([1, 1, 2, 3]);
    const premium = (10_000 + Math.floor(rand() * 49_000_000) / 100).toFixed(2);
    const year = 2019 + Math.floor(rand() * 6) + (rand() < 0.1 ? 1 : 0);
    const month = year === 2025 ? 1 : 1 + Math.floor(rand() * 12);
    const date = `${year}-${pad(month)}-${pad(1 + Math.floor(rand() * 28))}`;
    const roll = rand();
    const status = roll < 0.05 ? 'LAPSE' : roll < 0.1 ? 'REVIVE' : roll < 0.13 ? 'TERMINATE' : 'ACTIVE';
    const lapse = status === 'LAPSE' ? `'2025-01-${pad(1 + Math.floor(rand() * 28))}'` : 'NULL';
    rows.push(`(${id}, ${agent}, ${product}, 'GP-${id}', ${premium}, '${pick(cycles)}', '${status}', '${date}', ${lapse})`);
    if (rand() < 0.08) {
      const to = agent === 64 ? 8 : agent + 1;
      successions.push(`(${id}, ${agent}, ${to}, '${pick(['202406', '202501', '202502'])}')`);
    }
  }
  sqlParts.push(`INSERT INTO contract (contract_id, agent_id, product_id, policy_no, premium, pay_cycle, status, contract_date, lapse_date) VALUES ${rows.join(',')};`);
  if (successions.length > 0) {
    sqlParts.push(`INSERT INTO contract_succession (contract_id, from_agent_id, to_agent_id, effective_month) VALUES ${successions.join(',')};`);
  }
  sqlParts.push(`INSERT INTO exception_ledger (agent_id, settle_month, exception_code, direction, amount, approve_status) VALUES
    (9, '202501', 'BONUS_SPECIAL', 'PLUS', 1234.56, 'APPROVED'), (10, '202501', 'PENALTY', 'MINUS', 99.99, 'APPROVED');`);
  await pool.query(sqlParts.join('\n'));
}
