import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveMonth, ensureMonthPartitions, restoreMonth } from '@csp/db';
import { standbyReadConfig, standbyReadyFor, startStandby, type Standby } from '@csp/db/testing-standby';
import { metricsText, type ServiceApp } from '@csp/service-kit';
import { createTestContext, type TestContext } from '@csp/service-kit/testing';
import { buildApp } from '../src/app.js';

/**
 * Issue 27: the accounting reads of payment-tax (the entries list, the month balance report, the account codes)
 * answer from a real hot standby (DATABASE_READ_URL); an archived month's entries are read with includeArchive.
 */
let standby: Standby;
let ctx: TestContext<ServiceApp>;
const MONTH = '202504';
const ARCHIVED = '202401';

const get = async (url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ctx.adminToken}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

async function entry(month: string, amount: string, ledgerId: number): Promise<void> {
  await ctx.pool.query(
    `INSERT INTO contract_accounting_entry (ledger_type, ledger_id, settle_month, agent_id, debit_account_code, credit_account_code, amount)
     VALUES ('MAINTAIN', $1, $2, 7, '5110', '2110', $3)`,
    [ledgerId, month, amount],
  );
}

async function replicaReads(): Promise<number> {
  const line = (await metricsText()).split('\n').find((l) => l.startsWith('csp_db_reads_total{service="payment-tax",target="replica"}'));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

const entryAmounts = async (month: string, extra = '') =>
  ((await get(`/api/accounting-entries?settleMonth=${month}&sortField=entryId${extra}`)).list as { amount: string }[]).map((e) => e.amount).sort();
const balanceOf = async (month: string, extra = '') => {
  const b = await get(`/api/accounting-entries/balance?settleMonth=${month}${extra}`);
  return { entries: b.entries, totalDebit: b.totalDebit, balanced: b.balanced };
};

beforeAll(async () => {
  standby = await startStandby();
  ctx = await createTestContext({
    serviceName: 'payment-tax',
    buildApp: (deps) =>
      buildApp({
        ...deps,
        config: { ...deps.config, ...standbyReadConfig(standby, deps.config.DATABASE_URL) },
      }),
  });
  for (const m of [ARCHIVED, MONTH]) await ensureMonthPartitions(ctx.db, m);
  await entry(MONTH, '10.00', 1);
  await entry(ARCHIVED, '7.25', 2);
  await entry(ARCHIVED, '2.75', 3);
  await standbyReadyFor(standby, ctx.config.DATABASE_URL, async () => (await ctx.app.readRouting.check()) === 'up');
}, 300_000);

afterAll(async () => {
  await ctx?.close();
  await standby?.destroy();
}, 120_000);

describe('payment-tax reads off a hot standby', () => {
  it('the accounting list, the month balance report and the account codes answer from the replica', async () => {
    expect(await entryAmounts(MONTH)).toEqual(['10.00']);
    const before = await replicaReads();
    await standby.pauseReplay();
    try {
      await entry(MONTH, '5.00', 4);
      await ctx.pool.query(`UPDATE account_code SET is_active = false WHERE account_code = '1350'`);
      expect(await entryAmounts(MONTH)).toEqual(['10.00']);
      expect(await balanceOf(MONTH)).toEqual({ entries: 1, totalDebit: '10.00', balanced: true });
      const active = (await get('/api/common/account-codes')) as { accountCode: string }[];
      expect(active.map((c) => c.accountCode)).toContain('1350');
      expect(await replicaReads()).toBeGreaterThanOrEqual(before + 3);
    } finally {
      await standby.resumeReplay();
    }
    await standby.catchUp();
    expect(await entryAmounts(MONTH)).toEqual(['10.00', '5.00']);
    expect(await balanceOf(MONTH)).toEqual({ entries: 2, totalDebit: '15.00', balanced: true });
    const active = (await get('/api/common/account-codes')) as { accountCode: string }[];
    expect(active.map((c) => c.accountCode)).not.toContain('1350');
  });

  it('an archived month: the list and the balance report read it only with includeArchive=true', async () => {
    expect(await archiveMonth(ctx.db, ARCHIVED)).toContain('contract_accounting_entry');
    try {
      await standby.catchUp();
      expect(await entryAmounts(ARCHIVED)).toEqual([]);
      expect(await balanceOf(ARCHIVED)).toEqual({ entries: 0, totalDebit: '0.00', balanced: true });
      expect(await entryAmounts(ARCHIVED, '&includeArchive=true')).toEqual(['2.75', '7.25']);
      expect(await balanceOf(ARCHIVED, '&includeArchive=true')).toEqual({ entries: 2, totalDebit: '10.00', balanced: true });
      // the live month is the same with or without the archive
      expect(await entryAmounts(MONTH, '&includeArchive=true')).toEqual(['10.00', '5.00']);
      const sheet = await ctx.app.inject({
        method: 'GET',
        url: `/api/accounting-entries/excel?settleMonth=${ARCHIVED}&includeArchive=true`,
        headers: { authorization: `Bearer ${ctx.adminToken}` },
      });
      expect(sheet.statusCode).toBe(200);
    } finally {
      await restoreMonth(ctx.db, ARCHIVED);
    }
    await standby.catchUp();
    expect(await entryAmounts(ARCHIVED)).toEqual(['2.75', '7.25']);
  });
});
