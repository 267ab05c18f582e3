import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmedSettlement, ledgerRow, seedAgents } from './book.js';
import { startPlatform, type Platform } from './api-platform.js';

let p: Platform;

beforeAll(async () => {
  p = await startPlatform();
});

afterAll(async () => {
  await p?.close();
});

const countPayments = async (month: string) =>
  (await p.ctx.db.selectFrom('payment').select((eb) => eb.fn.countAll<number>().as('n')).where('settle_month', '=', month).executeTakeFirstOrThrow()).n;

describe('payments: refusals and the failed-transfer path', () => {
  it('skips and lists agents without a usable bank account, pays the rest, and pays only them once the account is added', async () => {
    const [noAccount, noBank, fine] = await seedAgents(p.ctx.db, p.ctx.app.cipher, [
      { name: 'NoAccount', taxType: 'BUSINESS_INCOME', vatType: 'NONE', accountNo: null },
      { name: 'NoBank', taxType: 'BUSINESS_INCOME', vatType: 'NONE', bankCode: null },
      { name: 'Fine', taxType: 'BUSINESS_INCOME', vatType: 'NONE' },
    ]);
    const settleIds: number[] = [];
    for (const agent of [noAccount!, noBank!, fine!]) settleIds.push(await confirmedSettlement(p.ctx.db, agent, '202502', '10000.00'));
    const res = await p.call('POST', '/api/payments/generate?settleMonth=202502');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('1 payment(s) created for 202502; 2 agent(s) skipped without a usable bank account (NO_BANK_ACCOUNT)');
    expect(res.body.data).toEqual({
      created: 1,
      skipped: [
        { settleId: settleIds[0], agentId: noAccount, agentName: 'NoAccount', reason: 'NO_BANK_ACCOUNT', detail: 'no account number' },
        { settleId: settleIds[1], agentId: noBank, agentName: 'NoBank', reason: 'NO_BANK_ACCOUNT', detail: 'no bank code' },
      ],
    });
    const paidAgents = async () =>
      (await p.ctx.db.selectFrom('payment').select('agent_id').where('settle_month', '=', '202502').orderBy('payment_id').execute()).map((r) => Number(r.agent_id));
    expect(await paidAgents()).toEqual([fine]);
    // The month summary (the cockpit's payments block) names the same two agents with the same reasons.
    const summary = async () => (await p.call('GET', '/api/payments/month-summary?settleMonth=202502')).body.data;
    const first = await summary();
    expect(first.latestAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect({ ...first, latestAt: undefined }).toEqual({
      latestAt: undefined,
      payments: 1,
      taxed: 0,
      deducted: 0,
      transferred: 0,
      unpaid: 2,
      unpaidAgents: [
        { settleId: settleIds[0], agentId: noAccount, agentName: 'NoAccount', detail: 'no account number' },
        { settleId: settleIds[1], agentId: noBank, agentName: 'NoBank', detail: 'no bank code' },
      ],
    });

    // The transfer file carries only the payment that has an account.
    await p.call('POST', '/api/payments/calculate-taxes?settleMonth=202502');
    const file = await p.call('POST', '/api/payments/transfer-file', { settleMonth: '202502', bankFormat: 'CSV', transferDate: '2025-02-28' });
    expect(file.body.data).toMatchObject({ count: 1, totalAmount: '9637.00' });
    expect(await summary()).toMatchObject({ payments: 1, taxed: 1, transferred: 1, unpaid: 2 });
    // An AGENT user sees its own payments only: this agent has none in the month and no settlement to pay.
    const own = await p.call('GET', '/api/payments/month-summary?settleMonth=202502', undefined, await p.ctx.tokenFor('AGENT'));
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ payments: 0, unpaid: 0, unpaidAgents: [] });

    await p.ctx.db
      .updateTable('agent')
      .set({ account_no: p.ctx.app.cipher.encrypt('333-22-1111') })
      .where('agent_id', '=', noAccount!)
      .execute();
    const again = await p.call('POST', '/api/payments/generate?settleMonth=202502');
    expect(again.body.data).toEqual({
      created: 1,
      skipped: [{ settleId: settleIds[1], agentId: noBank, agentName: 'NoBank', reason: 'NO_BANK_ACCOUNT', detail: 'no bank code' }],
    });
    expect(await paidAgents()).toEqual([fine, noAccount]);
    expect(await countPayments('202502')).toBe(2);
    expect(await summary()).toMatchObject({
      payments: 2,
      taxed: 1,
      transferred: 1,
      unpaid: 1,
      unpaidAgents: [{ settleId: settleIds[1], agentId: noBank, agentName: 'NoBank', detail: 'no bank code' }],
    });
  });

  it('rejects a malformed month with E411 and a user without the generate grant with E403', async () => {
    const bad = await p.call('POST', '/api/payments/generate?settleMonth=2025-02');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('E411');
    expect(bad.body.data.errors[0].field).toBe('settleMonth');
    // AGENT reads its own payments (V088, agent-portal.test.ts) but holds no grant to generate them.
    const agent = await p.call('POST', '/api/payments/generate?settleMonth=202502', undefined, await p.ctx.tokenFor('AGENT'));
    expect(agent.status).toBe(403);
    expect(agent.body.code).toBe('E403');
  });

  it('writes a CSV file, and a FAIL sends the settlement back to be paid again with its deductions PENDING', async () => {
    const [kim] = await seedAgents(p.ctx.db, p.ctx.app.cipher, [
      { name: 'Kim, "Jr."', taxType: 'BUSINESS_INCOME', vatType: 'NONE', bankCode: '004', accountNo: '110-123-456789' },
    ]);
    const settleId = await confirmedSettlement(p.ctx.db, kim!, '202506', '10000.00');
    const dues = await p.call('POST', '/api/deductions', { agentId: kim, settleMonth: '202506', deductionType: 'DUES', amount: 1000 });
    const duesId = dues.body.data.id;
    expect((await p.call('POST', '/api/payments/generate?settleMonth=202506')).body.data).toEqual({ created: 1, skipped: [] });

    const untaxed = await p.call('POST', '/api/payments/transfer-file', { settleMonth: '202506', bankFormat: 'CSV' });
    expect(untaxed.body.message).toBe(
      'No transfer file written: 202506 has no PENDING payment with taxes calculated and a positive net (1 PENDING, 1 without taxes, 0 with net <= 0)',
    );
    await p.call('POST', '/api/payments/calculate-taxes?settleMonth=202506');
    await p.call('POST', '/api/payments/apply-deductions?settleMonth=202506');
    const [first] = (await p.call('GET', '/api/payments?settleMonth=202506')).body.data.list;
    // 10000 x 3.3 % = 330, local 33, net = 10000 - 363 - 1000 deduction
    expect([first.incomeTaxAmount, first.localTaxAmount, first.deductionAmount, first.netAmount]).toEqual(['330.00', '33.00', '1000.00', '8637.00']);

    const early = await p.call('PUT', `/api/payments/${first.paymentId}/status`, { status: 'SUCCESS' });
    expect(early.body).toMatchObject({ code: 'B001', message: 'Status PENDING -> SUCCESS refused: a PENDING payment becomes SENT only through the transfer file' });

    // 2025-06-06 Memorial Day (Fri), weekend, 2025-06-09 configured as closed.
    await sql`UPDATE system_config SET config_value = '2025-06-09' WHERE config_key = 'BANK_CLOSED_DAYS'`.execute(p.ctx.db);
    const file = await p.call('POST', '/api/payments/transfer-file', { settleMonth: '202506', bankFormat: 'CSV', transferDate: '2025-06-06' });
    expect(file.body.data).toMatchObject({ transferDate: '2025-06-10', count: 1, totalAmount: '8637.00' });
    expect(file.body.data.daysSkipped).toEqual([
      expect.stringMatching(/^2025-06-06 \S/),
      '2025-06-07 weekend',
      '2025-06-08 weekend',
      '2025-06-09 closed (BANK_CLOSED_DAYS)',
    ]);
    const csv = (await p.call('GET', `/api/payments/transfer-file/${file.body.data.fileId}`)).raw.toString('utf8');
    const today = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 10).replaceAll('-', '');
    expect(csv).toBe(
      `H,${today},20250610,202506,1,8637.00\r\n` +
        `D,1,${first.paymentId},${kim},004,110-123-456789,8637.00,"Kim, ""Jr."""\r\n` +
        'T,1,8637.00\r\n',
    );

    expect((await p.call('POST', `/api/payments/${first.paymentId}/status`, { status: 'FAIL', resultCode: 'E17', resultMsg: 'account closed' })).status).toBe(200);
    const settle = await p.ctx.db.selectFrom('settle_master').select('status').where('settle_id', '=', settleId).executeTakeFirstOrThrow();
    expect(settle.status).toBe('CONFIRMED');
    expect((await p.call('GET', `/api/deductions/${duesId}`)).body.data.status).toBe('PENDING');

    expect((await p.call('POST', '/api/payments/generate?settleMonth=202506')).body.data).toEqual({ created: 1, skipped: [] });
    await p.call('POST', '/api/payments/calculate-taxes?settleMonth=202506');
    const applied = await p.call('POST', '/api/payments/apply-deductions?settleMonth=202506');
    expect(applied.body.data).toMatchObject({ payments: 1, deductions: 1, deductionSum: '1000.00' });
    const list = (await p.call('GET', '/api/payments?settleMonth=202506&sortField=transferDate&sortOrder=ASC')).body.data.list;
    expect(list.map((r: any) => [r.status, r.resultCode, r.netAmount]).sort()).toEqual([
      ['FAIL', 'E17', '8637.00'],
      ['PENDING', null, '8637.00'],
    ]);
  });

  it('changes a deduction only while PENDING, and cancelling an applied one gives the amount back to the PENDING payment', async () => {
    const [lee] = await seedAgents(p.ctx.db, p.ctx.app.cipher, [{ name: 'Lee', taxType: 'OTHER_INCOME', vatType: 'EXEMPT' }]);
    await confirmedSettlement(p.ctx.db, lee!, '202507', '50000.00');
    const created = await p.call('POST', '/api/deductions', { agentId: lee, settleMonth: '202507', deductionType: 'AD', amount: '2000.00' });
    const id = created.body.data.id;
    const zero = await p.call('POST', '/api/deductions', { agentId: lee, settleMonth: '202507', deductionType: 'OTHER', amount: '0' });
    expect(zero.body).toMatchObject({ code: 'E411', data: { errors: [{ field: 'amount', message: 'must be greater than 0' }] } });
    expect((await p.call('PUT', `/api/deductions/${id}`, { amount: '2500.00', description: 'flyers' })).status).toBe(200);

    await p.call('POST', '/api/payments/generate?settleMonth=202507');
    await p.call('POST', '/api/payments/calculate-taxes?settleMonth=202507');
    const [payment] = (await p.call('GET', `/api/payments?agentId=${lee}`)).body.data.list;
    // 50000 x 8.8 % = 4400, local 440: net 45160 before the deduction
    expect(payment.netAmount).toBe('45160.00');
    await p.call('POST', `/api/payments/${payment.paymentId}/apply-deductions`);
    expect((await p.call('GET', `/api/payments/${payment.paymentId}`)).body.data).toMatchObject({ deductionAmount: '2500.00', netAmount: '42660.00' });

    const locked = await p.call('PUT', `/api/deductions/${id}`, { amount: '1.00' });
    expect(locked.body).toMatchObject({ code: 'B001', message: `Deduction ${id} is APPLIED: only a PENDING deduction can be changed` });
    expect((await p.call('POST', `/api/deductions/${id}/cancel`)).status).toBe(200);
    expect((await p.call('GET', `/api/payments/${payment.paymentId}`)).body.data).toMatchObject({ deductionAmount: '0.00', netAmount: '45160.00' });
    expect((await p.call('PUT', `/api/deductions/${id}/cancel`)).body).toMatchObject({ code: 'B001', message: `Deduction ${id} is already CANCELLED` });
  });
});

describe('account codes and hand-closed entries', () => {
  it('lists active codes by side, refuses a duplicate and the deletion of a code in use', async () => {
    const debit = await p.call('GET', '/api/common/account-codes?accountType=DEBIT');
    expect(debit.body.data.map((c: any) => c.accountCode)).toEqual(['5110', '1110', '1130', '1350']); // by sort order
    const dup = await p.call('POST', '/api/common/account-codes', { accountCode: '5110', accountName: 'x', accountType: 'DEBIT' });
    expect(dup.body).toMatchObject({ code: 'B009', message: 'Account code 5110 exists already' });
    expect((await p.call('POST', '/api/common/account-codes', { accountCode: '9990', accountName: 'Suspense', accountType: 'BOTH', isActive: false })).status).toBe(200);
    expect((await p.call('GET', '/api/common/account-codes')).body.data.map((c: any) => c.accountCode)).not.toContain('9990');
    expect((await p.call('GET', '/api/common/account-codes/all')).body.data.map((c: any) => c.accountCode)).toContain('9990');
    expect((await p.call('PUT', '/api/common/account-codes/9990', { accountName: 'Suspense account', accountType: 'BOTH', isActive: true })).status).toBe(200);

    const [choi] = await seedAgents(p.ctx.db, p.ctx.app.cipher, [{ name: 'Choi', taxType: 'BUSINESS_INCOME', vatType: 'NONE' }]);
    await ledgerRow(p.ctx.db, 'recruit_ledger', { agentId: choi!, settleMonth: '202509', contractId: 9, policyNo: 'P-9', year: 1, premium: '100.00', agentAmount: '10.00' });
    const gen = await p.call('POST', '/api/accounting-entries/generate', { settleMonth: '202509' });
    expect(gen.body.data.ledger).toEqual({ total: 1, written: 1, skipped: 0 });
    const inUse = await p.call('DELETE', '/api/common/account-codes/2110');
    expect(inUse.body.code).toBe('E400');
    expect(inUse.body.message).toBe('Account code 2110 is used by 1 accounting entry: deactivate it instead');
    expect((await p.call('DELETE', '/api/common/account-codes/9990')).status).toBe(200);
    expect((await p.call('DELETE', '/api/common/account-codes/9990')).status).toBe(404);
  });

  it('posts entries under a journal number once; posting them again is B001', async () => {
    const [kim] = await seedAgents(p.ctx.db, p.ctx.app.cipher, [{ name: 'Park', taxType: 'BUSINESS_INCOME', vatType: 'NONE' }]);
    await confirmedSettlement(p.ctx.db, kim!, '202508', '1000.00');
    await p.call('POST', '/api/payments/generate?settleMonth=202508');
    await p.call('POST', '/api/payments/calculate-taxes?settleMonth=202508');
    const file = await p.call('POST', '/api/payments/transfer-file', { settleMonth: '202508', transferDate: '2025-08-01' });
    const [paymentId] = file.body.data.paymentIds;
    const notPaid = await p.call('POST', '/api/accounting-entries/generate', { paymentIds: [paymentId] });
    expect(notPaid.body).toMatchObject({ code: 'E400', message: `Only SUCCESS payments are booked: ${paymentId} is SENT` });
    await p.call('PUT', `/api/payments/${paymentId}/status`, { status: 'SUCCESS' });
    const gen = await p.call('POST', '/api/accounting-entries/generate', { paymentIds: [paymentId] });
    expect(gen.body.data).toEqual({ ledger: null, payments: { total: 1, written: 2, skipped: 0 } });
    const entries = (await p.call('GET', `/api/accounting-entries?ledgerType=PAYMENT&ledgerId=${paymentId}`)).body.data.list;
    const entryIds = entries.map((e: any) => e.entryId);
    expect((await p.call('PUT', '/api/accounting-entries/close', { entryIds, journalNo: 'JV-2025-08-001' })).body.data).toEqual({ closed: 2 });
    const again = await p.call('POST', '/api/accounting-entries/close', { entryIds, journalNo: 'JV-2025-08-002' });
    expect(again.body.code).toBe('B001');
    const regen = await p.call('POST', '/api/accounting-entries/generate', { paymentIds: [paymentId] });
    expect(regen.body.data.payments).toEqual({ total: 1, written: 0, skipped: 1 });
  });
});
