import type { StepContext, Trx } from '@csp/batch';
import {
  addMonths,
  firstDayOfMonth,
  lastDayOfMonth,
  shiftSettleMonth,
  type RevivalChargeback,
  type OtherContract,
  type RenewalEndorsement,
} from '@csp/domain';
import { sql, type RawBuilder } from 'kysely';
import { historyTable } from './db.js';
import { monthByAgent, type ByAgent } from './month-by-agent.js';
import type { OtherCommissionSetup } from './other-commission-rules.js';

/*
 * The SQL prefilters of calcOtherCommission for one agent range: each a superset of what the domain
 * rules (packages/domain other-commission.ts) then decide exactly, and each index-friendly (contract
 * date, status, endorsement date, a succession's receiver) so a 1M-contract book is not scanned.
 */

export interface Range {
  from: number;
  to: number;
}

export interface CandidateContract extends OtherContract {
  policyNo: string;
  productCode: string | null;
}

interface ContractSqlRow {
  contract_id: number;
  agent_id: number;
  policy_no: string;
  premium: string;
  pay_cycle: string;
  status: string;
  contract_date: string | null;
  lapse_date: string | null;
  revival_date: string | null;
  product_code: string | null;
  insurance_type: string | null;
  company_code: string | null;
}

const CONTRACT_COLUMNS = sql`c.contract_id, c.agent_id, c.policy_no, c.premium, c.pay_cycle, c.status, c.contract_date,
  c.lapse_date, c.revival_date, p.product_code, p.insurance_type, ic.company_code`;

function toContract(r: ContractSqlRow): CandidateContract {
  return {
    contractId: r.contract_id,
    agentId: r.agent_id,
    policyNo: r.policy_no,
    productCode: r.product_code,
    companyCode: r.company_code,
    insuranceType: r.insurance_type,
    premium: r.premium,
    payCycle: r.pay_cycle,
    status: r.status,
    contractDate: r.contract_date,
    lapseDate: r.lapse_date,
    revivalDate: r.revival_date,
  };
}

function companyOnly(companyCode: string | undefined): RawBuilder<unknown> {
  return companyCode === undefined ? sql`` : sql`AND ic.company_code = ${companyCode}`;
}

/** A contract with a renewal or a revival in the month, by its recruiting agent. */
export interface MonthEventContract {
  agent_id: number;
  contract_id: number;
}

/**
 * The month's contracts with an APPLIED RENEWAL endorsement (when renewal commission is computed) or revived in
 * the month (reinstatement), once per run (monthByAgent): a few thousand rows, which every agent-range chunk
 * would otherwise find again by walking all of the month's endorsements and revivals (work that grows with
 * chunks x events, i.e. with the square of the book).
 */
export function monthEventContracts(
  ctx: Pick<StepContext, 'runId' | 'runAttempt' | 'db' | 'settleMonth'>,
  setup: OtherCommissionSetup,
): Promise<ByAgent<MonthEventContract>> {
  const first = firstDayOfMonth(ctx.settleMonth);
  const last = lastDayOfMonth(ctx.settleMonth);
  const branches: RawBuilder<unknown>[] = [sql`SELECT NULL::bigint AS agent_id, NULL::bigint AS contract_id WHERE false`];
  if (setup.enabled.has('RENEWAL')) {
    branches.push(sql`SELECT c.agent_id, c.contract_id FROM contract c
      WHERE c.contract_id IN (
        SELECT e.contract_id FROM contract_endorsement e
        WHERE e.endorse_type = 'RENEWAL' AND e.status = 'APPLIED' AND e.endorse_date BETWEEN ${first}::date AND ${last}::date)`);
  }
  if (setup.enabled.has('REINSTATEMENT')) {
    branches.push(sql`SELECT c.agent_id, c.contract_id FROM contract c
      WHERE c.status = 'REVIVE' AND c.revival_date BETWEEN ${first}::date AND ${last}::date`);
  }
  return monthByAgent(
    ctx,
    'other-commission-events',
    sql<MonthEventContract>`SELECT agent_id, contract_id FROM (${sql.join(branches, sql` UNION `)}) k
      ORDER BY agent_id, contract_id`,
  );
}

/**
 * Contracts that may earn collection, renewal or reinstatement commission in the month, paid to an agent of the
 * range: their recruiting agent is in it, or a succession hands them to an agent in it (the domain's payee
 * decides which chunk writes them). `events` are the range's slice of monthEventContracts.
 */
export async function servicingCandidates(
  trx: Trx,
  setup: OtherCommissionSetup,
  month: string,
  range: Range,
  companyCode: string | undefined,
  events: readonly MonthEventContract[],
): Promise<CandidateContract[]> {
  const last = lastDayOfMonth(month);
  const branches: RawBuilder<unknown>[] = [];
  if (setup.enabled.has('COLLECTION')) {
    // commission year >= Y needs 12 x (Y - 1) whole months by the month end; one month of slack for day clamping
    const cutoff = addMonths(last, -12 * (setup.collectionMinYear - 1) + 1);
    branches.push(sql`SELECT c.contract_id FROM contract c
      WHERE c.agent_id BETWEEN ${range.from} AND ${range.to} AND c.status IN ('ACTIVE', 'REVIVE')
        AND c.contract_date <= ${cutoff}::date`);
  }
  if (setup.enabled.has('RENEWAL') || setup.enabled.has('REINSTATEMENT')) {
    // named: with collection off this branch comes first and names the CTE's column
    branches.push(sql`SELECT unnest(${events.map((e) => e.contract_id)}::bigint[]) AS contract_id`);
  }
  if (branches.length === 0) return [];
  branches.push(sql`SELECT s.contract_id FROM contract_succession s
    WHERE s.status = 'ACTIVE' AND s.effective_month <= ${month} AND s.to_agent_id BETWEEN ${range.from} AND ${range.to}`);
  const { rows } = await sql<ContractSqlRow>`
    WITH ids AS (${sql.join(branches, sql` UNION `)})
    SELECT ${CONTRACT_COLUMNS}
    FROM ids JOIN contract c ON c.contract_id = ids.contract_id
    JOIN product p ON p.product_id = c.product_id
    JOIN insurance_company ic ON ic.company_id = p.company_id
    WHERE true ${companyOnly(companyCode)}
    ORDER BY c.contract_id`.execute(trx);
  return rows.map(toContract);
}

/** The month's APPLIED RENEWAL endorsements of the given contracts, by contract. */
export async function renewalEndorsements(
  trx: Trx,
  month: string,
  contractIds: readonly number[],
): Promise<Map<number, RenewalEndorsement[]>> {
  const byContract = new Map<number, RenewalEndorsement[]>();
  if (contractIds.length === 0) return byContract;
  const { rows } = await sql<{
    endorsement_id: number;
    contract_id: number;
    endorse_type: string;
    endorse_date: string;
    status: string;
    premium_change: string;
  }>`
    SELECT endorsement_id, contract_id, endorse_type, endorse_date, status, premium_change
    FROM contract_endorsement
    WHERE contract_id = ANY(${[...contractIds]}::bigint[]) AND endorse_type = 'RENEWAL' AND status = 'APPLIED'
      AND endorse_date BETWEEN ${firstDayOfMonth(month)}::date AND ${lastDayOfMonth(month)}::date`.execute(trx);
  for (const r of rows) {
    const e: RenewalEndorsement = {
      endorsementId: r.endorsement_id,
      endorseType: r.endorse_type,
      endorseDate: r.endorse_date,
      status: r.status,
      premiumChange: r.premium_change,
    };
    const list = byContract.get(r.contract_id);
    if (list) list.push(e);
    else byContract.set(r.contract_id, [e]);
  }
  return byContract;
}

export interface PersistencyCandidate extends CandidateContract {
  recruitAmount: string;
  recruitRows: number;
}

/** Contracts of the range's recruiting agents dated in the month of their month 13 or 25, with their recruit commission. */
export async function persistencyCandidates(
  trx: Trx,
  month: string,
  range: Range,
  companyCode: string | undefined,
): Promise<PersistencyCandidate[]> {
  const m13 = shiftSettleMonth(month, -12);
  const m25 = shiftSettleMonth(month, -24);
  // The candidates first, then their recruit commission of every month in one grouped pass over the
  // recruit ledger. Looked up per contract (a LATERAL), every candidate probed every month partition:
  // from the month the book's month-13 contracts appear, calcOtherCommission went 3.6 -> 16.3 s on the 1M book
  // and kept growing with the months kept (issue 27's history bench).
  const { rows } = await sql<ContractSqlRow & { recruit_amount: string; recruit_rows: number }>`
    WITH cand AS MATERIALIZED (
      SELECT ${CONTRACT_COLUMNS} FROM contract c
      JOIN product p ON p.product_id = c.product_id
      JOIN insurance_company ic ON ic.company_id = p.company_id
      WHERE c.agent_id BETWEEN ${range.from} AND ${range.to}
        AND (c.contract_date BETWEEN ${firstDayOfMonth(m13)}::date AND ${lastDayOfMonth(m13)}::date
          OR c.contract_date BETWEEN ${firstDayOfMonth(m25)}::date AND ${lastDayOfMonth(m25)}::date)
        ${companyOnly(companyCode)}),
    r AS (
      SELECT l.contract_id, sum(l.agent_amount) AS s, count(*) AS n FROM (
        SELECT h.contract_id, h.agent_amount FROM ${historyTable('recruit_ledger')} h
         WHERE h.settle_month <> ${month} AND h.contract_id IN (SELECT contract_id FROM cand)
        UNION ALL
        SELECT m.contract_id, m.agent_amount FROM recruit_ledger m
         WHERE m.settle_month = ${month} AND m.contract_id IN (SELECT contract_id FROM cand)) l
      GROUP BY l.contract_id)
    SELECT cand.*, coalesce(r.s, 0)::text AS recruit_amount, coalesce(r.n, 0)::int AS recruit_rows
    FROM cand LEFT JOIN r ON r.contract_id = cand.contract_id
    ORDER BY cand.contract_id`.execute(trx);
  return rows.map((r) => ({ ...toContract(r), recruitAmount: r.recruit_amount, recruitRows: r.recruit_rows }));
}

export interface AppointmentCandidate {
  agentId: number;
  gradeId: number;
  status: string;
  joinDate: string | null;
}

/** ACTIVE agents of the range who joined within the longest appointment period before the month's end. */
export async function appointmentCandidates(
  trx: Trx,
  setup: OtherCommissionSetup,
  month: string,
  range: Range,
): Promise<AppointmentCandidate[]> {
  const since = firstDayOfMonth(shiftSettleMonth(month, -(setup.appointmentMaxMonths - 1)));
  const { rows } = await sql<{ agent_id: number; grade_id: number; status: string; join_date: string | null }>`
    SELECT agent_id, grade_id, status, join_date FROM agent
    WHERE agent_id BETWEEN ${range.from} AND ${range.to} AND status = 'ACTIVE'
      AND join_date BETWEEN ${since}::date AND ${lastDayOfMonth(month)}::date
    ORDER BY agent_id`.execute(trx);
  return rows.map((r) => ({ agentId: r.agent_id, gradeId: r.grade_id, status: r.status, joinDate: r.join_date }));
}

export interface ChargebackRow extends RevivalChargeback {
  contractId: number;
  agentId: number;
}

/** Chargeback installments of the revived contracts due from the month on (still pending or cancelled by a revival). */
export async function revivedChargebacks(
  trx: Trx,
  month: string,
  contractIds: readonly number[],
): Promise<Map<number, ChargebackRow[]>> {
  const byContract = new Map<number, ChargebackRow[]>();
  if (contractIds.length === 0) return byContract;
  const { rows } = await sql<{
    cb_id: number;
    contract_id: number;
    agent_id: number;
    settle_month: string;
    lapse_month: string;
    status: string;
    cancelled_by_revival: string | null;
  }>`
    SELECT cb_id, contract_id, agent_id, settle_month, lapse_month, status, calc_basis->>'cancelledByRevival' AS cancelled_by_revival
    FROM chargeback
    WHERE contract_id = ANY(${[...contractIds]}::bigint[]) AND settle_month >= ${month} AND status IN ('CALCULATED', 'CANCELLED')
    ORDER BY cb_id`.execute(trx);
  for (const r of rows) {
    const row: ChargebackRow = {
      cbId: r.cb_id,
      contractId: r.contract_id,
      agentId: r.agent_id,
      settleMonth: r.settle_month,
      lapseMonth: r.lapse_month,
      status: r.status,
      cancelledByRevival: r.cancelled_by_revival,
    };
    const list = byContract.get(r.contract_id);
    if (list) list.push(row);
    else byContract.set(r.contract_id, [row]);
  }
  return byContract;
}
