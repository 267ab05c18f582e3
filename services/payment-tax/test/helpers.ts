import type { RunStatus, StepDefinition } from '@csp/batch';
import { createBatchHarness, noopStepsExcept, type BatchHarness } from '@csp/batch/testing';
import type { TestDatabase } from '@csp/db/testing';
import { paymentTaxDb, type PaymentTaxDb } from '../src/db.js';
import { paymentTaxSteps } from '../src/steps/index.js';

export { stepOf } from '@csp/batch/testing';

export interface Harness {
  tdb: TestDatabase;
  db: PaymentTaxDb;
  queues: BatchHarness['queues'];
  /** Launches a run of the month, waits for its end and returns run + step rows. */
  runMonth(settleMonth: string, companyCode?: string): Promise<RunStatus>;
  close(): Promise<void>;
}

/** A fresh database, a random BullMQ prefix, this service's workers and no-op workers for the other steps. */
export async function createHarness(steps: readonly StepDefinition[] = paymentTaxSteps): Promise<Harness> {
  const h = await createBatchHarness({
    name: 'payment-tax',
    settings: { all: { attempts: 2, backoffMs: 50, timeoutMs: 20_000 } },
  });
  await h.startWorkers({ service: 'payment-tax', steps: [...steps], concurrency: 2 });
  await h.startWorkers({ steps: noopStepsExcept(steps) });
  return {
    tdb: h.tdb,
    db: paymentTaxDb(h.tdb.db),
    queues: h.queues,
    runMonth: (settleMonth, companyCode) => h.runMonth(settleMonth, companyCode),
    close: () => h.close(),
  };
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
