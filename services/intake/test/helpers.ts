import type { RunStatus, StepDefinition } from '@csp/batch';
import { createBatchHarness, noopStepsExcept, type BatchHarness } from '@csp/batch/testing';
import type { TestDatabase } from '@csp/db/testing';
import { intakeDb, type IntakeDb } from '../src/db.js';
import { intakeSteps } from '../src/steps/index.js';

export { stepOf } from '@csp/batch/testing';

export interface Harness {
  tdb: TestDatabase;
  db: IntakeDb;
  queues: BatchHarness['queues'];
  /** Launches a run of the month, waits for its end and returns run + step rows. */
  runMonth(settleMonth: string, companyCode?: string): Promise<RunStatus>;
  close(): Promise<void>;
}

/** A fresh database, a random BullMQ prefix, this service's workers and no-op workers for the other steps. */
export async function createHarness(steps: readonly StepDefinition[] = intakeSteps): Promise<Harness> {
  const h = await createBatchHarness({
    name: 'intake',
    settings: { all: { attempts: 2, backoffMs: 50, timeoutMs: 20_000 } },
  });
  await h.startWorkers({ service: 'intake', steps: [...steps], concurrency: 2 });
  await h.startWorkers({ steps: noopStepsExcept(steps) });
  return {
    tdb: h.tdb,
    db: intakeDb(h.tdb.db),
    queues: h.queues,
    runMonth: (settleMonth, companyCode) => h.runMonth(settleMonth, companyCode),
    close: () => h.close(),
  };
}

export interface MasterIds {
  orgId: number;
  agentId: number;
  otherAgentId: number;
  productId: number;
}

/** One organization, two agents, carriers L001 (product PR-1, LIFE) and N002, F003 (no products). */
export async function seedMaster(db: IntakeDb): Promise<MasterIds> {
  const org = await db
    .insertInto('organization')
    .values({ org_name: 'Seoul Branch', org_type: 'BR' })
    .returning('org_id')
    .executeTakeFirstOrThrow();
  const agents = await db
    .insertInto('agent')
    .values([
      { org_id: org.org_id, grade_id: 1, agent_name: 'Agent One' },
      { org_id: org.org_id, grade_id: 2, agent_name: 'Agent Two' },
    ])
    .returning('agent_id')
    .execute();
  const companies = await db
    .insertInto('insurance_company')
    .values([
      { company_code: 'L001', company_name: 'Alpha Life', company_type: 'LIFE' },
      { company_code: 'N002', company_name: 'Beta Fire', company_type: 'NON_LIFE' },
      { company_code: 'F003', company_name: 'Gamma Life', company_type: 'LIFE' },
    ])
    .returning(['company_id', 'company_code'])
    .execute();
  const product = await db
    .insertInto('product')
    .values({
      company_id: companies.find((c) => c.company_code === 'L001')!.company_id,
      product_code: 'PR-1',
      product_name: 'Whole Life',
      insurance_type: 'LIFE',
    })
    .returning('product_id')
    .executeTakeFirstOrThrow();
  return {
    orgId: org.org_id,
    agentId: agents[0]!.agent_id,
    otherAgentId: agents[1]!.agent_id,
    productId: product.product_id,
  };
}

/** A LIFE product of an existing carrier (code = name), for a test that needs one beside seedMaster's. */
export async function insertProduct(db: IntakeDb, companyCode: string, productCode: string): Promise<number> {
  const company = await db
    .selectFrom('insurance_company')
    .select('company_id')
    .where('company_code', '=', companyCode)
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('product')
    .values({ company_id: company.company_id, product_code: productCode, product_name: productCode, insurance_type: 'LIFE' })
    .returning('product_id')
    .executeTakeFirstOrThrow();
  return row.product_id;
}

export async function insertContract(
  db: IntakeDb,
  ids: MasterIds,
  policyNo: string,
  contractDate: string,
  premium = '100000.00',
  agentId = ids.agentId,
): Promise<number> {
  const row = await db
    .insertInto('contract')
    .values({
      agent_id: agentId,
      product_id: ids.productId,
      policy_no: policyNo,
      premium,
      contract_date: contractDate,
    })
    .returning('contract_id')
    .executeTakeFirstOrThrow();
  return row.contract_id;
}

export async function insertRaw(
  db: IntakeDb,
  companyCode: string,
  settleMonth: string,
  dataType: string,
  content: unknown,
): Promise<number> {
  const row = await db
    .insertInto('raw_commission_data')
    .values({
      company_code: companyCode,
      settle_month: settleMonth,
      data_type: dataType,
      raw_content: typeof content === 'string' ? content : JSON.stringify(content),
    })
    .returning('raw_id')
    .executeTakeFirstOrThrow();
  return row.raw_id;
}

export async function setConfig(db: IntakeDb, key: string, value: string): Promise<void> {
  await db
    .insertInto('system_config')
    .values({ config_key: key, config_value: value })
    .onConflict((oc) => oc.column('config_key').doUpdateSet({ config_value: value }))
    .execute();
}
