import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerRow, seedAgents } from './book.js';
import { readSheet, startPlatform, type Platform } from './api-platform.js';

/**
 * A statement speaks the language it was issued in (issue 24): the issuer's request language, Korean by
 * default, stored with the statement. One agent's October 2025, computed by hand:
 *   recruit P-501 year 1: premium 10,000,000.00 x 10 % x 100 %   = 1,000,000.00
 *   appointment allowance, month 2 after joining                  =   234,567.89
 *   exception BONUS_SPECIAL (plus, approved)                      =   265,432.11
 *   gross                                                         = 1,500,000.00 (the parts add up to it: no adjustment)
 *   income tax 1,500,000.00 x 3.3 % = 49,500; local 10 % = 4,950; VAT none; LOAN deduction 50,000.00
 *   net = 1,500,000.00 - 49,500 - 4,950 - 50,000.00 = 1,395,550.00
 */
let p: Platform;
const MONTH = '202510';
let agentId: number;

beforeAll(async () => {
  p = await startPlatform();
  const db = p.ctx.db;
  [agentId] = await seedAgents(db, p.ctx.app.cipher, [{ name: '김하늘', taxType: 'BUSINESS_INCOME', vatType: 'NONE' }]);
  await ledgerRow(db, 'recruit_ledger', { agentId, settleMonth: MONTH, contractId: 501, policyNo: 'P-501', year: 1, premium: '10000000.00', agentAmount: '1000000.00' });
  await db
    .insertInto('other_commission_ledger')
    .values({ commission_type: 'APPOINTMENT', agent_id: agentId, milestone_month: 2, agent_amount: '234567.89', settle_month: MONTH, status: 'CONFIRMED' })
    .execute();
  await db
    .insertInto('exception_ledger')
    .values({
      agent_id: agentId,
      settle_month: MONTH,
      exception_code: 'BONUS_SPECIAL',
      direction: 'PLUS',
      amount: '265432.11',
      reason: '10월 우수 실적',
      approve_status: 'APPROVED',
    })
    .execute();
  await db
    .insertInto('settle_master')
    .values({
      agent_id: agentId,
      settle_month: MONTH,
      recruit_total: '1000000.00',
      other_total: '234567.89',
      exception_plus: '265432.11',
      gross_amount: '1500000.00',
      tax_amount: '0',
      net_amount: '1500000.00',
      status: 'CONFIRMED',
      confirmed_at: new Date(),
    })
    .execute();
  const deduction = { agentId, settleMonth: MONTH, deductionType: 'LOAN', amount: '50000', description: '대출 상환 10회차' };
  expect((await p.call('POST', '/api/deductions', deduction)).status).toBe(200);
  expect((await p.call('POST', `/api/payments/generate?settleMonth=${MONTH}`)).body.data).toEqual({ created: 1, skipped: [] });
  expect((await p.call('POST', `/api/payments/calculate-taxes?settleMonth=${MONTH}`)).status).toBe(200);
  expect((await p.call('PUT', `/api/payments/apply-deductions?settleMonth=${MONTH}`)).body.data).toMatchObject({ deductionSum: '50000.00' });
});

afterAll(async () => {
  await p?.close();
});

const issue = async (query = '') => {
  const res = await p.call('POST', `/api/statements/generate${query}`, { agentId, settleMonth: MONTH });
  expect(res.status).toBe(200);
  return res.body.data.statementId as number;
};
const download = async (statementId: number, query = '') => {
  const res = await p.call('GET', `/api/statements/${statementId}/download${query}`);
  expect(res.status).toBe(200);
  // Four cells a row; an empty cell (empty text, no amount) reads as ''.
  return (await readSheet(res.raw)).map((r) => [0, 1, 2, 3].map((i) => r[i] ?? ''));
};
const storedLang = async (statementId: number) =>
  (await p.ctx.db.selectFrom('commission_statement').select('lang').where('statement_id', '=', statementId).executeTakeFirstOrThrow()).lang;
const issuedOn = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' }).format(new Date());

/** The figures both statements carry: the same cells in either language. */
const AMOUNTS = [1000000, 265432.11, 234567.89, 1000000, 0, 0, 234567.89, 0, 265432.11, 0, 0, 1500000, 49500, 4950, 0, 50000, 50000, 1395550];

describe('the language of a commission statement', () => {
  let statementId: number;

  it('is Korean by default: every label, section and line text of the sheet in Korean, the amounts exact', async () => {
    statementId = await issue();
    expect(await storedLang(statementId)).toBe('ko');
    const rows = await download(statementId);
    expect(rows).toEqual([
      ['구분', '항목', '산출 근거', '금액(원)'],
      ['명세서', '수수료 명세서', '', ''],
      ['설계사', '김하늘', `설계사 번호 ${agentId}`, ''],
      ['정산월', '2025-10', '', ''],
      ['발행일', issuedOn(), '', ''],
      ['', '', '', ''],
      ['모집 수수료', 'P-501 PR-1', '1차년도, 보험료 10,000,000.00 × 10% × 100%', 1000000],
      ['예외', '특별 보너스', '10월 우수 실적', 265432.11],
      ['위촉 지원금', '', '위촉 후 2개월차', 234567.89],
      ['', '', '', ''],
      ['총지급액 구성', '모집 수수료', '', 1000000],
      ['총지급액 구성', '유지 수수료', '', 0],
      ['총지급액 구성', '오버라이드', '', 0],
      ['총지급액 구성', '기타 수수료', '수금, 갱신, 부활, 유지 보너스, 위촉 지원금, 시책', 234567.89],
      ['총지급액 구성', '정정', '해당 월에 반영된 승인 정정', 0],
      ['총지급액 구성', '예외 가산', '', 265432.11],
      ['총지급액 구성', '예외 차감', '차감', 0],
      ['총지급액 구성', '환수', '차감', 0],
      ['', '', '', ''],
      ['총지급액', '지급 1건', '', 1500000],
      ['소득세', '원천징수', '', 49500],
      ['지방소득세', '원천징수', '', 4950],
      ['부가가치세', '가산', '', 0],
      ['공제', '대출 상환', '대출 상환 10회차', 50000],
      ['공제 합계', '총 공제액', '', 50000],
      ['실지급액', '지급액', '', 1395550],
    ]);
    expect(rows.filter((r) => typeof r[3] === 'number').map((r) => r[3])).toEqual(AMOUNTS);
  });

  it('stays Korean when a request in English downloads a statement issued in Korean (the stored language)', async () => {
    const rows = await download(statementId, '?lang=en');
    expect(rows[0]).toEqual(['구분', '항목', '산출 근거', '금액(원)']);
    expect(rows.at(-1)).toEqual(['실지급액', '지급액', '', 1395550]);
    expect(await storedLang(statementId)).toBe('ko');
  });

  it('is English when issued by a request in English, with the same amounts', async () => {
    const english = await issue('?lang=en');
    expect(english).toBe(statementId); // re-issue of the same key
    expect(await storedLang(english)).toBe('en');
    const rows = await download(english);
    expect(rows).toEqual([
      ['Section', 'Item', 'Reference', 'Amount (KRW)'],
      ['Statement', 'Commission statement', '', ''],
      ['Agent', '김하늘', `agent ${agentId}`, ''],
      ['Settle month', '2025-10', '', ''],
      ['Issued on', issuedOn(), '', ''],
      ['', '', '', ''],
      ['Recruit', 'P-501 PR-1', 'year 1, premium 10,000,000.00 x 10% x 100%', 1000000],
      ['Exception', 'Special bonus', '10월 우수 실적', 265432.11],
      ['Appointment allowance', '', 'month 2 after joining', 234567.89],
      ['', '', '', ''],
      ['Part of gross', 'Recruit', '', 1000000],
      ['Part of gross', 'Maintain', '', 0],
      ['Part of gross', 'Override', '', 0],
      ['Part of gross', 'Other commission', 'collection, renewal, reinstatement, persistency, appointment, incentive', 234567.89],
      ['Part of gross', 'Correction', 'approved corrections booked into the month', 0],
      ['Part of gross', 'Exception plus', '', 265432.11],
      ['Part of gross', 'Exception minus', 'deducted', 0],
      ['Part of gross', 'Chargeback', 'deducted', 0],
      ['', '', '', ''],
      ['Gross', '1 payment(s)', '', 1500000],
      ['Income tax', 'withheld', '', 49500],
      ['Local income tax', 'withheld', '', 4950],
      ['VAT', 'added', '', 0],
      ['Deduction', 'Loan repayment', '대출 상환 10회차', 50000],
      ['Deductions', 'total deducted', '', 50000],
      ['Net', 'paid', '', 1395550],
    ]);
    expect(rows.filter((r) => typeof r[3] === 'number').map((r) => r[3])).toEqual(AMOUNTS);
  });

  it('is the language of the request that starts generate-for-month, for every statement of the run', async () => {
    const start = await p.call('POST', '/api/statements/generate-for-month?lang=en', { settleMonth: MONTH });
    expect(start.body.data).toMatchObject({ totalCount: 1 });
    let run: any;
    for (let i = 0; i < 100; i += 1) {
      run = (await p.call('GET', `/api/statements/generate-for-month/${start.body.data.runId}`)).body.data;
      if (run.status !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(run).toMatchObject({ status: 'COMPLETED', doneCount: 1 });
    expect(await storedLang(statementId)).toBe('en');
    const rows = await download(statementId, '?lang=ko');
    expect(rows[6]).toEqual(['Recruit', 'P-501 PR-1', 'year 1, premium 10,000,000.00 x 10% x 100%', 1000000]);
  });

  it('keeps the money of the statement row exact whatever the language', async () => {
    const detail = (await p.call('GET', `/api/statements/${statementId}`)).body.data;
    expect(detail).toMatchObject({
      grossAmount: '1500000.00',
      incomeTaxAmount: '49500.00',
      localTaxAmount: '4950.00',
      vatAmount: '0.00',
      deductionAmount: '50000.00',
      netAmount: '1395550.00',
      recruitTotal: '1000000.00',
      otherTotal: '234567.89',
      exceptionPlus: '265432.11',
    });
  });
});
