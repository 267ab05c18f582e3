import type pg from 'pg';
import { copyRows, type CopyValue } from '@csp/db';
import { AGENT_COLUMNS, GRADE, INSURANCE_TYPES, type StructurePlan } from './book-plan.js';
import { addMonths, daysIn, isoDate, settleMonthOf, type YearMonth } from './calendar.js';
import { CONTRACT_COLUMNS, HISTORY_MONTHS } from './contract-stream.js';
import { personName, phoneNumber } from './names.js';
import type { Prng } from './prng.js';

/*
 * What a settled demo month needs to show every commission type (issue 16), added after the main book with
 * its own PRNG so the main book stays exactly what it was:
 *   rules       collection / renewal / reinstatement per company and insurance type, persistency 13 and 25 per
 *               insurance type and appointment per grade (the last two only when none exist), an incentive
 *               program with two tiers over the last complete month (its results are computed and approved
 *               by the incentive workflow);
 *   recruits    ~1 % new FC agents who joined in the last three months (appointment allowance);
 *   legacy      ~1 % contracts 6 to 10 years old (collection commission from commission year 6);
 *   renewals    ~0.1 % APPLIED RENEWAL endorsements dated in the last complete month;
 *   revivals    ~0.05 % lapsed contracts revived in the last complete month (reinstatement);
 *   history     the recruit commission paid on the contracts of months 13 and 25 (the persistency base), as
 *               PAID recruit_ledger rows computed by rule 1.2.2 from the book's rates.
 */

const RULES_FROM = '2000-01-01';
const LEGACY_CYCLES = [
  ['MONTHLY', 70],
  ['QUARTERLY', 15],
  ['SEMI_ANNUAL', 5],
  ['ANNUAL', 10],
] as const;

export interface OtherCommissionDemoInput {
  plan: StructurePlan;
  /** The month of `today`; the last complete month is the one before. */
  currentMonth: YearMonth;
  /** Ids of the main book's contracts. */
  contracts: { first: number; last: number };
  /** The next free agent id. */
  firstRecruitId: number;
  seed: string;
}

export interface OtherCommissionDemoResult {
  rules: number;
  recruits: number;
  legacyContracts: number;
  renewals: number;
  revivals: number;
  historyRows: number;
}

async function isEmpty(client: pg.PoolClient, table: string): Promise<boolean> {
  const { rows } = await client.query(`SELECT 1 FROM ${table} LIMIT 1`);
  return rows.length === 0;
}

async function insertRules(client: pg.PoolClient, rng: Prng, plan: StructurePlan, lastMonth: string, programCode: string): Promise<number> {
  let rules = 0;
  const byCompany: CopyValue[][] = [];
  for (const c of plan.companies) {
    for (const type of new Set(plan.products.filter((p) => p.companyId === c.companyId).map((p) => p.insuranceType))) {
      byCompany.push([c.code, type]);
    }
  }
  const rate = (lo: number, hi: number) => (rng.int(lo * 10, hi * 10) / 10).toFixed(4);
  rules += await copyRows(client, 'collection_rule', ['company_code', 'insurance_type', 'min_commission_year', 'rate_pct', 'effective_from'],
    byCompany.map(([code, type]) => [code, type, 6, rate(1, 3), RULES_FROM]));
  rules += await copyRows(client, 'renewal_rule', ['company_code', 'insurance_type', 'rate_pct', 'effective_from'],
    byCompany.map(([code, type]) => [code, type, rate(2, 4), RULES_FROM]));
  rules += await copyRows(client, 'reinstatement_rule', ['company_code', 'insurance_type', 'rate_pct', 'effective_from'],
    byCompany.map(([code, type]) => [code, type, rate(3, 6), RULES_FROM]));
  if (await isEmpty(client, 'persistency_rule')) {
    rules += await copyRows(client, 'persistency_rule', ['milestone_month', 'insurance_type', 'bonus_pct', 'effective_from'],
      INSURANCE_TYPES.flatMap((type) => [[13, type, '10.0000', RULES_FROM], [25, type, '15.0000', RULES_FROM]]));
  }
  if (await isEmpty(client, 'appointment_rule')) {
    rules += await copyRows(client, 'appointment_rule', ['grade_id', 'months', 'monthly_amount', 'effective_from'], [
      [GRADE.FC, 3, '500000.00', RULES_FROM],
      [GRADE.SFC, 3, '700000.00', RULES_FROM],
    ]);
  }
  const { rows } = await client.query<{ program_id: string }>(
    `INSERT INTO incentive_program (program_code, program_name, metric, reward_type, period_from, period_to, pay_month, status, description)
     VALUES ($1, $2, 'RECRUIT_COUNT', 'FIXED', $3, $3, $3, 'ACTIVE', '데모: 해당 월 신규 계약 건수') RETURNING program_id`,
    [programCode, `${lastMonth.slice(0, 4)}-${lastMonth.slice(4)} 데모 시책`, lastMonth],
  );
  rules += await copyRows(client, 'incentive_tier', ['program_id', 'tier_no', 'threshold', 'reward_amount'], [
    [Number(rows[0]!.program_id), 1, '3.00', '100000.00'],
    [Number(rows[0]!.program_id), 2, '6.00', '300000.00'],
  ]);
  return rules + 1;
}

/** New FC agents of the last three months, in random teams. */
function recruitRows(rng: Prng, plan: StructurePlan, count: number, firstId: number, currentMonth: YearMonth): CopyValue[][] {
  return Array.from({ length: count }, (_, i) => {
    const team = rng.int(0, plan.teams.length - 1);
    const joined = addMonths(currentMonth, -rng.int(1, 3));
    const agentId = firstId + i;
    return [
      agentId, plan.teams[team]!, GRADE.FC, personName(rng), `LIC${String(agentId).padStart(8, '0')}`, phoneNumber(rng),
      'ACTIVE', isoDate(joined, rng.int(1, daysIn(joined))), null, 'BUSINESS_INCOME', 'NONE',
    ];
  });
}

/** Contracts 61 to 120 months old: commission year 6 and later. */
function legacyRows(rng: Prng, plan: StructurePlan, count: number, firstId: number, currentMonth: YearMonth): CopyValue[][] {
  return Array.from({ length: count }, (_, i) => {
    const month = addMonths(currentMonth, -rng.int(HISTORY_MONTHS + 1, 120));
    const date = isoDate(month, rng.int(1, daysIn(month)));
    const contractId = firstId + i;
    return [
      contractId, plan.agents[rng.int(0, plan.agents.length - 1)]!.agentId, plan.products[rng.int(0, plan.products.length - 1)]!.productId,
      `DM${String(contractId).padStart(10, '0')}`, personName(rng), personName(rng), `${rng.int(20, 300) * 1000}.00`,
      rng.weighted(LEGACY_CYCLES), rng.pick([10, 20]), rng.pick([20, 30, 80]), 'ACTIVE', date, date, null, null,
    ];
  });
}

export async function addOtherCommissionDemo(
  client: pg.PoolClient,
  rng: Prng,
  input: OtherCommissionDemoInput,
): Promise<OtherCommissionDemoResult> {
  const { plan, currentMonth } = input;
  const last = addMonths(currentMonth, -1);
  const lastMonth = settleMonthOf(last);
  const mainCount = Math.max(0, input.contracts.last - input.contracts.first + 1);
  const rules = await insertRules(client, rng, plan, lastMonth, `DEMO-${lastMonth}-${input.firstRecruitId}`);

  const recruitCount = Math.max(1, Math.round(plan.agents.length / 100));
  const recruits = await copyRows(client, 'agent', AGENT_COLUMNS, recruitRows(rng, plan, recruitCount, input.firstRecruitId, currentMonth));
  const legacyCount = Math.floor(mainCount / 100);
  const legacyContracts = await copyRows(client, 'contract', CONTRACT_COLUMNS,
    legacyRows(rng, plan, legacyCount, input.contracts.last + 1, currentMonth));

  // Picked by a seeded hash of the id: the same book gets the same rows.
  const range = [input.contracts.first, input.contracts.last, input.seed];
  const lastFirst = isoDate(last, 1);
  const renewals = await client.query(
    `INSERT INTO contract_endorsement (contract_id, endorse_type, endorse_date, before_value, after_value, premium_change, status, note)
     SELECT c.contract_id, 'RENEWAL', $4::date + (c.contract_id % 28)::int, c.premium::text, (c.premium + 500 * (c.contract_id % 21))::text,
            500 * (c.contract_id % 21), 'APPLIED', '데모 갱신'
     FROM contract c
     WHERE c.contract_id BETWEEN $1 AND $2 AND c.status = 'ACTIVE' AND c.contract_date < $4::date - interval '12 months'
     ORDER BY md5($3::text || c.contract_id) LIMIT $5`,
    [...range, lastFirst, Math.max(1, Math.floor(mainCount / 1000))],
  );
  const revivals = await client.query(
    `UPDATE contract c SET status = 'REVIVE', revival_date = $4::date + (c.contract_id % 28)::int
     WHERE c.contract_id IN (
       SELECT contract_id FROM contract
       WHERE contract_id BETWEEN $1 AND $2 AND status = 'LAPSE' AND lapse_date < $4::date
       ORDER BY md5($3::text || contract_id) LIMIT $5)`,
    [...range, lastFirst, Math.max(1, Math.floor(mainCount / 2000))],
  );
  // Rule 1.2.2 on the book's (single-version) rates: pct(premium, rate) then pct(company, payout), HALF_UP.
  const m13 = addMonths(last, -12);
  const m25 = addMonths(last, -24);
  const history = await client.query(
    `INSERT INTO recruit_ledger (contract_id, agent_id, policy_no, company_code, product_code, insurance_type, commission_year,
       premium, pay_method, company_rate, company_amount, payout_rate, agent_amount, tax_amount, settle_month, status, calc_basis)
     SELECT x.contract_id, x.agent_id, x.policy_no, x.company_code, x.product_code, x.insurance_type, 1, x.premium, x.pay_cycle,
            x.rate_pct, x.company_amount, x.payout_pct, x.agent_amount, round(x.agent_amount * 3.3 / 100, 2),
            to_char(x.contract_date, 'YYYYMM'), 'PAID', '{"source": "demo history"}'::jsonb
     FROM (
       SELECT c.contract_id, c.agent_id, c.policy_no, ic.company_code, p.product_code, p.insurance_type, c.premium, c.pay_cycle,
              c.contract_date, r.rate_pct, pr.payout_pct, round(c.premium * r.rate_pct / 100, 2) AS company_amount,
              round(round(c.premium * r.rate_pct / 100, 2) * pr.payout_pct / 100, 2) AS agent_amount
       FROM contract c
       JOIN agent a ON a.agent_id = c.agent_id
       JOIN product p ON p.product_id = c.product_id
       JOIN insurance_company ic ON ic.company_id = p.company_id
       JOIN commission_rate r ON r.product_id = c.product_id AND r.commission_year = 1
       JOIN payout_rule pr ON pr.grade_id = a.grade_id AND pr.insurance_type = p.insurance_type AND pr.commission_year = 1
       WHERE c.contract_id BETWEEN $1 AND $2
         AND (c.contract_date BETWEEN $3::date AND ($3::date + interval '1 month' - interval '1 day')
           OR c.contract_date BETWEEN $4::date AND ($4::date + interval '1 month' - interval '1 day'))
     ) x
     ON CONFLICT DO NOTHING`,
    [input.contracts.first, input.contracts.last, isoDate(m13, 1), isoDate(m25, 1)],
  );
  return {
    rules,
    recruits,
    legacyContracts,
    renewals: renewals.rowCount ?? 0,
    revivals: revivals.rowCount ?? 0,
    historyRows: history.rowCount ?? 0,
  };
}
