import type { Db } from '@csp/db';
import type { ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { expect } from 'vitest';
import { buildApp } from '../src/app.js';

/** A test app on a fresh database, without the background run poll (tests call it directly). */
export function createAnalyticsContext(): Promise<TestContext<ServiceApp>> {
  return createTestContext({ buildApp: (deps) => buildApp({ ...deps, pollIntervalMs: 0 }), serviceName: 'analytics' });
}

export async function addOrg(db: Db, name: string, type: 'HQ' | 'BR' | 'TM', parentOrgId: number | null, level: number): Promise<number> {
  const row = await db
    .insertInto('organization')
    .values({ org_name: name, org_type: type, parent_org_id: parentOrgId, org_level: level })
    .returning('org_id')
    .executeTakeFirstOrThrow();
  return row.org_id;
}

export async function addAgent(db: Db, name: string, orgId: number, gradeId: number, status: 'ACTIVE' | 'LEAVE' = 'ACTIVE'): Promise<number> {
  const row = await db
    .insertInto('agent')
    .values({ agent_name: name, org_id: orgId, grade_id: gradeId, status })
    .returning('agent_id')
    .executeTakeFirstOrThrow();
  return row.agent_id;
}

export async function addProduct(db: Db, code: string, group: 'LIFE' | 'SAVINGS' | null): Promise<number> {
  let company = await db.selectFrom('insurance_company').select('company_id').where('company_code', '=', 'L001').executeTakeFirst();
  company ??= await db
    .insertInto('insurance_company')
    .values({ company_code: 'L001', company_name: 'Alpha Life' })
    .returning('company_id')
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('product')
    .values({ company_id: company.company_id, product_code: code, product_name: code, insurance_type: 'LIFE', product_group: group })
    .returning('product_id')
    .executeTakeFirstOrThrow();
  return row.product_id;
}

let policySeq = 0;

export interface ContractSpec {
  agentId: number;
  productId: number;
  contractDate: string;
  premium?: string;
  status?: 'ACTIVE' | 'LAPSE' | 'REVIVE' | 'TERMINATE';
  lapseDate?: string | null;
  revivalDate?: string | null;
}

export async function addContract(db: Db, c: ContractSpec): Promise<number> {
  policySeq += 1;
  const row = await db
    .insertInto('contract')
    .values({
      agent_id: c.agentId,
      product_id: c.productId,
      policy_no: `P-${process.pid}-${policySeq}`,
      premium: c.premium ?? '10000.00',
      contract_date: c.contractDate,
      status: c.status ?? 'ACTIVE',
      lapse_date: c.lapseDate ?? null,
      revival_date: c.revivalDate ?? null,
    })
    .returning('contract_id')
    .executeTakeFirstOrThrow();
  return row.contract_id;
}

export interface SettleSpec {
  recruit?: string;
  maintain?: string;
  override?: string;
  other?: string;
  correction?: string;
  plus?: string;
  minus?: string;
  chargeback?: string;
  gross: string;
  tax: string;
  net: string;
  status?: 'CALCULATED' | 'CONFIRMED' | 'HOLD' | 'PAID';
}

export async function addSettle(db: Db, agentId: number, settleMonth: string, s: SettleSpec): Promise<void> {
  await db
    .insertInto('settle_master')
    .values({
      agent_id: agentId,
      settle_month: settleMonth,
      recruit_total: s.recruit ?? '0',
      maintain_total: s.maintain ?? '0',
      override_total: s.override ?? '0',
      other_total: s.other ?? '0',
      correction_total: s.correction ?? '0',
      exception_plus: s.plus ?? '0',
      exception_minus: s.minus ?? '0',
      chargeback_total: s.chargeback ?? '0',
      gross_amount: s.gross,
      tax_amount: s.tax,
      net_amount: s.net,
      status: s.status ?? 'CALCULATED',
    })
    .execute();
}

/** A recruit (year 1) or maintain (year 2) ledger row paying `amount` to the agent. */
export async function addLedger(
  db: Db,
  kind: 'recruit' | 'maintain',
  contractId: number,
  agentId: number,
  settleMonth: string,
  amount: string,
): Promise<void> {
  await db
    .insertInto(kind === 'recruit' ? 'recruit_ledger' : 'maintain_ledger')
    .values({ contract_id: contractId, agent_id: agentId, settle_month: settleMonth, commission_year: kind === 'recruit' ? 1 : 2, agent_amount: amount })
    .execute();
}

export async function addChargeback(
  db: Db,
  row: { contractId: number; agentId: number; settleMonth: string; lapseMonth: string; amount: string; seq: number; total: number; status?: 'CALCULATED' | 'CONFIRMED' | 'CANCELLED' },
): Promise<void> {
  await db
    .insertInto('chargeback')
    .values({
      contract_id: row.contractId,
      agent_id: row.agentId,
      settle_month: row.settleMonth,
      lapse_month: row.lapseMonth,
      lapse_month_diff: 0,
      base_amount: row.amount,
      cb_rate: '100',
      cb_amount: row.amount,
      installment_seq: row.seq,
      installment_total: row.total,
      status: row.status ?? 'CALCULATED',
    })
    .execute();
}

/** A COMPLETED settlement run row of batch_job_log, as the batch leaves it. */
export async function addCompletedRun(db: Db, settleMonth: string, status: 'COMPLETED' | 'RUNNING' | 'FAILED' = 'COMPLETED'): Promise<number> {
  const row = await db
    .insertInto('batch_job_log')
    .values({ job_name: 'SETTLEMENT', settle_month: settleMonth, status, started_at: new Date(), ended_at: status === 'RUNNING' ? null : new Date() })
    .returning('job_log_id')
    .executeTakeFirstOrThrow();
  return row.job_log_id;
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** GET as admin; the `data` of its 200 answer. */
export async function getData(ctx: TestContext<ServiceApp>, url: string) {
  const res = await ctx.app.inject({ method: 'GET', url, headers: bearer(ctx.adminToken) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** POST /api/kpi/refresh of a month as admin; the `data` of its 200 answer. */
export async function refreshKpi(ctx: TestContext<ServiceApp>, month: string) {
  const res = await ctx.app.inject({ method: 'POST', url: `/api/kpi/refresh?settleMonth=${month}`, headers: bearer(ctx.adminToken) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}
