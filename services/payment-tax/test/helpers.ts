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
import { paymentTaxDb, type PaymentTaxDb } from '../src/db.js';
import { paymentTaxSteps } from '../src/steps/index.js';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger({ name: 'payment-tax-test', level: process.env.TEST_LOG_LEVEL ?? 'silent' });
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
  db: PaymentTaxDb;
  queues: BatchQueues;
  /** Launches a run of the month, waits for its end and returns run + step rows. */
  runMonth(settleMonth: string, companyCode?: string): Promise<RunStatus>;
  close(): Promise<void>;
}

/** A fresh database, a random BullMQ prefix, the payment-tax workers and no-op workers for steps 1-8. */
export async function createHarness(steps: readonly StepDefinition[] = paymentTaxSteps): Promise<Harness> {
  const tdb = await createTestDatabase();
  const prefix = `csp-payment-tax-test-${randomBytes(5).toString('hex')}`;
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
    await startStepWorkers({ ...common, service: 'payment-tax', steps, concurrency: 2 }),
    await startStepWorkers({ ...common, steps: otherSteps(steps) }),
  ];
  return {
    tdb,
    db: paymentTaxDb(tdb.db),
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

export interface Fixture {
  orgId: number;
  otherOrgId: number;
  /** BUSINESS_INCOME, vat NONE */
  business: number;
  /** BUSINESS_INCOME, vat TAXABLE */
  taxable: number;
  /** OTHER_INCOME, vat EXEMPT */
  other: number;
  productId: number;
  contractIds: number[];
}

/** Two organizations, three agents of different tax and VAT types, carrier L001 with three contracts. */
export async function seedFixture(db: PaymentTaxDb): Promise<Fixture> {
  const orgs = await db
    .insertInto('organization')
    .values([
      { org_name: 'Seoul Branch', org_type: 'BR' },
      { org_name: 'Busan Branch', org_type: 'BR' },
    ])
    .returning('org_id')
    .execute();
  const agents = await db
    .insertInto('agent')
    .values([
      {
        org_id: orgs[0]!.org_id,
        grade_id: 1,
        agent_name: 'Business',
        tax_type: 'BUSINESS_INCOME',
        vat_type: 'NONE',
      },
      {
        org_id: orgs[0]!.org_id,
        grade_id: 1,
        agent_name: 'Taxable',
        tax_type: 'BUSINESS_INCOME',
        vat_type: 'TAXABLE',
      },
      {
        org_id: orgs[1]!.org_id,
        grade_id: 2,
        agent_name: 'Other',
        tax_type: 'OTHER_INCOME',
        vat_type: 'EXEMPT',
      },
    ])
    .returning('agent_id')
    .execute();
  const company = await db
    .insertInto('insurance_company')
    .values({ company_code: 'L001', company_name: 'Alpha Life' })
    .returning('company_id')
    .executeTakeFirstOrThrow();
  const product = await db
    .insertInto('product')
    .values({
      company_id: company.company_id,
      product_code: 'PR-1',
      product_name: 'Whole Life',
      insurance_type: 'LIFE',
    })
    .returning('product_id')
    .executeTakeFirstOrThrow();
  const contracts = await db
    .insertInto('contract')
    .values(
      [1, 2, 3].map((i) => ({
        agent_id: agents[i - 1]!.agent_id,
        product_id: product.product_id,
        policy_no: `P-${i}`,
        premium: '100000.00',
        contract_date: '2023-01-15',
      })),
    )
    .returning('contract_id')
    .execute();
  return {
    orgId: orgs[0]!.org_id,
    otherOrgId: orgs[1]!.org_id,
    business: agents[0]!.agent_id,
    taxable: agents[1]!.agent_id,
    other: agents[2]!.agent_id,
    productId: product.product_id,
    contractIds: contracts.map((c) => c.contract_id),
  };
}
