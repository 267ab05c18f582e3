import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLog, startEventRuntime, type EventRuntime } from '@csp/events';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// ledger-settlement's consumer, loaded by path: a package dependency would make a cycle (it depends on us for tests)
import { settleEventConsumer } from '../../ledger-settlement/src/settle/settle-events.js';
import { confirmedSettlement, ledgerRow, seedAgents } from './book.js';
import { readSheet, startPlatform, type Platform } from './api-platform.js';

/**
 * March 2025 of a small book, end to end through the gateway. Rule 5 at the seeded rates (business 3.3 %,
 * other 8.8 %, local 10 % of the income tax, VAT 10 %), every figure computed by hand:
 *
 * | agent        | tax / VAT        | gross        | income tax | local | VAT (scale 2) | deduction | net          |
 * | business     | BUSINESS / NONE  | 1000000.00   | 33000      | 3300  | 0.00          | 50000.00  | 913700.00    |
 * | taxable      | BUSINESS / TAXABLE | 123456.78  | 4074       | 407   | 12345.68 (scale 0 would be 12346) | 0 | 131321.46 |
 * | other        | OTHER / EXEMPT   | 200000.00    | 17600      | 1760  | 0.00          | 0         | 180640.00    |
 * | otherTaxable | OTHER / TAXABLE  | 55555.55     | 4889       | 489   | 5555.56 (scale 0: 5556) | 0   | 55733.11     |
 * | negative     | BUSINESS / NONE  | -30000.00    | no payment: CHARGEBACK_PENDING 30000.00 in 202504            |
 *
 * 123456.78 x 3.3 % = 4074.07374 -> 4074; x 10 % = 407.4 -> 407; VAT 12345.678 -> 12345.68;
 * net = 123456.78 - 4074 - 407 + 12345.68 = 131321.46. 55555.55 x 8.8 % = 4888.88840 -> 4889; local 488.9 -> 489;
 * VAT 5555.555 -> 5555.56; net = 55555.55 - 4889 - 489 + 5555.56 = 55733.11.
 * Transfer total = 913700.00 + 131321.46 + 180640.00 + 55733.11 = 1281394.57.
 */
const MONTH = '202503';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Polls until `probe` holds, at most `timeoutMs` (bounded: a lost event fails the test instead of hanging it). */
async function waitFor(probe: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let p: Platform;
/** The outbox relay and ledger-settlement's consumer, as they run beside the services (random BullMQ prefix). */
let events: EventRuntime;
const eventsPrefix = `pt-e2e-evt-${randomBytes(4).toString('hex')}`;
let ids: { business: number; taxable: number; other: number; otherTaxable: number; negative: number };
let settleIds: Record<keyof typeof ids, number>;
const paymentOf: Record<string, number> = {};

beforeAll(async () => {
  p = await startPlatform();
  const db = p.ctx.db;
  events = startEventRuntime({
    db,
    connection: REDIS_URL,
    settings: { enabled: true, relay: true, prefix: eventsPrefix, pollMs: 20, attempts: 3, backoffMs: 20, concurrency: 2, lockMs: undefined, stalledMs: undefined },
    consumer: settleEventConsumer,
    logger: silentLog,
  });
  const [business, taxable, other, otherTaxable, negative] = await seedAgents(db, p.ctx.app.cipher, [
    { name: 'Business', taxType: 'BUSINESS_INCOME', vatType: 'NONE', accountNo: '110-123-456789' },
    { name: 'Taxable', taxType: 'BUSINESS_INCOME', vatType: 'TAXABLE', bankCode: '088', accountNo: '1101234567' },
    { name: '김기타', taxType: 'OTHER_INCOME', vatType: 'EXEMPT', bankCode: '020', accountNo: '1002-333-444444' },
    { name: 'Other, Taxable', taxType: 'OTHER_INCOME', vatType: 'TAXABLE', bankCode: '004', accountNo: '999-01' },
    { name: 'Negative', taxType: 'BUSINESS_INCOME', vatType: 'NONE' },
  ]);
  ids = { business: business!, taxable: taxable!, other: other!, otherTaxable: otherTaxable!, negative: negative! };
  settleIds = {
    business: await confirmedSettlement(db, ids.business, MONTH, '1000000.00'),
    taxable: await confirmedSettlement(db, ids.taxable, MONTH, '123456.78'),
    other: await confirmedSettlement(db, ids.other, MONTH, '200000.00'),
    otherTaxable: await confirmedSettlement(db, ids.otherTaxable, MONTH, '55555.55'),
    negative: await confirmedSettlement(db, ids.negative, MONTH, '-30000.00'),
  };
  await ledgerRow(db, 'recruit_ledger', { agentId: ids.business, settleMonth: MONTH, contractId: 101, policyNo: 'P-101', year: 1, premium: '7000000.00', agentAmount: '700000.00' });
  await ledgerRow(db, 'maintain_ledger', { agentId: ids.business, settleMonth: MONTH, contractId: 102, policyNo: 'P-102', year: 2, premium: '3000000.00', agentAmount: '300000.00' });
});

afterAll(async () => {
  await events?.close();
  await p?.close();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${eventsPrefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

const payments = async () => {
  const res = await p.call('GET', `/api/payments?settleMonth=${MONTH}&pageSize=100&sortField=agentId&sortOrder=ASC`);
  expect(res.status).toBe(200);
  return res.body.data.list as Array<Record<string, any>>;
};
const figures = (r: Record<string, any>) => [r.amount, r.incomeTaxAmount, r.localTaxAmount, r.vatAmount, r.deductionAmount, r.netAmount];

describe('a month paid end to end through the gateway', () => {
  it('takes a PENDING deduction for the business agent and refuses the same (agent, month, type) with B009', async () => {
    const body = { agentId: ids.business, settleMonth: MONTH, deductionType: 'LOAN', amount: '50000', description: 'loan repayment' };
    const created = await p.call('POST', '/api/deductions', body);
    expect(created.status).toBe(200);
    expect(created.body.data.id).toBeGreaterThan(0);
    const again = await p.call('POST', '/api/deductions', { ...body, amount: '1.00' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, code: 'B009' });
    expect(again.body.message).toContain('already has a LOAN deduction for 202503');
  });

  it('generates one PENDING payment per positive CONFIRMED settlement and carries the negative gross forward', async () => {
    const res = await p.call('POST', `/api/payments/generate?settleMonth=${MONTH}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ created: 4, skipped: [] });
    expect(res.body.message).toBe('4 payment(s) created for 202503; 1 negative gross carried forward to 202504 as CHARGEBACK_PENDING');

    const list = await payments();
    expect(list.map((r) => [r.agentId, r.settleId, r.status, r.amount, r.netAmount, r.accountNo, r.bankCode])).toEqual([
      [ids.business, settleIds.business, 'PENDING', '1000000.00', '1000000.00', '110-***-******', '004'],
      [ids.taxable, settleIds.taxable, 'PENDING', '123456.78', '123456.78', '110*******', '088'],
      [ids.other, settleIds.other, 'PENDING', '200000.00', '200000.00', '1002-***-******', '020'],
      [ids.otherTaxable, settleIds.otherTaxable, 'PENDING', '55555.55', '55555.55', '999-**', '004'],
    ]);
    for (const r of list) paymentOf[r.agentId] = r.paymentId;
    const stored = await p.ctx.db.selectFrom('payment').select('account_no').where('agent_id', '=', ids.business).executeTakeFirstOrThrow();
    expect(stored.account_no).not.toContain('456789');
    expect(p.ctx.app.cipher.decrypt(stored.account_no!)).toBe('110-123-456789');

    const carried = await p.call('GET', `/api/deductions?agentId=${ids.negative}`);
    expect(carried.body.data.list.map((d: any) => [d.settleMonth, d.deductionType, d.amount, d.status, d.carriedFromMonth])).toEqual([
      ['202504', 'CHARGEBACK_PENDING', '30000.00', 'PENDING', '202503'],
    ]);

    const rerun = await p.call('POST', `/api/payments/generate?settleMonth=${MONTH}`);
    expect(rerun.body.data).toEqual({ created: 0, skipped: [] });
    expect(rerun.body.message).toBe('0 payment(s) created for 202503');
    const deductions = await p.ctx.db.selectFrom('agent_deduction').select('amount').where('agent_id', '=', ids.negative).execute();
    expect(deductions).toEqual([{ amount: '30000.00' }]);
  });

  it('calculates rule 5 for the month (VAT to cents) and applies the deduction (rule 6) in one call each', async () => {
    const taxed = await p.call('POST', `/api/payments/calculate-taxes?settleMonth=${MONTH}`);
    expect(taxed.body.data).toEqual({ calculated: 4 });
    const applied = await p.call('PUT', `/api/payments/apply-deductions?settleMonth=${MONTH}`);
    expect(applied.body.data).toEqual({ payments: 1, deductions: 1, deductionSum: '50000.00', leftPending: 0 });

    expect((await payments()).map(figures)).toEqual([
      ['1000000.00', '33000.00', '3300.00', '0.00', '50000.00', '913700.00'],
      ['123456.78', '4074.00', '407.00', '12345.68', '0.00', '131321.46'],
      ['200000.00', '17600.00', '1760.00', '0.00', '0.00', '180640.00'],
      ['55555.55', '4889.00', '489.00', '5555.56', '0.00', '55733.11'],
    ]);
    const deduction = await p.call('GET', `/api/deductions?agentId=${ids.business}`);
    expect(deduction.body.data.list[0]).toMatchObject({ status: 'APPLIED', appliedPaymentId: paymentOf[ids.business] });
    const details = await p.ctx.db.selectFrom('payment_deduction_detail').select(['payment_id', 'amount']).execute();
    expect(details).toEqual([{ payment_id: paymentOf[ids.business], amount: '50000.00' }]);
  });

  it('recalculating one PENDING payment keeps its applied deduction in the net', async () => {
    const res = await p.call('POST', `/api/payments/${paymentOf[ids.business]}/calculate-tax`);
    expect(res.body.data).toEqual({
      paymentId: paymentOf[ids.business],
      incomeTaxAmount: '33000.00',
      localTaxAmount: '3300.00',
      vatAmount: '0.00',
      netAmount: '913700.00',
    });
  });

  it('writes the FIXED transfer file on the next business day: lines and trailer equal the payments', async () => {
    // 2025-05-05 Children's Day and Buddha's Birthday, 2025-05-06 substitute holiday.
    const res = await p.call('POST', '/api/payments/transfer-file', { settleMonth: MONTH, bankFormat: 'FIXED', transferDate: '2025-05-05' });
    expect(res.status).toBe(200);
    const file = res.body.data;
    expect(file).toMatchObject({ bankFormat: 'FIXED', settleMonth: MONTH, transferDate: '2025-05-07', count: 4, totalAmount: '1281394.57', skippedWithoutTax: 0, skippedNotPositive: 0 });
    expect(file.daysSkipped).toHaveLength(2);
    expect(file.daysSkipped[0]).toMatch(/^2025-05-05 /);

    const download = await p.call('GET', `/api/payments/transfer-file/${file.fileId}`);
    expect(download.status).toBe(200);
    const stored = await p.ctx.db.selectFrom('file_storage').selectAll().where('file_id', '=', file.fileId).executeTakeFirstOrThrow();
    expect(download.raw.equals(await readFile(join(p.filesDir, stored.file_path)))).toBe(true);
    const lines = download.raw.toString('utf8').split('\r\n');
    expect(lines.pop()).toBe('');
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    const text = (s: string, bytes: number) => s + ' '.repeat(bytes - Buffer.byteLength(s));
    const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10).replaceAll('-', '');
    const detail = (seq: number, agent: keyof typeof ids, bank: string, account: string, amount: string, holder: string) =>
      `D${pad(seq, 6)}${pad(paymentOf[ids[agent]]!, 12)}${pad(ids[agent], 12)}${text(bank, 10)}${text(account, 20)}${amount}${text(holder, 20)}    `;
    expect(lines).toEqual([
      `H${today}20250507202503${'00000004'}${'128139457'.padStart(18, '0')}${' '.repeat(51)}`,
      detail(1, 'business', '004', '110-123-456789', '000000091370000', 'Business'),
      detail(2, 'taxable', '088', '1101234567', '000000013132146', 'Taxable'),
      detail(3, 'other', '020', '1002-333-444444', '000000018064000', '김기타'),
      detail(4, 'otherTaxable', '004', '999-01', '000000005573311', 'Other, Taxable'),
      `T00000004000000000128139457${' '.repeat(73)}`,
    ]);
    for (const line of lines) expect(Buffer.byteLength(line)).toBe(100);

    expect((await payments()).map((r) => [r.status, r.payFileRef, r.transferDate])).toEqual(
      Array(4).fill(['SENT', file.fileId, '2025-05-07']),
    );
  });

  it('refuses a second transfer file with a clear E400 and writes nothing', async () => {
    const before = await p.ctx.db.selectFrom('file_storage').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const res = await p.call('POST', '/api/payments/transfer-file', { settleMonth: MONTH, bankFormat: 'CSV' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 'E400' });
    expect(res.body.message).toBe(
      'No transfer file written: 202503 has no PENDING payment with taxes calculated and a positive net (0 PENDING, 0 without taxes, 0 with net <= 0)',
    );
    const after = await p.ctx.db.selectFrom('file_storage').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('refuses calculate-tax and apply-deductions on a SENT payment with B001', async () => {
    const tax = await p.call('POST', `/api/payments/${paymentOf[ids.taxable]}/calculate-tax`);
    expect(tax.status).toBe(400);
    expect(tax.body).toMatchObject({ code: 'B001', message: `Payment ${paymentOf[ids.taxable]} is SENT: taxes can only be calculated while it is PENDING` });
    const ded = await p.call('PUT', `/api/payments/${paymentOf[ids.taxable]}/apply-deductions`);
    expect(ded.body.code).toBe('B001');
  });

  it('SUCCESS makes the settlement PAID through PAYMENT_SUCCEEDED, applied by ledger-settlement', async () => {
    for (const agent of ['business', 'taxable', 'other', 'otherTaxable'] as const) {
      const res = await p.call('PUT', `/api/payments/${paymentOf[ids[agent]]}/status`, { status: 'SUCCESS', resultCode: '0000' });
      expect(res.status).toBe(200);
    }
    // one event per payment, written with the status change (the outbox), addressed to ledger-settlement
    const outbox = await p.ctx.db.selectFrom('event_outbox').select(['event_type', 'target', 'subject']).where('event_type', '=', 'PAYMENT_SUCCEEDED').orderBy('event_id').execute();
    expect(outbox).toEqual(
      (['business', 'taxable', 'other', 'otherTaxable'] as const).map((agent) => ({
        event_type: 'PAYMENT_SUCCEEDED',
        target: 'ledger-settlement',
        subject: `PAYMENT#${paymentOf[ids[agent]]}`,
      })),
    );
    // applied asynchronously: bounded polling (the relay polls every 20 ms here)
    const settleStatuses = async () =>
      (await p.ctx.db.selectFrom('settle_master').select(['agent_id', 'status']).where('settle_month', '=', MONTH).orderBy('agent_id').execute()).map((s) => s.status);
    await waitFor(async () => (await settleStatuses()).filter((s) => s === 'PAID').length === 4, 'four settle rows PAID', 30_000);
    expect(await settleStatuses()).toEqual(['PAID', 'PAID', 'PAID', 'PAID', 'CONFIRMED']);
    // the business agent's ledger rows followed their settlement
    for (const table of ['recruit_ledger', 'maintain_ledger'] as const) {
      const rows = await p.ctx.db.selectFrom(table).select('status').where('agent_id', '=', ids.business).execute();
      expect(rows).toEqual([{ status: 'PAID' }]);
    }
    const processed = await p.ctx.db.selectFrom('processed_event').select('event_type').where('consumer', '=', 'ledger-settlement').execute();
    expect(processed).toEqual(Array(4).fill({ event_type: 'PAYMENT_SUCCEEDED' }));
    const again = await p.call('POST', `/api/payments/${paymentOf[ids.business]}/status`, { status: 'FAIL' });
    expect(again.body).toMatchObject({ code: 'B001', message: 'Status SUCCESS -> FAIL refused: payment ' + paymentOf[ids.business] + ' is already SUCCESS' });
  });

  it('the withholding report of the quarter, the VAT report and the annual income equal the payments', async () => {
    const w = await p.call('POST', '/api/withholding-tax-reports/regenerate', { settleQuarter: '2025-Q1' });
    expect(w.body).toMatchObject({ data: { affected: 4, keptCompleted: 0 }, message: '4 row(s) recomputed for 2025-Q1; 0 COMPLETED row(s) kept unchanged' });
    const wl = await p.call('GET', '/api/withholding-tax-reports?settleQuarter=2025-Q1&sortField=agentId&sortOrder=ASC');
    expect(wl.body.data.list.map((r: any) => [r.agentId, r.totalIncome, r.totalWithheld, r.totalLocalTax, r.paymentCount, r.fileStatus])).toEqual([
      [ids.business, '1000000.00', '33000.00', '3300.00', 1, 'PENDING'],
      [ids.taxable, '123456.78', '4074.00', '407.00', 1, 'PENDING'],
      [ids.other, '200000.00', '17600.00', '1760.00', 1, 'PENDING'],
      [ids.otherTaxable, '55555.55', '4889.00', '489.00', 1, 'PENDING'],
    ]);

    // Tax invoices as ledger-settlement issues them for the TAXABLE agents: taxable's 202503 ISSUED,
    // otherTaxable's 202503 issued and CANCELLED (not re-issued), taxable's 202412 (another quarter).
    const invoice = (n: number, agentId: number, month: string, supply: string, vat: string, total: string, status: 'ISSUED' | 'CANCELLED') =>
      p.ctx.db
        .insertInto('tax_invoice')
        .values({ invoice_no: `TI-${month}-${agentId}-${n}`, agent_id: agentId, settle_month: month, supply_amount: supply, vat_amount: vat, total_amount: total, issue_date: '2025-04-10', status })
        .execute();
    await invoice(1, ids.taxable, MONTH, '123456.78', '12345.68', '135802.46', 'ISSUED');
    await invoice(1, ids.otherTaxable, MONTH, '55555.55', '5555.56', '61111.11', 'CANCELLED');
    await invoice(1, ids.taxable, '202412', '1000.00', '100.00', '1100.00', 'ISSUED');
    const v = await p.call('POST', '/api/vat-reports/regenerate', { settleQuarter: '2025-Q1' });
    expect(v.body.data).toEqual({ affected: 1, keptCompleted: 0, removed: 0 });
    const vl = await p.call('GET', '/api/vat-reports?settleQuarter=2025-Q1');
    // taxInvoiceCount: ISSUED invoices of 202501-202503 = taxable's = 1 (otherTaxable's is CANCELLED, the
    // 202412 one is Q4 2024), although two payments carry VAT
    expect(vl.body.data.list[0]).toMatchObject({ totalSales: '179012.33', totalVatPayable: '17901.24', taxInvoiceCount: 1, totalPurchase: '0.00' });
    const complete = await p.call('PUT', '/api/vat-reports/complete', { ids: [vl.body.data.list[0].reportId] });
    expect(complete.body.data).toEqual({ completed: 1, alreadyCompleted: 0 });
    const kept = await p.call('POST', '/api/vat-reports/regenerate', { settleQuarter: '2025-Q1' });
    expect(kept.body).toMatchObject({ data: { affected: 0, keptCompleted: 1 }, message: '0 row(s) recomputed for 2025-Q1; 1 COMPLETED row(s) kept unchanged' });

    const a = await p.call('POST', '/api/agent-annual-incomes/regenerate?year=2025');
    expect(a.body.data).toEqual({ affected: 4, keptCompleted: 0, removed: 0 });
    const al = await p.call('GET', '/api/agent-annual-incomes?settleYear=2025&sortField=agentId&sortOrder=ASC');
    expect(al.body.data.list.map((r: any) => [r.agentId, r.totalAmount, r.totalIncomeTax, r.totalLocalTax, r.totalVat, r.totalNet])).toEqual([
      [ids.business, '1000000.00', '33000.00', '3300.00', '0.00', '913700.00'],
      [ids.taxable, '123456.78', '4074.00', '407.00', '12345.68', '131321.46'],
      [ids.other, '200000.00', '17600.00', '1760.00', '0.00', '180640.00'],
      [ids.otherTaxable, '55555.55', '4889.00', '489.00', '5555.56', '55733.11'],
    ]);
    const one = await p.call('GET', `/api/agent-annual-incomes/${ids.taxable}/2025`);
    expect(one.body.data).toMatchObject({ agentId: ids.taxable, settleYear: 2025, totalVat: '12345.68' });
  });

  it('books the month: ledger and payment entries balance, per account as computed by hand', async () => {
    const gen = await p.call('POST', '/api/accounting-entries/generate', { settleMonth: MONTH });
    expect(gen.body.data).toEqual({ ledger: { total: 2, written: 2, skipped: 0 }, payments: { total: 4, written: 11, skipped: 0 } });
    const balance = await p.call('GET', `/api/accounting-entries/balance?settleMonth=${MONTH}`);
    expect(balance.body.data).toMatchObject({ entries: 13, totalDebit: '2396913.57', totalCredit: '2396913.57', balanced: true });
    expect(balance.body.data.accounts.map((a: any) => [a.accountCode, a.debit, a.credit])).toEqual([
      ['1110', '0.00', '1281394.57'], // cash: the nets
      ['1130', '0.00', '50000.00'], // the loan recovered
      ['1350', '17901.24', '0.00'], // input VAT
      ['2110', '1379012.33', '1000000.00'], // payable: cleared by the payments, accrued by the ledgers
      ['2120', '0.00', '65519.00'], // 36300 + 4481 + 19360 + 5378 withheld
      ['5110', '1000000.00', '0.00'],
    ]);
    const entries = await p.call('GET', `/api/accounting-entries?settleMonth=${MONTH}&ledgerType=PAYMENT&ledgerId=${paymentOf[ids.taxable]}&sortField=amount&sortOrder=ASC`);
    expect(entries.body.data.list.map((e: any) => [e.debitAccountCode, e.creditAccountCode, e.amount, e.status])).toEqual([
      ['2110', '2120', '4481.00', 'OPEN'],
      ['1350', '1110', '12345.68', 'OPEN'],
      ['2110', '1110', '118975.78', 'OPEN'],
    ]);
  });

  it('closes the month with one journal number and balance snapshots, reopens it and closes it again', async () => {
    const draft = await p.call('POST', '/api/accounting-closes', { settleMonth: MONTH });
    const closeId = draft.body.data.id;
    const dup = await p.call('POST', '/api/accounting-closes', { settleMonth: MONTH });
    expect(dup.body.code).toBe('B009');
    const exec = await p.call('POST', `/api/accounting-closes/${closeId}/execute`);
    const journal = `J202503-${String(closeId).padStart(4, '0')}-01`;
    expect(exec.body.data).toEqual({ journalNo: journal, entryCount: 13 });
    const snapshots = await p.call('GET', `/api/accounting-closes/${closeId}/balances`);
    expect(snapshots.body.data.map((s: any) => [s.accountCode, s.debitAmount, s.creditAmount, s.balanceAmount])).toEqual([
      ['1110', '0.00', '1281394.57', '-1281394.57'],
      ['1130', '0.00', '50000.00', '-50000.00'],
      ['1350', '17901.24', '0.00', '17901.24'],
      ['2110', '1379012.33', '1000000.00', '379012.33'],
      ['2120', '0.00', '65519.00', '-65519.00'],
      ['5110', '1000000.00', '0.00', '1000000.00'],
    ]);
    const posted = await p.call('GET', `/api/accounting-entries?journalNo=${journal}&pageSize=1`);
    expect(posted.body.data.total).toBe(13);
    const closed = await p.call('POST', '/api/accounting-entries/generate', { settleMonth: MONTH });
    expect(closed.body.code).toBe('B001');

    const reopen = await p.call('PUT', `/api/accounting-closes/${closeId}/reopen`, { reason: 'late correction' });
    expect(reopen.body.data).toEqual({ entriesCleared: 13 });
    const open = await p.call('GET', `/api/accounting-entries?settleMonth=${MONTH}&status=OPEN&pageSize=1`);
    expect(open.body.data.total).toBe(13);
    const again = await p.call('PUT', `/api/accounting-closes/${closeId}/execute`);
    expect(again.body.data.journalNo).toBe(`J202503-${String(closeId).padStart(4, '0')}-02`);
  });

  it('issues a statement whose number cells equal the payment; PDF is E411; re-issue keeps the key', async () => {
    const pdf = await p.call('POST', '/api/statements/generate', { agentId: ids.business, settleMonth: MONTH, fileFormat: 'PDF' });
    expect(pdf.status).toBe(400);
    expect(pdf.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'fileFormat', message: 'PDF statements are not supported: use XLSX' }] } });

    const first = await p.call('POST', '/api/statements/generate', { agentId: ids.business, settleMonth: MONTH });
    const second = await p.call('PUT', '/api/statements/generate', { agentId: ids.business, settleMonth: MONTH, statementType: 'MONTHLY' });
    expect(second.body.data.statementId).toBe(first.body.data.statementId);
    expect(second.body.data.fileId).not.toBe(first.body.data.fileId);
    const id = first.body.data.statementId;
    const detail = await p.call('GET', `/api/statements/${id}`);
    expect(detail.body.data).toMatchObject({
      agentId: ids.business,
      agentName: 'Business',
      statementType: 'MONTHLY',
      statementTypeName: '월 명세서',
      issueStatus: 'GENERATED',
      issueStatusName: '생성',
      grossAmount: '1000000.00',
      incomeTaxAmount: '33000.00',
      localTaxAmount: '3300.00',
      vatAmount: '0.00',
      deductionAmount: '50000.00',
      netAmount: '913700.00',
      version: 1,
    });

    const download = await p.call('GET', `/api/statements/${id}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const rows = await readSheet(download.raw);
    const amounts = rows.filter((r) => typeof r[3] === 'number').map((r) => [r[0], r[1], r[3]]);
    expect(amounts).toEqual([
      ['모집 수수료', 'P-101 PR-1', 700000],
      ['유지 수수료', 'P-102 PR-1', 300000],
      ['총지급액 구성', '모집 수수료', 1000000],
      ['총지급액 구성', '유지 수수료', 0],
      ['총지급액 구성', '오버라이드', 0],
      ['총지급액 구성', '기타 수수료', 0],
      ['총지급액 구성', '정정', 0],
      ['총지급액 구성', '예외 가산', 0],
      ['총지급액 구성', '예외 차감', 0],
      ['총지급액 구성', '환수', 0],
      ['총지급액', '지급 1건', 1000000],
      ['소득세', '원천징수', 33000],
      ['지방소득세', '원천징수', 3300],
      ['부가가치세', '가산', 0],
      ['공제', '대출 상환', 50000],
      ['공제 합계', '총 공제액', 50000],
      ['실지급액', '지급액', 913700],
    ]);
    // Korean unless the issuing request asks for English (statement-language.test.ts)
    expect(rows[2]!.slice(0, 3)).toEqual(['설계사', 'Business', `설계사 번호 ${ids.business}`]);
    expect(rows[3]!.slice(0, 2)).toEqual(['정산월', '2025-03']);
    expect((await p.call('GET', `/api/statements/${id}`)).body.data.issueStatus).toBe('DOWNLOADED');

    const cancel = await p.call('POST', `/api/statements/${id}/cancel`);
    expect(cancel.status).toBe(200);
    const refused = await p.call('GET', `/api/statements/${id}/download`);
    expect(refused.body.code).toBe('B001');
  });

  it('generates one statement per agent with payments, with progress; VAT cells keep their cents', async () => {
    const start = await p.call('POST', '/api/statements/generate-for-month', { settleMonth: MONTH });
    expect(start.body.data.totalCount).toBe(4);
    let run: any;
    for (let i = 0; i < 100; i += 1) {
      run = (await p.call('GET', `/api/statements/generate-for-month/${start.body.data.runId}`)).body.data;
      if (run.status !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(run).toMatchObject({ status: 'COMPLETED', totalCount: 4, doneCount: 4, errorCount: 0, percent: 100 });
    const list = await p.call('GET', `/api/statements?settleMonth=${MONTH}&sortField=agentId&sortOrder=ASC`);
    expect(list.body.data.list.map((s: any) => [s.agentId, s.issueStatus, s.grossAmount, s.vatAmount, s.netAmount])).toEqual([
      [ids.business, 'GENERATED', '1000000.00', '0.00', '913700.00'],
      [ids.taxable, 'GENERATED', '123456.78', '12345.68', '131321.46'],
      [ids.other, 'GENERATED', '200000.00', '0.00', '180640.00'],
      [ids.otherTaxable, 'GENERATED', '55555.55', '5555.56', '55733.11'],
    ]);
    const taxable = list.body.data.list[1];
    const rows = await readSheet((await p.call('GET', `/api/statements/${taxable.statementId}/download`)).raw);
    const cells = Object.fromEntries(rows.filter((r) => typeof r[3] === 'number' && r[0] !== '총지급액 구성').map((r) => [r[0], r[3]]));
    expect(rows.find((r) => r[0] === '총지급액 구성' && r[1] === '모집 수수료')?.[3]).toBe(123456.78);
    expect(cells).toEqual({ 조정: 123456.78, 총지급액: 123456.78, 소득세: 4074, 지방소득세: 407, 부가가치세: 12345.68, '공제 합계': 0, 실지급액: 131321.46 });
    const excel = await p.call('GET', `/api/statements/excel?settleMonth=${MONTH}`);
    expect(excel.status).toBe(200);
    expect((await readSheet(excel.raw)).length).toBe(5);
  });

  it('aggregates, issues and sends the year-end statements; regenerate keeps the issued ones', async () => {
    const gen = await p.call('POST', '/api/year-end-statements/regenerate', { settleYear: 2025 });
    expect(gen.body.data).toEqual({ affected: 4, keptCompleted: 0, removed: 0 });
    const list = await p.call('GET', '/api/year-end-statements?settleYear=2025&sortField=agentId&sortOrder=ASC');
    const first = list.body.data.list[0];
    expect(first).toMatchObject({ agentId: ids.business, totalAmount: '1000000.00', totalDeduction: '50000.00', totalNet: '913700.00', status: 'GENERATED' });
    expect((await p.call('GET', `/api/year-end-statements/${first.statementId}/download`)).body.code).toBe('E400');
    expect((await p.call('POST', `/api/year-end-statements/${first.statementId}/send`)).body.code).toBe('B001');
    const issued = await p.call('POST', `/api/year-end-statements/${first.statementId}/issue`);
    expect(issued.status).toBe(200);
    const rows = await readSheet((await p.call('GET', `/api/year-end-statements/${first.statementId}/download`)).raw);
    expect(rows.at(-1)).toEqual(['Total', 1000000, 33000, 3300, 0, 50000, 913700]);
    expect((await p.call('PUT', `/api/year-end-statements/${first.statementId}/send`)).status).toBe(200);
    const again = await p.call('POST', '/api/year-end-statements/regenerate', { settleYear: 2025 });
    expect(again.body).toMatchObject({ data: { affected: 3, keptCompleted: 1 }, message: '3 statement(s) recomputed for 2025; 1 ISSUED or SENT statement(s) kept unchanged' });
  });

  it('exports the payments with masked accounts and money as number cells', async () => {
    const res = await p.call('GET', `/api/payments/excel?settleMonth=${MONTH}&sortField=agentId&sortOrder=ASC&lang=en`);
    expect(res.status).toBe(200);
    const rows = await readSheet(res.raw);
    const header = rows[0] as string[];
    const first = rows[1]!;
    expect(first[header.indexOf('Account')]).toBe('110-***-******');
    expect(first[header.indexOf('Net')]).toBe(913700);
    expect(rows).toHaveLength(5);
  });

  it('change-logs the state changes', async () => {
    await p.ctx.app.changeLogWriter.flush();
    const rows = await p.ctx.db
      .selectFrom('data_change_log')
      .select(['table_name', 'record_id', 'action'])
      .where('table_name', '=', 'payment')
      .where('record_id', '=', String(paymentOf[ids.business]))
      .orderBy('change_id')
      .execute();
    expect(rows.map((r) => r.action)).toEqual(['UPDATE', 'UPDATE']);
  });
});
