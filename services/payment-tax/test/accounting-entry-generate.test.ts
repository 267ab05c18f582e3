import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, seedFixture, stepOf, type Fixture, type Harness } from './helpers.js';

let h: Harness;
let f: Fixture;
const MONTH = '202501';

beforeAll(async () => {
  h = await createHarness();
  f = await seedFixture(h.db);
  await h.db
    .insertInto('insurance_company')
    .values({ company_code: 'N002', company_name: 'Beta Fire' })
    .execute();
});

afterAll(async () => {
  await h?.close();
});

async function entries(month: string) {
  return h.db
    .selectFrom('contract_accounting_entry')
    .select([
      'contract_id',
      'ledger_type',
      'ledger_id',
      'settle_month',
      'agent_id',
      'company_code',
      'debit_account_code',
      'credit_account_code',
      'amount',
      'journal_no',
    ])
    .where('settle_month', '=', month)
    .orderBy('ledger_type')
    .orderBy('ledger_id')
    .execute();
}

describe('accountingEntryGenerate', () => {
  let recruitIds: number[];
  let maintainId: number;

  it('books every non-zero ledger row of the month as 5110 commission expense / 2110 commission payable', async () => {
    const [c1, c2, c3] = f.contractIds as [number, number, number];
    recruitIds = (
      await h.db
        .insertInto('recruit_ledger')
        .values([
          {
            contract_id: c1,
            agent_id: f.business,
            commission_year: 1,
            settle_month: MONTH,
            company_code: 'L001',
            agent_amount: '7200.00',
            status: 'CALCULATED',
          },
          {
            contract_id: c2,
            agent_id: f.taxable,
            commission_year: 1,
            settle_month: MONTH,
            company_code: 'L001',
            agent_amount: '0.00',
          },
          {
            contract_id: c3,
            agent_id: f.other,
            commission_year: 1,
            settle_month: MONTH,
            company_code: 'N002',
            agent_amount: '1234.56',
            status: 'CONFIRMED',
          },
          {
            contract_id: c1,
            agent_id: f.business,
            commission_year: 1,
            settle_month: '202502',
            company_code: 'L001',
            agent_amount: '99.00',
          },
        ])
        .returning('ledger_id')
        .execute()
    ).map((r) => r.ledger_id);
    maintainId = (
      await h.db
        .insertInto('maintain_ledger')
        .values({
          contract_id: c2,
          agent_id: f.taxable,
          commission_year: 2,
          settle_month: MONTH,
          company_code: 'L001',
          agent_amount: '1500.00',
        })
        .returning('ledger_id')
        .executeTakeFirstOrThrow()
    ).ledger_id;
    // an unposted entry of a ledger row that no longer exists is replaced away
    await h.db
      .insertInto('contract_accounting_entry')
      .values({
        contract_id: c1,
        ledger_type: 'RECRUIT',
        ledger_id: 999_999,
        settle_month: MONTH,
        agent_id: f.business,
        debit_account_code: '5110',
        credit_account_code: '2110',
        amount: '1.00',
      })
      .execute();

    const status = await h.runMonth(MONTH);
    expect(status.run.status).toBe('COMPLETED');
    expect(stepOf(status, 'accountingEntryGenerate')).toMatchObject({
      status: 'COMPLETED',
      totalCount: 3,
      successCount: 3,
      errorCount: 0,
      skippedCount: 0,
    });

    const common = {
      settle_month: MONTH,
      debit_account_code: '5110',
      credit_account_code: '2110',
      journal_no: null,
    };
    expect(await entries(MONTH)).toEqual([
      {
        ...common,
        contract_id: f.contractIds[1],
        ledger_type: 'MAINTAIN',
        ledger_id: maintainId,
        agent_id: f.taxable,
        company_code: 'L001',
        amount: '1500.00',
      },
      {
        ...common,
        contract_id: f.contractIds[0],
        ledger_type: 'RECRUIT',
        ledger_id: recruitIds[0],
        agent_id: f.business,
        company_code: 'L001',
        amount: '7200.00',
      },
      {
        ...common,
        contract_id: f.contractIds[2],
        ledger_type: 'RECRUIT',
        ledger_id: recruitIds[2],
        agent_id: f.other,
        company_code: 'N002',
        amount: '1234.56',
      },
    ]);
    expect(await entries('202502')).toEqual([]);
  });

  it('skips the year-end and quarterly steps outside their months with skipped step rows', async () => {
    const status = await h.runMonth(MONTH);
    expect(
      status.steps.filter((s) => s.skipped).map((s) => [s.stepName, s.status, s.skipReason, s.totalCount]),
    ).toEqual([
      ['yearEndIncomeAggregate', 'COMPLETED', 'skipped: not the last month of the year', 0],
      ['withholdingTaxQuarterly', 'COMPLETED', 'skipped: not the last month of a quarter', 0],
      ['vatReportQuarterly', 'COMPLETED', 'skipped: not the last month of a quarter', 0],
    ]);
    expect(status.run).toMatchObject({ status: 'COMPLETED', skippedCount: 3 });
  });

  it('replaces unposted entries on a re-run and never touches posted ones', async () => {
    await h.db
      .updateTable('contract_accounting_entry')
      .set({ journal_no: 'J202501-0001', posted_at: new Date() })
      .where('ledger_id', '=', recruitIds[0]!)
      .where('ledger_type', '=', 'RECRUIT')
      .execute();
    await h.db
      .updateTable('recruit_ledger')
      .set({ agent_amount: '8000.00' })
      .where('ledger_id', '=', recruitIds[0]!)
      .execute();
    await h.db
      .updateTable('maintain_ledger')
      .set({ agent_amount: '1600.00' })
      .where('ledger_id', '=', maintainId)
      .execute();

    const status = await h.runMonth(MONTH);
    expect(stepOf(status, 'accountingEntryGenerate')).toMatchObject({
      totalCount: 3,
      successCount: 2,
      skippedCount: 1,
    });
    expect((await entries(MONTH)).map((e) => [e.ledger_type, e.ledger_id, e.amount, e.journal_no])).toEqual([
      ['MAINTAIN', maintainId, '1600.00', null],
      ['RECRUIT', recruitIds[0], '7200.00', 'J202501-0001'],
      ['RECRUIT', recruitIds[2], '1234.56', null],
    ]);
  });

  it('replaces only the run company’s entries in a company run', async () => {
    await h.db
      .updateTable('recruit_ledger')
      .set({ agent_amount: '2000.00' })
      .where('ledger_id', '=', recruitIds[2]!)
      .execute();
    await h.db
      .updateTable('maintain_ledger')
      .set({ agent_amount: '1700.00' })
      .where('ledger_id', '=', maintainId)
      .execute();
    const status = await h.runMonth(MONTH, 'N002');
    expect(stepOf(status, 'accountingEntryGenerate')).toMatchObject({
      totalCount: 1,
      successCount: 1,
      skippedCount: 0,
    });
    expect((await entries(MONTH)).map((e) => [e.ledger_id, e.amount])).toEqual([
      [maintainId, '1600.00'],
      [recruitIds[0], '7200.00'],
      [recruitIds[2], '2000.00'],
    ]);
  });
});

describe('account codes of the entries (V034: checked per run and kept by a trigger, not by per-row foreign keys)', () => {
  it('carries a renamed account code over to every entry and refuses to delete a code in use', async () => {
    const before = await entries(MONTH);
    expect(before.length).toBeGreaterThan(0);
    await h.db
      .updateTable('account_code')
      .set({ account_code: '2119' })
      .where('account_code', '=', '2110')
      .execute();
    expect((await entries(MONTH)).map((e) => e.credit_account_code)).toEqual(before.map(() => '2119'));
    await h.db
      .updateTable('account_code')
      .set({ account_code: '2110' })
      .where('account_code', '=', '2119')
      .execute();
    expect((await entries(MONTH)).map((e) => e.credit_account_code)).toEqual(before.map(() => '2110'));

    await expect(
      h.db.deleteFrom('account_code').where('account_code', '=', '5110').execute(),
    ).rejects.toMatchObject({
      code: '23503',
      message: 'account code 5110 is still used by accounting entries',
    });
  });

  it('fails the step with a clear message, writing nothing, when one of its account codes is missing', async () => {
    const before = await entries(MONTH);
    await h.db
      .updateTable('account_code')
      .set({ account_code: '2119' })
      .where('account_code', '=', '2110')
      .execute();
    try {
      const status = await h.runMonth(MONTH);
      expect(status.run.status).toBe('FAILED');
      expect(stepOf(status, 'accountingEntryGenerate')).toMatchObject({
        status: 'FAILED',
        errorMessage: 'account code 2110 missing: accounting entries cannot be generated',
      });
      expect(await entries(MONTH)).toEqual(before.map((e) => ({ ...e, credit_account_code: '2119' })));
    } finally {
      await h.db
        .updateTable('account_code')
        .set({ account_code: '2110' })
        .where('account_code', '=', '2119')
        .execute();
    }
  });
});
