import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmedSettlement, seedAgents } from './book.js';
import { readSheet, startPlatform, type Platform } from './api-platform.js';

/**
 * Payments and statements carry every part of gross (issue 23 item 2, DECISIONS "Settlement lifecycle"),
 * and the parts add up to the payment amount / statement gross to the cent. Month 202509:
 *   full: 1000.00 recruit + 200.00 maintain + 30.30 override + 123.45 other + 10.01 correction
 *         + 5.00 exception plus - 2.50 exception minus - 300.00 chargeback = 1066.26
 *   plain: 5000.00 recruit (the book's confirmedSettlement)
 */
let p: Platform;
const MONTH = '202509';
const ids: Record<string, number> = {};

const cents = (s: string): bigint => {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(s);
  if (!m) throw new Error(`not a 2-place money string: ${s}`);
  const v = BigInt(m[2]!) * 100n + BigInt(m[3]!);
  return m[1] ? -v : v;
};
const PARTS = ['recruitTotal', 'maintainTotal', 'overrideTotal', 'otherTotal', 'correctionTotal', 'exceptionPlus'] as const;
const MINUS = ['exceptionMinus', 'chargebackTotal'] as const;
const partsSum = (row: Record<string, string>) =>
  PARTS.reduce((acc, k) => acc + cents(row[k]!), 0n) - MINUS.reduce((acc, k) => acc + cents(row[k]!), 0n);

beforeAll(async () => {
  p = await startPlatform();
  [ids.full, ids.plain] = await seedAgents(p.ctx.db, p.ctx.app.cipher, [
    { name: 'Full', taxType: 'BUSINESS_INCOME', vatType: 'NONE' },
    { name: 'Plain', taxType: 'BUSINESS_INCOME', vatType: 'NONE' },
  ]);
  await p.ctx.db
    .insertInto('settle_master')
    .values({
      agent_id: ids.full!,
      settle_month: MONTH,
      recruit_total: '1000.00',
      maintain_total: '200.00',
      override_total: '30.30',
      other_total: '123.45',
      correction_total: '10.01',
      exception_plus: '5.00',
      exception_minus: '2.50',
      chargeback_total: '300.00',
      gross_amount: '1066.26',
      tax_amount: '0',
      net_amount: '1066.26',
      status: 'CONFIRMED',
      confirmed_at: new Date(),
    })
    .execute();
  await confirmedSettlement(p.ctx.db, ids.plain!, MONTH, '5000.00');
  expect((await p.call('POST', `/api/payments/generate?settleMonth=${MONTH}`)).body.data).toEqual({ created: 2, skipped: [] });
  await p.call('POST', `/api/payments/calculate-taxes?settleMonth=${MONTH}`);
});

afterAll(async () => {
  await p?.close();
});

describe('the parts of gross on payments and statements', () => {
  it('shows each part of the paid settlement on the payment, with deduction and net', async () => {
    const list = (await p.call('GET', `/api/payments?settleMonth=${MONTH}&sortField=agentId&sortOrder=ASC`)).body.data.list;
    expect(list[0]).toMatchObject({
      agentId: ids.full,
      recruitTotal: '1000.00',
      maintainTotal: '200.00',
      overrideTotal: '30.30',
      otherTotal: '123.45',
      correctionTotal: '10.01',
      exceptionPlus: '5.00',
      exceptionMinus: '2.50',
      chargebackTotal: '300.00',
      amount: '1066.26',
      incomeTaxAmount: '35.00', // 1066.26 x 3.3 % = 35.18658 -> 35
      localTaxAmount: '4.00', // 35 x 10 % = 3.5 -> 4
      deductionAmount: '0.00',
      netAmount: '1027.26',
    });
  });

  it('stores each part on the statement: they add up to its gross', async () => {
    const issued = await p.call('POST', '/api/statements/generate', { agentId: ids.full, settleMonth: MONTH });
    expect(issued.status).toBe(200);
    const detail = (await p.call('GET', `/api/statements/${issued.body.data.statementId}`)).body.data;
    expect(detail).toMatchObject({
      recruitTotal: '1000.00',
      maintainTotal: '200.00',
      overrideTotal: '30.30',
      otherTotal: '123.45',
      correctionTotal: '10.01',
      exceptionPlus: '5.00',
      exceptionMinus: '2.50',
      chargebackTotal: '300.00',
      grossAmount: '1066.26',
      netAmount: '1027.26',
    });
  });

  it('writes each part of gross as a row of the statement spreadsheet, and the rows add up to its Gross cell to the cent', async () => {
    // issued in English (a request's ?lang=en): the Korean default is in statement-language.test.ts
    const issued = await p.call('POST', '/api/statements/generate?lang=en', { agentId: ids.full, settleMonth: MONTH });
    const rows = await readSheet((await p.call('GET', `/api/statements/${issued.body.data.statementId}/download`)).raw);
    const parts = rows.filter((r) => r[0] === 'Part of gross').map((r) => [r[1], r[3]]);
    expect(parts).toEqual([
      ['Recruit', 1000],
      ['Maintain', 200],
      ['Override', 30.3],
      ['Other commission', 123.45],
      ['Correction', 10.01],
      ['Exception plus', 5],
      ['Exception minus', -2.5],
      ['Chargeback', -300],
    ]);
    const gross = rows.find((r) => r[0] === 'Gross')!;
    expect(gross[3]).toBe(1066.26);
    // 100000 + 20000 + 3030 + 12345 + 1001 + 500 - 250 - 30000 = 106626 cents
    const partCents = parts.reduce((acc, [, amount]) => acc + Math.round((amount as number) * 100), 0);
    expect(partCents).toBe(106626);
    expect(partCents).toBe(Math.round((gross[3] as number) * 100));
    // The parts come after the lines and before Gross, each a number cell.
    const at = (section: string) => rows.findIndex((r) => r[0] === section);
    expect(at('Adjustment')).toBeLessThan(at('Part of gross'));
    expect(rows.findLastIndex((r) => r[0] === 'Part of gross')).toBeLessThan(at('Gross'));
  });

  it('adds the parts up to the amount on every payment and to gross on every statement, to the cent', async () => {
    await p.call('POST', '/api/statements/generate', { agentId: ids.plain, settleMonth: MONTH });
    const payments = (await p.call('GET', '/api/payments?pageSize=100')).body.data.list;
    const statements = (await p.call('GET', '/api/statements?pageSize=100')).body.data.list;
    expect(payments).toHaveLength(2);
    expect(statements).toHaveLength(2);
    for (const r of payments) expect(partsSum(r), JSON.stringify(r)).toBe(cents(r.amount));
    for (const r of statements) expect(partsSum(r), JSON.stringify(r)).toBe(cents(r.grossAmount));
  });
});
