import { randomBytes } from 'node:crypto';
import {
  createQueues,
  defineStep,
  getRunStatus,
  launchRun,
  startStepWorkers,
  STEP_NAMES,
  type BatchQueues,
  type RunStatus,
  type StepDefinition,
  type StepSettingsOverrides,
  type StepWorkers,
} from '@csp/batch';
import { createTestDatabase, type TestDatabase } from '@csp/db/testing';
import { createLogger } from '@csp/service-kit';
import { Redis } from 'ioredis';
import { intakeDb, type IntakeDb } from '../src/db.js';
import { intakeSteps } from '../src/steps/index.js';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger({ name: 'intake-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
/** Short backoffs: a failing step fails the run in milliseconds. */
const SETTINGS: StepSettingsOverrides = { all: { attempts: 2, backoffMs: 50, timeoutMs: 20_000 } };

/** No-op definitions for the steps other services host, so a run can complete. */
function otherSteps(own: readonly StepDefinition[]): StepDefinition[] {
  const owned = new Set(own.map((s) => s.name));
  return STEP_NAMES.filter((name) => !owned.has(name)).map((name) =>
    defineStep({ name, run: async () => ({ total: 0, success: 0, error: 0 }) }),
  );
}

export interface Harness {
  tdb: TestDatabase;
  db: IntakeDb;
  queues: BatchQueues;
  /** Launches a run of the month, waits for its end and returns run + step rows. */
  runMonth(settleMonth: string, companyCode?: string): Promise<RunStatus>;
  close(): Promise<void>;
}

/** A fresh database, a random BullMQ prefix, the intake workers and no-op workers for steps 4-12. */
export async function createHarness(steps: readonly StepDefinition[] = intakeSteps): Promise<Harness> {
  const tdb = await createTestDatabase();
  const prefix = `csp-intake-test-${randomBytes(5).toString('hex')}`;
  const queues = createQueues(REDIS_URL, { prefix, settings: SETTINGS });
  const common = {
    connection: REDIS_URL,
    prefix,
    db: tdb.db,
    settings: SETTINGS,
    logger,
    handleSignals: false,
  };
  const workers: StepWorkers[] = [
    await startStepWorkers({ ...common, service: 'intake', steps, concurrency: 2 }),
    await startStepWorkers({ ...common, steps: otherSteps(steps) }),
  ];
  return {
    tdb,
    db: intakeDb(tdb.db),
    queues,
    async runMonth(settleMonth, companyCode) {
      const run = await launchRun(tdb.db, queues, { settleMonth, ...(companyCode ? { companyCode } : {}) });
      return waitForRunEnd(tdb, run.jobLogId);
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await queues.close();
      await removePrefix(prefix);
      await tdb.drop();
    },
  };
}

async function waitForRunEnd(tdb: TestDatabase, runId: number, timeoutMs = 30_000): Promise<RunStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await getRunStatus(tdb.db, runId);
    if (status && (status.run.status === 'COMPLETED' || status.run.status === 'FAILED')) return status;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not end within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

async function removePrefix(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

/** The step row of a run by name. */
export function stepOf(status: RunStatus, name: string) {
  const step = status.steps.find((s) => s.stepName === name);
  if (!step) throw new Error(`no step row ${name}`);
  return step;
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
